// The catalogue held in this process's memory: the CatalogStore port with DynamoDB's semantics
// (test/contracts/catalog.ts holds both to them), for unit tests of the services and a storage
// that needs no database. Orders come from the same keys the table sorts by (lib/db/table.ts),
// and pages hand out the same cursors (lib/catalog/recent-page.ts), so a list reads the same
// from either adapter. The version stamp keeps its journal of moves as lib/catalog/changes.ts
// does: the last CHANGES_KEPT, each naming at most ANNOUNCED_MAX ids.
import { keys } from '../db/table';
import type { MediaKind } from '../library/model';
import { ascending } from '../util/order';
import { storedCopy } from '../util/stored-copy';
import { ANNOUNCED_MAX, CHANGES_KEPT, withdrawnAfter, type Announced, type Withdrawal } from './changes';
import type { CatalogItem, EpisodeItem, IndexEntry, TitledItem } from './model';
import { recentPageOf, type Page } from './recent-page';
import type { VersionState } from './snapshot';
import type { CatalogStore, WriteOptions } from './store';

/** What a rescan compares of an item: the fields the table's library index projects. */
const INDEX_FIELDS = [
  'id',
  'entity',
  'files',
  'addedAt',
  'showId',
  'seasonNumber',
  'lastJob',
  'lastChange',
  'enrich',
  'localStamp',
] as const;

const indexEntryOf = (item: CatalogItem): IndexEntry => {
  const fields = item as unknown as Record<string, unknown>;
  return storedCopy(
    Object.fromEntries(INDEX_FIELDS.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]])),
  ) as unknown as IndexEntry;
};

/** Whether the provider described the item, as the table's filter reads it (absent: not). */
const isMatched = (item: TitledItem) => item.metadata?.matched === true;

export class MemoryCatalogStore implements CatalogStore {
  private readonly items = new Map<string, CatalogItem>();
  private stamp: VersionState = { version: 0, quiet: false, withdrawn: [] };
  /** The moves kept, by version: the ids each announced, or everything. */
  private readonly moves = new Map<number, Announced>();
  private readonly moveListeners: Array<(state: VersionState) => void> = [];

  async put(items: CatalogItem[], { quiet = false }: WriteOptions = {}): Promise<void> {
    if (!items.length) return;
    for (const item of items) this.items.set(item.id, storedCopy(item));
    this.move(
      quiet,
      items.map((i) => i.id),
    );
  }

  async remove(ids: string[], { quiet = false }: WriteOptions = {}): Promise<void> {
    if (!ids.length) return;
    for (const id of ids) this.items.delete(id);
    // Removing what is not there is a write of those ids all the same.
    this.move(quiet, ids);
  }

  async get(id: string): Promise<CatalogItem | undefined> {
    const item = this.items.get(id);
    return item && storedCopy(item);
  }

  async getMany(ids: string[]): Promise<CatalogItem[]> {
    return [...new Set(ids)].flatMap((id) => {
      const item = this.items.get(id);
      return item ? [storedCopy(item)] : [];
    });
  }

  async setColors(id: string, colors: string[], fromPoster: string): Promise<void> {
    const item = this.items.get(id);
    // Nothing for an item that is gone: the colours make none.
    if (item) this.items.set(id, storedCopy({ ...item, meshGradientColors: colors, colorsFrom: fromPoster } as CatalogItem));
    this.move(true, [id]);
  }

  /** In the index's order: by entity, then id. */
  async index(libraryId: string): Promise<IndexEntry[]> {
    const members = [...this.items.values()].filter((i) => i.libraryId === libraryId);
    const sortKey = (i: CatalogItem) => keys.libraryMember(libraryId, i.entity, i.id).gsi2sk;
    return members.sort((a, b) => ascending(sortKey(a), sortKey(b))).map(indexEntryOf);
  }

  async firstOf(libraryId: string, limit: number): Promise<string[]> {
    return (await this.index(libraryId)).slice(0, limit).map((e) => e.id);
  }

  /** The movies or shows, newest first (the recent index's order), those the provider did (or did not) describe when asked. */
  private newestFirst(type: MediaKind, matched?: boolean): TitledItem[] {
    const sortKey = (i: TitledItem) => keys.recent(type, i.addedAt, i.id).gsi1sk;
    return [...this.items.values()]
      .filter((i): i is TitledItem => i.entity === type && (matched === undefined || isMatched(i) === matched))
      .sort((a, b) => ascending(sortKey(b), sortKey(a)));
  }

  async recent(type: MediaKind, limit: number, cursor?: string, matched?: boolean): Promise<Page<TitledItem>> {
    const page = recentPageOf(this.newestFirst(type, matched), type, limit, cursor);
    return { ...page, items: page.items.map(storedCopy) };
  }

  async countMatched(type: MediaKind, matched: boolean): Promise<number> {
    return this.newestFirst(type, matched).length;
  }

  async *titled(): AsyncGenerator<TitledItem> {
    for (const type of ['movie', 'tvshow'] as const) for (const item of this.newestFirst(type).reverse()) yield storedCopy(item);
  }

  /** By season, then episode number (the episodes index's order). */
  async episodes(showId: string): Promise<EpisodeItem[]> {
    const sortKey = (e: EpisodeItem) => keys.episodeOrder(showId, e.seasonNumber, e.episodeNumber, e.id).gsi1sk;
    return [...this.items.values()]
      .filter((i): i is EpisodeItem => i.entity === 'episode' && i.showId === showId)
      .sort((a, b) => ascending(sortKey(a), sortKey(b)))
      .map(storedCopy);
  }

  async version(): Promise<number> {
    return this.stamp.version;
  }

  async versionState(): Promise<VersionState> {
    return { ...this.stamp, withdrawn: [...(this.stamp.withdrawn ?? [])] };
  }

  async bumpVersion({ quiet = false, everything = false }: { quiet?: boolean; everything?: boolean } = {}): Promise<void> {
    this.move(quiet, everything ? 'everything' : []);
  }

  async withdrawLibrary(libraryId: string, withdrawn: boolean): Promise<void> {
    this.move(false, [], withdrawn ? { withdraw: libraryId } : { restore: libraryId });
  }

  async changedBetween(from: number, to: number): Promise<string[] | undefined> {
    if (to <= from) return [];
    if (to - from > CHANGES_KEPT) return undefined;
    const ids = new Set<string>();
    for (let version = from + 1; version <= to; version++) {
      const announced = this.moves.get(version);
      if (announced === undefined || announced === 'everything') return undefined;
      for (const id of announced) ids.add(id);
    }
    return [...ids];
  }

  onMove(listener: (state: VersionState) => void): void {
    this.moveListeners.push(listener);
  }

  /** Moves the stamp by one, naming what the move announces (everything when that is too many to name). */
  private move(quiet: boolean, announced: Announced, change?: Withdrawal) {
    const version = this.stamp.version + 1;
    this.stamp = { version, quiet, withdrawn: withdrawnAfter(this.stamp.withdrawn ?? [], change) };
    this.moves.set(version, announced !== 'everything' && announced.length <= ANNOUNCED_MAX ? [...announced] : 'everything');
    this.moves.delete(version - CHANGES_KEPT);
    for (const listener of this.moveListeners) listener({ ...this.stamp });
  }
}
