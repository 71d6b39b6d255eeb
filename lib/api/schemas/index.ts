// The contract's shapes as JSON Schemas (TypeBox): the same objects validate requests
// (lib/http/validate.ts), type the handlers, and become the OpenAPI document (lib/api/openapi.ts).
// One file per part of the contract; NAMED_SCHEMAS (named.ts) lists those the document names.
export { Id, ListMeta, MediaType, Problem } from './common';
export * from './browse';
export * from './collections';
export * from './health';
export * from './library';
export * from './logs';
export * from './matching';
export * from './media';
export * from './named';
export * from './playback';
export * from './queries';
export * from './scans';
export * from './settings';
export * from './user-data';
export * from './watching';
export * from './websocket';
