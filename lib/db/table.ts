// The one table (single-table design). Its definition lives in infra/table.json, which both
// serverless.yml (CloudFormation) and the local bootstrap (infra/ensure-table.ts) read.
//
// Access patterns, and what serves each:
//   settings document ........................ GetItem  pk=settings          sk=settings
//   rate-limit counter per client and window . UpdateItem pk=ratelimit#<client> sk=window#<start>  (TTL)
//   WebSocket connections (fan-out) .......... Query    pk=ws                sk begins_with conn#  (TTL)
//   database health probe .................... GetItem  pk=health            sk=health (need not exist)
//   (later issues add: items by id, recent items newest first on gsi1, library files by
//    relative path, scan jobs by id / newest first / running by path, provider cache.)
//
// Only this module builds keys: every key names its entity, so a stray item says what it is.
import definition from '../../infra/table.json';

export const TABLE_DEFINITION = definition;
export const TTL_ATTRIBUTE = definition.TimeToLiveSpecification.AttributeName;

export interface Key {
  pk: string;
  sk: string;
}

export const keys = {
  settings: (): Key => ({ pk: 'settings', sk: 'settings' }),
  rateLimit: (client: string, windowStart: number): Key => ({ pk: `ratelimit#${client}`, sk: `window#${windowStart}` }),
  wsConnections: () => ({ pk: 'ws', skPrefix: 'conn#' }),
  wsConnection: (connectionId: string): Key => ({ pk: 'ws', sk: `conn#${connectionId}` }),
  healthProbe: (): Key => ({ pk: 'health', sk: 'health' }),
} as const;

/** Seconds since the epoch, as DynamoDB's TTL attribute wants. */
export const ttlIn = (seconds: number, now = Date.now()) => Math.floor(now / 1000) + seconds;
