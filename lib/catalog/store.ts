// The catalogue in the one table: one item per movie, show and episode (pk=media#<id>), on
// gsi1 for the recent lists and a show's episodes in order, and on gsi2 for its library's
// index. A version stamp moves whenever the catalogue changes: every write of this store moves it
// itself, once the write is done, so a process holding the catalogue (lib/catalog/snapshot.ts)
// knows, with one GetItem, whether it is still current; each move names the items it announces
// (lib/catalog/changes.ts), so that process reads only those again.
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changedBetween, moveStamp, readStamp, type Withdrawal } from './changes';
import { batchGet, batchWrite } from '../db/batch';
import { guarded, isConditionFailed, queryItems, READ_PAGE, type Db } from '../db/client';
import type { VersionState } from './snapshot';
import { keys } from '../db/table';
import type { MediaKind } from '../library/model';
import { decodeCursor, encodeCursor, type Page } from './recent-page';
import type { CatalogItem, EpisodeItem, IndexEntry, TitledItem } from './model';
import type { CatalogStore, WriteOptions } from './port';
import { matchedFilter, stored, strip } from './stored-item';

export type { CatalogStore, WriteOptions } from './port';

export class DynamoCatalogStore implements CatalogStore {
  /**
   * Items written since this store last moved the stamp: its next move announces them. Noted once the
   * write returns or fails (a failed batch may have written part), never before its write.
   */
  private readonly unannounced = new Set<string>();
  private readonly moveListeners: Array<(state: VersionState) => void> = [];

  constructor(private readonly db: () => Db) {}

  /** `write`, then a move announcing its ids (and any a failed move left unannounced). */
  private async noting<T>(ids: readonly string[], write: () => Promise<T>, { quiet = false }: WriteOptions = {}): Promise<T> {
    let result: T;
    try {
      result = await write();
    } finally {
      for (const id of ids) this.unannounced.add(id);
    }
    await this.bumpVersion({ quiet });
    return result;
  }

  async put(items: CatalogItem[], options?: WriteOptions) {
    if (!items.length) return;
    // Shows before their episodes: an episode written under a moved show is never found by a
    // resumed scan without that show's new path (lib/scan/plan/moves.ts).
    const shows = items.filter((i) => i.entity === 'tvshow');
    const rest = shows.length ? items.filter((i) => i.entity !== 'tvshow') : items;
    await this.noting(
      items.map((i) => i.id),
      async () => {
        if (shows.length)
          await batchWrite(
            this.db(),
            shows.map((item) => ({ put: stored(item) })),
          );
        if (rest.length)
          await batchWrite(
            this.db(),
            rest.map((item) => ({ put: stored(item) })),
          );
      },
      options,
    );
  }

  async remove(ids: string[], options?: WriteOptions) {
    if (!ids.length) return;
    await this.noting(
      ids,
      () =>
        batchWrite(
          this.db(),
          ids.map((id) => ({ delete: keys.media(id) })),
        ),
      options,
    );
  }

