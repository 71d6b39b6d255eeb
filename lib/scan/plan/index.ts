// The scan plan: pure functions from the files found and the library index to what to write and remove.
export * from './plan';
