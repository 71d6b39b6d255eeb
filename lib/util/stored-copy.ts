// A value as a store holds it, for the in-memory adapters: a copy that shares nothing with the
// caller (changing what was written or read does not change the store), with fields left
// undefined dropped, as the DynamoDB adapters' marshalling drops them. Stored values are plain
// data (strings, numbers, booleans, null, arrays and objects of them).
export const storedCopy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
