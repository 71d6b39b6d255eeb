// A match someone chose for a movie or a show ("Fix match"): the provider record it is pinned
// to, who pinned it and when. Kept as an item of its own beside the catalogue item, not on it:
// a rescan rewrites the item from its file name, a move or a rename carries only its id, and
// none of them may lose or replace the choice. The scan's metadata phase reads the locks of the
// titles it describes (one BatchGetItem per batch) and asks the provider for nothing but the
// pinned record of a locked one. An item removed for good takes its lock along (the scan's
// removals and a library's deletion call `forget`).
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { batchGet, batchWrite } from '../db/batch';
import { guarded, type Db } from '../db/client';
import { keys } from '../db/table';

export interface MatchLock {
  itemId: string;
  /** The provider's id of the chosen record (TMDB's, for a movie or a show as the item is). */
  tmdbId: number;
  /** ISO time it was chosen. */
  lockedAt: string;
  /** Who chose it, as far as a LAN without accounts can tell: the client's address. */
  lockedBy: string;
}

export interface MatchLockStore {
  get(itemId: string): Promise<MatchLock | undefined>;
  /** The locks of those of `itemIds` that have one. */
  getMany(itemIds: readonly string[]): Promise<Map<string, MatchLock>>;
  put(lock: MatchLock): Promise<void>;
  /** False when there was none. */
  remove(itemId: string): Promise<boolean>;
  /** The locks of items gone for good: read first, so only those that exist cost a write. */
  forget(itemIds: readonly string[]): Promise<void>;
}

const fromRow = (row: Record<string, unknown>): MatchLock => ({
  itemId: String(row.itemId),
  tmdbId: Number(row.tmdbId),
  lockedAt: String(row.lockedAt),
  lockedBy: typeof row.lockedBy === 'string' ? row.lockedBy : '',
});

export class DynamoMatchLockStore implements MatchLockStore {
  constructor(private readonly db: () => Db) {}

  async get(itemId: string): Promise<MatchLock | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.matchLock(itemId) })));
    return out.Item ? fromRow(out.Item) : undefined;
  }

  async getMany(itemIds: readonly string[]): Promise<Map<string, MatchLock>> {
    const rows = await batchGet(
      this.db(),
      itemIds.map((id) => keys.matchLock(id)),
    );
    return new Map(rows.map((row) => [String(row.itemId), fromRow(row)]));
  }

  async put(lock: MatchLock): Promise<void> {
    const { doc, tableName } = this.db();
    await guarded(() => doc.send(new PutCommand({ TableName: tableName, Item: { ...keys.matchLock(lock.itemId), ...lock } })));
  }

  async forget(itemIds: readonly string[]): Promise<void> {
    const found = await this.getMany(itemIds);
    await batchWrite(
      this.db(),
      [...found.keys()].map((id) => ({ delete: keys.matchLock(id) })),
    );
  }

  async remove(itemId: string): Promise<boolean> {
    const { doc, tableName } = this.db();
    const out = await guarded(() =>
      doc.send(new DeleteCommand({ TableName: tableName, Key: keys.matchLock(itemId), ReturnValues: 'ALL_OLD' })),
    );
    return out.Attributes !== undefined;
  }
}
