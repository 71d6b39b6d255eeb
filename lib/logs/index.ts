// The logs folder: readers of the service log (files at home, CloudWatch Logs in the cloud) and the one this process uses.
export * from './configured-reader';
