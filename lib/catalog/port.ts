// The catalogue's port: what its consumers (scans, readers, the process's holder in
// lib/catalog/snapshot.ts) ask of a store of it. Its adapters: DynamoCatalogStore
// (lib/catalog/store.ts) and MemoryCatalogStore (lib/catalog/memory-store.ts).
import type { MediaKind } from '../library/model';
import type { CatalogItem, EpisodeItem, IndexEntry, TitledItem } from './model';
import type { Page } from './recent-page';
import type { VersionState } from './snapshot';

/** How a write moves the stamp: `quiet` for a running scan's step, which readers need not wait to see. */
export interface WriteOptions {
  quiet?: boolean;
}

export interface CatalogStore {
  /** Writes items whole (a second write of the same id replaces it), shows before the rest; then moves the stamp. */
  put(items: CatalogItem[], options?: WriteOptions): Promise<void>;
  /** Removes items; then moves the stamp. */
  remove(ids: string[], options?: WriteOptions): Promise<void>;
  /** `consistent`: every write made before the call is seen. */
  get(id: string, options?: { consistent?: boolean }): Promise<CatalogItem | undefined>;
  /** Missing ids are left out; the order is not the ids' order. `consistent`: every write made before the call is seen. */
  getMany(ids: string[], options?: { consistent?: boolean }): Promise<CatalogItem[]>;
  /** An item's mesh-gradient colours and the poster they came from (nothing when the item is gone); then a quiet move. */
  setColors(id: string, colors: string[], fromPoster: string): Promise<void>;
  /** Everything a rescan compares, for one library. */
  index(libraryId: string): Promise<IndexEntry[]>;
  /** The ids of up to `limit` items of one library, the first in its index's order (a removal takes them a page at a time). */
  firstOf(libraryId: string, limit: number): Promise<string[]>;
  /** Movies or shows, newest first, a page at a time; `matched` keeps only those the provider did (or did not) describe. */
  recent(type: MediaKind, limit: number, cursor?: string, matched?: boolean): Promise<Page<TitledItem>>;
  /** How many movies or shows the provider did (or did not) describe. */
  countMatched(type: MediaKind, matched: boolean): Promise<number>;
  /** Every movie and show, for the search index. */
  titled(): AsyncIterable<TitledItem>;
  /** A show's episodes, by season then episode number. */
  episodes(showId: string): Promise<EpisodeItem[]>;
  /** A stamp that moves whenever the catalogue changes. */
  version(): Promise<number>;
  /** The stamp, and whether its last move was a running scan's (lib/catalog/snapshot.ts). */
  versionState(): Promise<VersionState>;
  /**
   * A move that no write of this store makes by itself: `everything`, readers read the whole
   * catalogue again (a resumed run may follow writes a crash left unannounced); or the end of a
   * scan, which readers wait to see (its steps' moves were quiet).
   */
  bumpVersion(options?: { quiet?: boolean; everything?: boolean }): Promise<void>;
  /**
   * Withdraws a library's items from every reading from this move on, while they are removed
   * (lib/library/removal.ts), or ends that once they are gone. A move readers wait to see.
   */
  withdrawLibrary(libraryId: string, withdrawn: boolean): Promise<void>;
  /** The ids the stamp's moves after `from` up to `to` announced; undefined when a reader must read everything. */
  changedBetween(from: number, to: number): Promise<string[] | undefined>;
  /** Tells `listener` of each move this store makes (the process's catalogue holder). */
  onMove?(listener: (state: VersionState) => void): void;
}
