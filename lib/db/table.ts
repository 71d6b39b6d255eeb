// The one table (single-table design). Its definition lives in infra/table.json, which both
// serverless.yml (CloudFormation) and the local bootstrap (infra/ensure-table.ts) read.
//
// Access patterns, and what serves each:
//   settings document ........................ GetItem  pk=settings          sk=settings
//   rate-limit counter per client and window . UpdateItem pk=ratelimit#<client> sk=window#<start>  (TTL)
//   WebSocket connections (fan-out) .......... Query    pk=ws                sk begins_with conn#  (TTL)
//   database health probe .................... GetItem  pk=health            sk=health (need not exist)
//   scan job by id ........................... GetItem  pk=job#<id>          sk=job
//   scan jobs newest first ................... Query gsi1  gsi1pk=jobs       gsi1sk=<createdAt>#<id>, descending
//   the active (queued/running) job of a path  GetItem  pk=scanlock#<path>   sk=lock, written in one
//                                              transaction with the job, so a path never has two
//   (later issues add: items by id, recent items newest first on gsi1, library files by
//    relative path, provider cache.)
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
  scanJob: (jobId: string): Key => ({ pk: `job#${jobId}`, sk: 'job' }),
  scanJobsByAge: (createdAt: string, jobId: string) => ({ gsi1pk: 'jobs', gsi1sk: `${createdAt}#${jobId}` }),
  scanJobsIndex: () => ({ index: 'gsi1', pk: 'jobs' }),
  scanLock: (path: string): Key => ({ pk: `scanlock#${path}`, sk: 'lock' }),
} as const;

/** Seconds since the epoch, as DynamoDB's TTL attribute wants. */
export const ttlIn = (seconds: number, now = Date.now()) => Math.floor(now / 1000) + seconds;
