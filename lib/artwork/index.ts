// The artwork cache: its stores, and the one this process uses.
export * from './configured';
