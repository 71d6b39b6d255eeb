// Many puts and deletes in BatchWriteItem calls of 25, a few calls in flight, with the
// unprocessed remainder retried (DynamoDB may hand back part of a batch under load; the
// catalogue's BatchGetItem retries its unprocessed keys the same way, `untilProcessed`).
// Each item is written whole, so a batch that is retried or replayed after a crash writes
// the same items again: callers make that idempotent by choosing keys, not by luck.
import { setTimeout as sleep } from 'node:timers/promises';
import { BatchWriteCommand, type BatchWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dependencyUnavailable } from '../errors';
import { databaseDiskFull, guarded, type Db } from './client';
import type { Key } from './table';
import { eachLimited } from '../util/pool';

type WriteRequest = NonNullable<BatchWriteCommandInput['RequestItems']>[string][number];

const BATCH = 25;
const IN_FLIGHT = 4;
const MAX_ATTEMPTS = 8;

export type Write = { put: Record<string, unknown> & Key } | { delete: Key };

const toRequest = (w: Write): WriteRequest => ('put' in w ? { PutRequest: { Item: w.put } } : { DeleteRequest: { Key: w.delete } });

/** What was left unprocessed for good: no room on its disk (507), else a database that cannot keep up (503, worth waiting for). */
const refused = (detail: string) => databaseDiskFull() ?? dependencyUnavailable('database', new Error(detail));

/**
 * One batch call after another until DynamoDB has taken every request: `send` makes one call
 * with what is pending and returns what the answer left unprocessed. Between calls a pause that
 * doubles (50 ms, 100 ms ... 1 s at most); after MAX_ATTEMPTS calls with something still left
 * it gives up, naming how many `what` (writes, keys) remain. `wait` is for tests.
 */
export const untilProcessed = async <T>(what: string, requests: T[], send: (pending: T[]) => Promise<T[]>, wait: (ms: number) => Promise<unknown> = sleep): Promise<void> => {
  let pending = requests;
  for (let attempt = 1; pending.length; attempt++) {
    pending = await send(pending);
    if (pending.length && attempt >= MAX_ATTEMPTS) throw refused(`${pending.length} ${what} still unprocessed after ${attempt} attempts`);
    if (pending.length) await wait(Math.min(1_000, 25 * 2 ** attempt));
  }
};

const sendBatch = (db: Db, requests: WriteRequest[]) =>
  untilProcessed('writes', requests, async (pending) => {
    const out = await guarded(() => db.doc.send(new BatchWriteCommand({ RequestItems: { [db.tableName]: pending } })));
    return (out.UnprocessedItems?.[db.tableName] ?? []) as WriteRequest[];
  });

export const batchWrite = async (db: Db, writes: Write[]): Promise<void> => {
  // One key twice in a batch is refused by DynamoDB: the last write of a key wins.
  const byKey = new Map<string, WriteRequest>();
  for (const w of writes) {
    const key = 'put' in w ? w.put : w.delete;
    byKey.set(`${key.pk}\u0000${key.sk}`, toRequest(w));
  }
  const requests = [...byKey.values()];
  const batches: WriteRequest[][] = [];
  for (let i = 0; i < requests.length; i += BATCH) batches.push(requests.slice(i, i + BATCH));
  await eachLimited(batches, IN_FLIGHT, (batch) => sendBatch(db, batch));
};
