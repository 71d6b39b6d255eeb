// The media storage port, its adapters, and the one this process uses.
export * from './configured';
