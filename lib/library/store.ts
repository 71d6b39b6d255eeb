// Libraries in the one table. A library and its path are written in one transaction, so two
// racing creates of the same folder cannot both succeed.
import { GetCommand, TransactWriteCommand, UpdateCommand, type UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { guarded, isConditionFailed, queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import { libraryExists } from '../errors';
import {
  DEFAULT_SCAN_INTERVAL_HOURS,
  nextScanAfter,
  type Library,
  type LibraryCounts,
  type LibraryRemoval,
  type LibraryStatus,
  type LibraryUpkeep,
} from './model';

/** What PATCH may change, and what the schedule moves. */
export type LibraryChanges = Partial<Pick<Library, 'name'> & LibraryUpkeep>;

export interface LibraryStore {
  /** Saves a new library with its path; 409 library-exists when the path is taken (also by a racing create). */
  create(library: Library): Promise<void>;
  /** A library, also one being removed (its `removing` set). */
  get(id: string): Promise<Library | undefined>;
  /** Oldest first, without those being removed. */
  list(): Promise<Library[]>;
  /** Those being removed, oldest first. */
  removing(): Promise<Library[]>;
  /** Marks the library as being removed (once: a second mark keeps the first); undefined when there is no such library. */
  markRemoving(id: string, at: string): Promise<Library | undefined>;
  /** Moves a removal's heartbeat on; false when the library is gone. */
  beatRemoval(id: string, at: string): Promise<boolean>;
  /** Records what a finished scan found (and, for a whole-library scan, when the schedule comes next); a library deleted meanwhile stays deleted. */
  recordScan(id: string, counts: LibraryCounts, at: string, nextScanAt?: string | null): Promise<void>;
  /** The counts as a running scan has them so far (lists' totals follow the items as they are written). */
  recordCounts(id: string, counts: LibraryCounts): Promise<void>;
  /** Changes the given fields; undefined when there is no such library. */
  update(id: string, changes: LibraryChanges): Promise<Library | undefined>;
  /** Sets the status when its state differs from the stored one (or its reason does); false when nothing changed or the library is gone. */
  setStatus(id: string, status: LibraryStatus): Promise<boolean>;
  /** Removes the library and frees its path. */
  remove(library: Library): Promise<void>;
}

// Libraries stored before status and schedules existed read as online, rescanned every 12 h.
const withUpkeep = (stored: Omit<Library, keyof LibraryUpkeep | 'status'> & Partial<Library>): Library => {
  const scanIntervalHours = stored.scanIntervalHours ?? DEFAULT_SCAN_INTERVAL_HOURS;
  return {
    ...stored,
    scanIntervalHours,
    monitoring: stored.monitoring ?? true,
    nextScanAt:
      stored.nextScanAt !== undefined
        ? stored.nextScanAt
        : nextScanAfter(Date.parse(stored.lastScannedAt ?? stored.createdAt), scanIntervalHours),
    status: stored.status ?? { state: 'online', reason: null, since: stored.createdAt },
  };
};

const toLibrary = (item: Record<string, unknown>): Library => {
  const { pk: _p, sk: _s, gsi1pk: _g, gsi1sk: _h, entity: _e, ...library } = item;
  return withUpkeep(library as unknown as Library);
};

export class DynamoLibraryStore implements LibraryStore {
  constructor(private readonly db: () => Db) {}

  async create(library: Library): Promise<void> {
    const { doc, tableName } = this.db();
    try {
      await guarded(() =>
        doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: {
                    ...keys.library(library.id),
                    ...keys.librariesByAge(library.createdAt, library.id),
                    entity: 'library',
                    ...library,
                  },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...keys.libraryPath(library.path), entity: 'library-path', libraryId: library.id },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        ),
      );
    } catch (err) {
      if ((err as Error).name === 'TransactionCanceledException') throw libraryExists(library.path, library.path);
      throw err;
    }
  }

  async get(id: string): Promise<Library | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.library(id), ConsistentRead: true })));
    return out.Item ? toLibrary(out.Item) : undefined;
  }

  /** Every library, those being removed too, oldest first. */
  private async all(): Promise<Library[]> {
    const { index, pk } = keys.librariesIndex();
    const libraries: Library[] = [];
    for await (const item of queryItems(this.db(), {
      IndexName: index,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
    })) {
      libraries.push(toLibrary(item));
    }
    return libraries;
  }

  async list(): Promise<Library[]> {
    return (await this.all()).filter((l) => !l.removing);
  }

  async removing(): Promise<Library[]> {
    return (await this.all()).filter((l) => l.removing);
  }

  async markRemoving(id: string, at: string): Promise<Library | undefined> {
    const removal: LibraryRemoval = { since: at, heartbeatAt: at };
    const updated = await this.updateWhere(id, {
      UpdateExpression: 'SET removing = if_not_exists(removing, :r)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':r': removal },
      ReturnValues: 'ALL_NEW',
    });
    return updated ? toLibrary(updated) : undefined;
  }

  async beatRemoval(id: string, at: string): Promise<boolean> {
    const updated = await this.updateWhere(id, {
      UpdateExpression: 'SET removing.heartbeatAt = :at',
      ConditionExpression: 'attribute_exists(removing)',
      ExpressionAttributeValues: { ':at': at },
    });
    return updated !== false;
  }

  /** Records what a finished scan found; a library deleted meanwhile stays deleted. */
  async recordScan(id: string, counts: LibraryCounts, at: string, nextScanAt?: string | null): Promise<void> {
    const schedule = nextScanAt !== undefined;
    await this.updateWhere(id, {
      UpdateExpression: `SET #counts = :counts, lastScannedAt = :at${schedule ? ', nextScanAt = :next' : ''}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#counts': 'counts' },
      ExpressionAttributeValues: { ':counts': counts, ':at': at, ...(schedule ? { ':next': nextScanAt } : {}) },
    });
  }

  async recordCounts(id: string, counts: LibraryCounts): Promise<void> {
    await this.updateWhere(id, {
      UpdateExpression: 'SET #counts = :counts',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: { '#counts': 'counts' },
      ExpressionAttributeValues: { ':counts': counts },
    });
  }

  async update(id: string, changes: LibraryChanges): Promise<Library | undefined> {
    const fields = Object.entries(changes).filter(([, v]) => v !== undefined);
    if (fields.length === 0) return this.get(id);
    const updated = await this.updateWhere(id, {
      UpdateExpression: `SET ${fields.map((_, i) => `#f${i} = :v${i}`).join(', ')}`,
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeNames: Object.fromEntries(fields.map(([k], i) => [`#f${i}`, k])),
      ExpressionAttributeValues: Object.fromEntries(fields.map(([, v], i) => [`:v${i}`, v])),
      ReturnValues: 'ALL_NEW',
    });
    return updated ? toLibrary(updated) : undefined;
  }

  async setStatus(id: string, status: LibraryStatus): Promise<boolean> {
    const updated = await this.updateWhere(id, {
      UpdateExpression: 'SET #status = :status',
      // Two scans or a scan and the monitor seeing the same change: one of them tells.
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(#status) OR #status.#state <> :state OR #status.reason <> :reason)',
      ExpressionAttributeNames: { '#status': 'status', '#state': 'state' },
      ExpressionAttributeValues: { ':status': status, ':state': status.state, ':reason': status.reason },
    });
    return updated !== false;
  }

  /** One conditional update of a library's item: its new attributes when asked for, false when the condition failed. */
  private async updateWhere(
    id: string,
    update: Omit<UpdateCommandInput, 'TableName' | 'Key'>,
  ): Promise<Record<string, unknown> | undefined | false> {
    const { doc, tableName } = this.db();
    try {
      const out = await guarded(() => doc.send(new UpdateCommand({ TableName: tableName, Key: keys.library(id), ...update })));
      return out.Attributes;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  async remove(library: Library): Promise<void> {
    const { doc, tableName } = this.db();
    await guarded(() =>
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: keys.library(library.id) } },
            { Delete: { TableName: tableName, Key: keys.libraryPath(library.path) } },
          ],
        }),
      ),
    );
  }
}
