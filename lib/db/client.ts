// The DynamoDB adapter's connection: short timeouts so a database that is down answers
// 503 in about a second instead of hanging, and one place that turns "cannot reach the
// database" into the catalogue's dependency-unavailable error.
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dependencyUnavailable, diskFull, type AppError } from '../errors';
import { diskSpace, NEARLY_FULL_BYTES, releaseReserve } from '../util/disk-space';

export interface DbSettings {
  tableName: string;
  endpoint?: string | undefined;
  region: string;
  localCredentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

export interface Db {
  doc: DynamoDBDocumentClient;
  raw: DynamoDBClient;
  tableName: string;
}

export const createDb = (settings: DbSettings): Db => {
  const raw = new DynamoDBClient({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    ...(settings.localCredentials ? { credentials: settings.localCredentials } : {}),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 1_000, requestTimeout: 3_000 },
  });
  const doc = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
  return { raw, doc, tableName: settings.tableName };
};

let shared: Db | undefined;
/** The process-wide client (warm Lambda containers and in-process handlers reuse it). */
export const db = (): Db => (shared ??= createDb(config.db));

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const OVERLOADED_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
]);

/** True when the error says the database could not be reached or could not serve now. */
export const isUnavailable = (err: unknown): boolean => {
  if (!(err instanceof Error)) return false;
  const e = err as Error & { code?: string; $metadata?: { httpStatusCode?: number } };
  if (e.code && UNREACHABLE_CODES.has(e.code)) return true;
  if (OVERLOADED_NAMES.has(e.name)) return true;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined && status >= 500) return true;
  return /socket hang up|ECONNREFUSED|ECONNRESET/.test(e.message);
};

/**
 * The embedded database answers a write it has no room for with a bare 500 (InternalFailure:
 * its SQLite said SQLITE_FULL), or hands a batch's items back unprocessed. Either while its
 * disk is all but full is a full disk: the reserve is given up, so that what records the fact
 * (a paused scan) finds room, and the 507 to send is returned; undefined otherwise.
 */
export const databaseDiskFull = (): AppError | undefined => {
  const dir = config.disk.databaseDir;
  const space = dir ? diskSpace(dir) : undefined;
  if (!space || space.freeBytes >= NEARLY_FULL_BYTES) return undefined;
  releaseReserve(config.dataDir);
  return diskFull(config.dataDir);
};

/** A conditional write whose condition did not hold (not a fault: another writer was first). */
export const isConditionFailed = (err: unknown) => err instanceof Error && err.name === 'ConditionalCheckFailedException';

const isServerFailure = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 500;

/** Runs one database call, translating "unreachable" into a 503 and "no room" into a 507 the HTTP stack can render. */
export const guarded = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (err) {
    const full = isServerFailure(err) ? databaseDiskFull() : undefined;
    if (full) throw full;
    if (isUnavailable(err)) throw dependencyUnavailable('database', err);
    throw err;
  }
};

/**
 * Items per page of a read that goes through a whole partition. DynamoDB pages at 1 MB by
 * itself, but DynamoDB Local reads far more of a big partition before it cuts the page: at
 * 100,000 films the first page of the recent list's index outlasted the request timeout and
 * failed, where pages of 500 took at most 0.2 s each (docs/benchmarks.md, Browsing).
 */
export const READ_PAGE = 500;

/** Every item a query matches, page after page; stop early by breaking out of the loop. */
export async function* queryItems(db: Db, input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>) {
  let start: Record<string, unknown> | undefined;
  do {
    const out = await guarded(() =>
      db.doc.send(new QueryCommand({ Limit: READ_PAGE, ...input, TableName: db.tableName, ExclusiveStartKey: start })),
    );
    yield* (out.Items ?? []) as Record<string, unknown>[];
    start = out.LastEvaluatedKey;
  } while (start);
}
