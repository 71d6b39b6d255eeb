// Scan jobs in the one table. Each write carries the version it read, so a worker and a
// cleanup pass can never overwrite each other's state; and a job that becomes active takes
// its library's lock in the same transaction (released when it finishes), so one library
// (and so one path) never has two scans writing its index at once.
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { guarded, queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import { jobChanged, scanAlreadyRunning } from '../errors';
import type { Versioned } from '../settings/store';
import { isActive, type JobStatus, type ScanJob } from './job';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface ScanJobStore {
  /** Saves a new (queued) job and takes its library's lock: 409 scan-already-running when another job holds its library. */
  create(job: ScanJob): Promise<Versioned<ScanJob>>;
  get(jobId: string): Promise<Versioned<ScanJob> | undefined>;
  /** Writes the next state of a job read as `prev`; 409 when it changed meanwhile or its library is taken. */
  save(prev: Versioned<ScanJob>, next: ScanJob): Promise<Versioned<ScanJob>>;
  /** Newest first; with `since` (ISO), only the jobs created at or after it. */
  list(opts: { status?: JobStatus | undefined; limit: number; since?: string | undefined }): Promise<ScanJob[]>;
  /** Removes a finished job (cleanup of old ones). */
  remove(job: Versioned<ScanJob>): Promise<void>;
  /** The id of the queued or running job holding a library, if any. */
  activeJobOf(libraryId: string): Promise<string | undefined>;
}

/** The job as stored, without the table's own attributes. */
const toJob = (item: Record<string, unknown>): ScanJob => {
  const { pk: _pk, sk: _sk, gsi1pk: _g, gsi1sk: _s, entity: _e, version: _v, ...job } = item;
  return job as unknown as ScanJob;
};

const reasonsOf = (err: unknown) =>
  ((err as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? []).map((r) => r.Code ?? 'None');

export class DynamoScanJobStore implements ScanJobStore {
  constructor(private readonly db: () => Db) {}

  private item(job: ScanJob, version: number) {
    return { ...keys.scanJob(job.jobId), ...keys.scanJobsByAge(job.createdAt, job.jobId), entity: 'scan-job', ...job, version };
  }

  private takeLock(job: ScanJob): TransactItem {
    return {
      Put: {
        TableName: this.db().tableName,
        Item: { ...keys.scanLock(job.libraryId), entity: 'scan-lock', jobId: job.jobId, libraryId: job.libraryId, path: job.path },
        ConditionExpression: 'attribute_not_exists(pk) OR jobId = :jobId',
        ExpressionAttributeValues: { ':jobId': job.jobId },
      },
    };
  }

  private releaseLock(job: ScanJob): TransactItem {
    return {
      Delete: {
        TableName: this.db().tableName,
        Key: keys.scanLock(job.libraryId),
        // Only our own lock: never free a library another job holds.
        ConditionExpression: 'attribute_not_exists(pk) OR jobId = :jobId',
        ExpressionAttributeValues: { ':jobId': job.jobId },
      },
    };
  }

  /** The job write and, when the job's activity changes, the lock write, all or nothing. */
  private async write(job: ScanJob, expected: number | undefined, lockChange: TransactItem | undefined) {
    const { doc, tableName } = this.db();
    const jobPut: TransactItem = {
      Put: {
        TableName: tableName,
        Item: this.item(job, (expected ?? 0) + 1),
        ConditionExpression: expected === undefined ? 'attribute_not_exists(pk)' : '#version = :expected',
        ...(expected === undefined
          ? {}
          : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':expected': expected } }),
      },
    };
    try {
      await guarded(() => doc.send(new TransactWriteCommand({ TransactItems: lockChange ? [jobPut, lockChange] : [jobPut] })));
    } catch (err) {
      if ((err as Error).name !== 'TransactionCanceledException') throw err;
      const [jobReason, lockReason] = reasonsOf(err);
      if (lockReason === 'ConditionalCheckFailed') throw scanAlreadyRunning(job.path);
      if (jobReason === 'ConditionalCheckFailed') throw jobChanged(job.jobId);
      throw err;
    }
    return { value: job, version: (expected ?? 0) + 1 };
  }

  create(job: ScanJob) {
    return this.write(job, undefined, isActive(job) ? this.takeLock(job) : undefined);
  }

  async get(jobId: string): Promise<Versioned<ScanJob> | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.scanJob(jobId), ConsistentRead: true })));
    if (!out.Item) return undefined;
    return { value: toJob(out.Item), version: Number(out.Item.version) };
  }

  save(prev: Versioned<ScanJob>, next: ScanJob) {
    const was = isActive(prev.value);
    const is = isActive(next);
    const lockChange = !was && is ? this.takeLock(next) : was && !is ? this.releaseLock(next) : undefined;
    return this.write(next, prev.version, lockChange);
  }

  async list({ status, limit, since }: { status?: JobStatus | undefined; limit: number; since?: string | undefined }): Promise<ScanJob[]> {
    const { index, pk } = keys.scanJobsIndex();
    const jobs: ScanJob[] = [];
    // The index sorts by `<createdAt>#<jobId>`: a time alone sorts before every job created then.
    const items = queryItems(this.db(), {
      IndexName: index,
      KeyConditionExpression: since === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk >= :since',
      ScanIndexForward: false,
      ...(status ? { FilterExpression: '#status = :status', ExpressionAttributeNames: { '#status': 'status' } } : {}),
      ExpressionAttributeValues: {
        ':pk': pk,
        ...(status ? { ':status': status } : {}),
        ...(since === undefined ? {} : { ':since': since }),
      },
    });
    for await (const item of items) {
      if (jobs.length >= limit) break;
      jobs.push(toJob(item));
    }
    return jobs;
  }

  async activeJobOf(libraryId: string) {
    const { doc, tableName } = this.db();
    const out = await guarded(() =>
      doc.send(new GetCommand({ TableName: tableName, Key: keys.scanLock(libraryId), ConsistentRead: true })),
    );
    return out.Item?.jobId as string | undefined;
  }

  async remove(job: Versioned<ScanJob>) {
    const { doc, tableName } = this.db();
    const items: TransactItem[] = [
      {
        Delete: {
          TableName: tableName,
          Key: keys.scanJob(job.value.jobId),
          ConditionExpression: '#version = :expected',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':expected': job.version },
        },
      },
    ];
    if (isActive(job.value)) items.push(this.releaseLock(job.value));
    try {
      await guarded(() => doc.send(new TransactWriteCommand({ TransactItems: items })));
    } catch (err) {
      if ((err as Error).name === 'TransactionCanceledException') throw jobChanged(job.value.jobId);
      throw err;
    }
  }
}