  async get(id: string, { consistent = false } = {}): Promise<CatalogItem | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.media(id), ConsistentRead: consistent })));
    return out.Item ? strip<CatalogItem>(out.Item) : undefined;
  }

  /** An item's mesh-gradient colours and the poster they came from; nothing when the item is gone. */
  async setColors(id: string, colors: string[], fromPoster: string) {
    const { doc, tableName } = this.db();
    await this.noting(
      [id],
      () =>
        guarded(() =>
          doc.send(
            new UpdateCommand({
              TableName: tableName,
              Key: keys.media(id),
              UpdateExpression: 'SET meshGradientColors = :c, colorsFrom = :p',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':c': colors, ':p': fromPoster },
            }),
          ),
        ).catch((err: unknown) => {
          if (!isConditionFailed(err)) throw err;
        }),
      { quiet: true },
    );
  }

  /** Several items by id (lib/db/batch.ts's batchGet); missing ids are left out. */
  async getMany(ids: string[], { consistent = false } = {}): Promise<CatalogItem[]> {
    const rows = await batchGet(
      this.db(),
      ids.map((id) => keys.media(id)),
      { consistent },
    );
    return rows.map((row) => strip<CatalogItem>(row));
  }

  /** Every item of one index partition, in its sort order. */
  private async partition<T>(index: { index: string; pk: string }, keyAttribute: 'gsi1pk' | 'gsi2pk'): Promise<T[]> {
    const items: T[] = [];
    const query = {
      IndexName: index.index,
      KeyConditionExpression: `${keyAttribute} = :pk`,
      ExpressionAttributeValues: { ':pk': index.pk },
    };
    for await (const item of queryItems(this.db(), query)) items.push(strip<T>(item));
    return items;
  }

  /** Everything a rescan compares, for one library. */
  index(libraryId: string): Promise<IndexEntry[]> {
    return this.partition(keys.libraryIndex(libraryId), 'gsi2pk');
  }
  async firstOf(libraryId: string, limit: number): Promise<string[]> {
    const { index, pk } = keys.libraryIndex(libraryId);
    const { doc, tableName } = this.db();
    const q = { TableName: tableName, IndexName: index, KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': pk } };
    const out = await guarded(() => doc.send(new QueryCommand({ ...q, Limit: limit, ProjectionExpression: 'id' })));
    return (out.Items ?? []).map((i) => String(i.id));
  }

  /** Newest first. */
  async recent(type: MediaKind, limit: number, cursor?: string, matched?: boolean): Promise<Page<TitledItem>> {
    if (matched !== undefined) return this.recentFiltered(type, limit, cursor, matched);
    const { doc, tableName } = this.db();
    const { index, pk } = keys.recentIndex(type);
    // One item more than asked for tells, in the same call, whether another page follows.
    const out = await guarded(() =>
      doc.send(
        new QueryCommand({
          TableName: tableName,
          IndexName: index,
          KeyConditionExpression: 'gsi1pk = :pk',
          ExpressionAttributeValues: { ':pk': pk },
          ScanIndexForward: false,
          Limit: limit + 1,
          ...(cursor ? { ExclusiveStartKey: decodeCursor(cursor, pk) } : {}),
        }),
      ),
    );
    const rows = out.Items ?? [];
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    // (A page cut short by DynamoDB's 1 MB limit goes on from where the read stopped.)
    const nextCursor =
      rows.length > limit && last
        ? encodeCursor({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk })
        : encodeCursor(out.LastEvaluatedKey);
    return { items: page.map((i) => strip<TitledItem>(i)), nextCursor };
  }

  /**
   * A page of those matched (or not). DynamoDB filters after it reads, so the index is read on
   * until the page is full or it ends: a page of the few unmatched titles of a big library reads
   * much of it (an occasional view, to fix them in one sitting).
   */
  private async recentFiltered(type: MediaKind, limit: number, cursor: string | undefined, matched: boolean): Promise<Page<TitledItem>> {
    const { doc, tableName } = this.db();
    const { index, pk } = keys.recentIndex(type);
    const rows: Record<string, unknown>[] = [];
    let start: Record<string, unknown> | undefined = cursor ? decodeCursor(cursor, pk) : undefined;
    do {
      const out = await guarded(() =>
        doc.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: index,
            ScanIndexForward: false,
            Limit: READ_PAGE,
            ExclusiveStartKey: start,
            ...matchedFilter(pk, matched),
          }),
        ),
      );
      rows.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (rows.length <= limit && start);
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    const nextCursor =
      rows.length > limit && last ? encodeCursor({ pk: last.pk, sk: last.sk, gsi1pk: last.gsi1pk, gsi1sk: last.gsi1sk }) : null;
    return { items: page.map((i) => strip<TitledItem>(i)), nextCursor };
  }

  async countMatched(type: MediaKind, matched: boolean): Promise<number> {
    const { doc, tableName } = this.db();
    const { index, pk } = keys.recentIndex(type);
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const out = await guarded(() =>
        doc.send(
          new QueryCommand({
            TableName: tableName,
            IndexName: index,
            Select: 'COUNT',
            Limit: READ_PAGE,
            ExclusiveStartKey: start,
            ...matchedFilter(pk, matched),
          }),
        ),
      );
      count += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return count;
  }

  /** Every movie and show, for the search index. */
  async *titled(): AsyncGenerator<TitledItem> {
    for (const type of ['movie', 'tvshow'] as const) {
      const { index, pk } = keys.recentIndex(type);
      for await (const item of queryItems(this.db(), {
        IndexName: index,
        KeyConditionExpression: 'gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
      })) {
        yield strip<TitledItem>(item);
      }
    }
  }

  /** A show's episodes, by season then episode number. */
  episodes(showId: string): Promise<EpisodeItem[]> {
    return this.partition(keys.episodesIndex(showId), 'gsi1pk');
  }

  async version(): Promise<number> {
    return (await this.versionState()).version;
  }
  versionState(): Promise<VersionState> {
    return readStamp(this.db());
  }

  bumpVersion({ quiet = false, everything = false }: { quiet?: boolean; everything?: boolean } = {}): Promise<void> {
    return this.move(quiet, everything);
  }
  withdrawLibrary(libraryId: string, withdrawn: boolean): Promise<void> {
    return this.move(false, false, withdrawn ? { withdraw: libraryId } : { restore: libraryId });
  }

  private async move(quiet: boolean, everything: boolean, change?: Withdrawal): Promise<void> {
    const announced = [...this.unannounced];
    this.unannounced.clear();
    try {
      const moved = await moveStamp(this.db(), quiet, everything ? 'everything' : announced, change);
      for (const listener of this.moveListeners) listener(moved);
    } catch (err) {
      // Still unannounced: the next move names them.
      for (const id of announced) this.unannounced.add(id);
      throw err;
    }
  }

  changedBetween(from: number, to: number): Promise<string[] | undefined> {
    return changedBetween(this.db(), from, to);
  }

  onMove(listener: (state: VersionState) => void) {
    this.moveListeners.push(listener);
  }
}
