// The catalogue as this process holds it: every film and show, read once and then kept current
// from the change journal (lib/catalog/changes.ts), and the values derived from it (the search
// and browse indexes, the recent lists, the collections' shelves), each built at most once per
// version. One holder per catalogue store, and lib/deps.ts makes one store per process: one copy.
//
// How the holder knows the version (lib/runtime.ts, `Hosting`):
// - `lambda`: the stamp is read at each call (one GetItem), so whatever another function wrote
//   before this request is seen.
// - `shared-process`: every writer of the catalogue runs in this process (the scan worker, a match
//   fixed, a library removed), and the store tells the holder of each move it makes, so a reader
//   knows the version without asking the database; the stamp is read again behind the readers at
//   most once a second, for a writer elsewhere (a tool on the same table). No read of the lists,
//   search or details waits on the database while a scan writes.
// A move made by a running scan is quiet: readers are answered from the catalogue they have while
// the next one is read behind them. Any other move (a scan's end, a match fixed, a library
// removed) is waited for, so what a person changed is what they see next.
import { config } from '../config';
import type { Hosting } from '../runtime';
import type { Derived } from './derived';
import type { EpisodeItem, TitledItem } from './model';
import type { CatalogStore } from './store';
import { follow, isTitled, withoutLibraries, type Held, type TitledCatalogue } from './titled';

export { derived, type Derived } from './derived';
export type { TitledCatalogue } from './titled';

export interface VersionState {
  version: number;
  /** Moved by a running scan: a reader may be answered from the last catalogue while the next is read. */
  quiet: boolean;
  /** Libraries being removed: their items, still in the table for a while, are left out of every reading (sorted). */
  withdrawn?: readonly string[];
}

/** What the holder needs of a store; `onMove` where the store can tell of its own moves. */
export type SnapshotSource = Pick<CatalogStore, 'versionState' | 'changedBetween' | 'getMany' | 'titled' | 'get' | 'episodes'> & {
  onMove?(listener: (state: VersionState) => void): void;
};

/** In a shared process, the stamp is read again behind the readers this often (writers elsewhere). */
const RECHECK_MS = 1_000;

export class CatalogueSnapshot {
  private current: { version: number; held: Held } | undefined;
  private loading: { version: number; value: Promise<Held> } | undefined;
  /** The stamp as last known (shared process): read, or moved by this process's store. */
  private known: { state: VersionState; at: number } | undefined;
  /**
   * The newest version a move that was not quiet made (a scan's end, a match fixed): no reader
   * is answered from a catalogue older than it, even when quiet moves (another scan's) came after.
   */
  private firm = 0;
  /** The newest version each catalogue held is known to be: a move that changed no title keeps the same one. */
  private readonly versions = new WeakMap<TitledCatalogue, number>();
  private stampRead: Promise<VersionState> | undefined;

  constructor(
    private readonly source: SnapshotSource,
    private readonly hosting: Hosting,
    private readonly clock: () => number = Date.now,
  ) {
    if (hosting === 'shared-process') source.onMove?.((state) => this.learn(state));
  }

  /** Whether readers are answered from the whole catalogue held here (a shared process), rather than reading what they show. */
  get holdsEverything(): boolean {
    return this.hosting === 'shared-process';
  }

  private learn(state: VersionState) {
    if (!state.quiet) this.firm = Math.max(this.firm, state.version);
    if (!this.known || this.known.state.version <= state.version) this.known = { state, at: this.clock() };
  }

  /** Whether a reader may be answered from `titled` while a newer catalogue is read behind it. */
  private mayLag(titled: TitledCatalogue) {
    return (this.versions.get(titled) ?? -1) >= this.firm;
  }

  private readStamp(): Promise<VersionState> {
    if (!this.stampRead) {
      const read = this.source.versionState().then((state) => {
        this.learn(state);
        return state;
      });
      this.stampRead = read;
      void read.catch(() => undefined).finally(() => (this.stampRead = undefined));
    }
    return this.stampRead;
  }

  /** The stamp: asked of the database in a Lambda; known in a shared process (and read again behind the readers). */
  private async stamp(): Promise<VersionState> {
    if (this.hosting !== 'shared-process' || !this.known) return this.readStamp();
    if (this.clock() - this.known.at >= RECHECK_MS) void this.readStamp().catch(() => undefined);
    return this.known.state;
  }

  /** One load at a time, each from the last: a newer version waits for the one being read. */
  private reload({ version, withdrawn = [] }: VersionState): Promise<Held> {
    if (this.loading && this.loading.version >= version) return this.loading.value;
    const before = this.loading?.value.catch(() => undefined);
    const value = (async () => {
      await before;
      const base = this.current;
      if (base && base.version >= version) return base.held;
      const followed = await follow(this.source, base?.held, base && (await this.source.changedBetween(base.version, version)));
      const held = withoutLibraries(this.source, followed, withdrawn);
      this.versions.set(held.catalogue, Math.max(version, this.versions.get(held.catalogue) ?? -1));
      if (!this.current || this.current.version < version) this.current = { version, held };
      return held;
    })();
    const entry = { version, value };
    this.loading = entry;
    void value
      .catch(() => undefined)
      .finally(() => {
        if (this.loading === entry) this.loading = undefined;
      });
    return value;
  }

  /**
   * The films and shows, and whether a newer catalogue is being read behind this one.
   * `lag`: a reader that may be a moment behind any move (the watch rows) is never made to wait.
   */
  private async reading(lag: boolean, state?: VersionState): Promise<{ titled: TitledCatalogue; behind: boolean }> {
    const now = state ?? (await this.stamp());
    const { version, quiet } = now;
    const held = this.current;
    if (held && held.version >= version) return { titled: held.held.catalogue, behind: false };
    // A library withdrawn since is never shown, not even to a reader that may lag.
    const sameWithdrawn = held?.held.withdrawn.join() === (now.withdrawn ?? []).join();
    if (held && sameWithdrawn && (lag || (quiet && this.mayLag(held.held.catalogue)))) {
      void this.reload(now).catch(() => undefined);
      return { titled: held.held.catalogue, behind: true };
    }
    return { titled: (await this.reload(now)).catalogue, behind: false };
  }

  /** The libraries being removed, whose items no reader shows (lib/library/removal.ts). */
  async withdrawn(): Promise<ReadonlySet<string>> {
    return new Set((await this.stamp()).withdrawn);
  }

  /** The films and shows as the catalogue has them now (during a scan: as of a moment ago). */
  async titled(): Promise<TitledCatalogue> {
    return (await this.reading(false)).titled;
  }

  /** The films and shows as last read, even when any move is being read behind it: for the watch rows. */
  async recent(): Promise<TitledCatalogue> {
    return (await this.reading(true)).titled;
  }

  /** The films and shows as last read, without asking the database; none before the first read. */
  kept(): TitledCatalogue | undefined {
    return this.current?.held.catalogue;
  }

  /**
   * A value derived from the catalogue now. While a scan's move is read behind, or the value of the
   * newest catalogue is still being built, a reader is answered from the last one built.
   */
  async derive<T, A>(value: Derived<T, A>, arg: A): Promise<T> {
    const state = await this.stamp();
    const { titled, behind } = await this.reading(false, state);
    const last = value.latest();
    if ((behind || state.quiet) && !value.has(titled) && last && this.mayLag(last.titled)) {
      void value.of(titled, arg).catch(() => undefined);
      return last.value;
    }
    return value.of(titled, arg);
  }

  /**
   * A film or a show by id. In a shared process from the catalogue held; in a Lambda read by id
   * (a cold function reads one item, not the whole catalogue), consistently: a write any other
   * function made before this request is seen.
   */
  async title(id: string): Promise<TitledItem | undefined> {
    if (this.holdsEverything) return (await this.titled()).byId.get(id);
    const [item, withdrawn] = await Promise.all([this.source.get(id, { consistent: true }), this.withdrawn()]);
    return item && isTitled(item) && !withdrawn.has(item.libraryId) ? item : undefined;
  }

  /** A show's episodes in order: kept with the catalogue in a shared process, read in a Lambda. */
  async episodes(showId: string): Promise<EpisodeItem[]> {
    if (this.holdsEverything) return (await this.titled()).episodes(showId);
    return this.source.episodes(showId);
  }
}

const holders = new WeakMap<SnapshotSource, CatalogueSnapshot>();

/** The one holder of this store's catalogue in this process. */
export const snapshotOf = (source: SnapshotSource): CatalogueSnapshot => {
  let holder = holders.get(source);
  if (!holder) {
    holder = new CatalogueSnapshot(source, config.hosting);
    holders.set(source, holder);
  }
  return holder;
};
