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
import type { CatalogItem, EpisodeItem, TitledItem } from './model';
import type { CatalogStore } from './store';

export interface VersionState {
  version: number;
  /** Moved by a running scan: a reader may be answered from the last catalogue while the next is read. */
  quiet: boolean;
}

/** What the holder needs of a store; `onMove` where the store can tell of its own moves. */
export type SnapshotSource = Pick<CatalogStore, 'versionState' | 'changedBetween' | 'getMany' | 'titled' | 'get' | 'episodes'> & {
  onMove?(listener: (state: VersionState) => void): void;
};

/** Other items (episodes) read on demand and kept with the version: Next up asks for the same few again and again. */
const KEPT_OTHERS = 5_000;
/** Shows whose episodes are kept with the version (show details). */
const KEPT_SEASONS = 500;

/**
 * Past this share of the catalogue changed, it is read whole again: on DynamoDB Local an item
 * read by id costs about what an item of a Query does (0.15-0.22 against 0.16 ms, 10,000
 * films), so reading only the changed ones is the cheaper while they are under about half.
 */
const PATCHED_SHARE = 0.5;
/** A small catalogue is patched all the same up to this many. */
const PATCHED_MIN = 500;
/** In a shared process, the stamp is read again behind the readers this often (writers elsewhere). */
const RECHECK_MS = 1_000;

export interface TitledCatalogue {
  /** In the order the catalogue lists them: films, then shows, each by when they were added. */
  items: readonly TitledItem[];
  byId: ReadonlyMap<string, TitledItem>;
  /** Items by id, whatever their kind: films and shows from memory, others read once and kept with this version. */
  get(ids: readonly string[]): Promise<Map<string, CatalogItem>>;
  /** A show's episodes in order, read once and kept with this version. */
  episodes(showId: string): Promise<EpisodeItem[]>;
}

const isTitled = (item: CatalogItem): item is TitledItem => item.entity === 'movie' || item.entity === 'tvshow';

/** The recent index's order (lib/db/table.ts): films before shows, then `<addedAt>#<id>`. */
const listOrder = (a: TitledItem, b: TitledItem) => {
  if (a.entity !== b.entity) return a.entity === 'movie' ? -1 : 1;
  const ka = `${a.addedAt}#${a.id}`;
  const kb = `${b.addedAt}#${b.id}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

interface Held {
  catalogue: TitledCatalogue;
  others: Map<string, CatalogItem>;
  seasons: Map<string, Promise<EpisodeItem[]>>;
}

const hold = (source: SnapshotSource, items: TitledItem[], others = new Map<string, CatalogItem>(), seasons = new Map<string, Promise<EpisodeItem[]>>()): Held => {
  const byId = new Map(items.map((i) => [i.id, i]));
  return {
    others,
    seasons,
    catalogue: {
      items,
      byId,
      async get(ids) {
        const found = new Map<string, CatalogItem>();
        const missing: string[] = [];
        for (const id of ids) {
          const item = byId.get(id) ?? others.get(id);
          if (item) found.set(id, item);
          else missing.push(id);
        }
        for (const item of missing.length ? await source.getMany(missing) : []) {
          found.set(item.id, item);
          if (others.size < KEPT_OTHERS) others.set(item.id, item);
        }
        return found;
      },
      episodes(showId) {
        let kept = seasons.get(showId);
        if (!kept) {
          kept = source.episodes(showId);
          if (seasons.size < KEPT_SEASONS) seasons.set(showId, kept);
          kept.catch(() => seasons.delete(showId));
        }
        return kept;
      },
    },
  };
};

const readAll = async (source: SnapshotSource): Promise<Held> => {
  const items: TitledItem[] = [];
  for await (const item of source.titled()) items.push(item);
  return hold(source, items);
};

/** `base` with the items named changed read again: gone ones dropped, new ones in their place in the order. */
const patch = async (source: SnapshotSource, base: Held, changed: readonly string[]): Promise<Held> => {
  if (changed.length === 0) return base;
  const fresh = (await source.getMany([...changed], { consistent: true })).filter(isTitled);
  // Episodes read on demand are read again when next asked for; so are the seasons of a show
  // when an item that is not a title (an episode) changed.
  for (const id of changed) base.others.delete(id);
  const titledIds = new Set(fresh.map((i) => i.id));
  const episodesChanged = changed.some((id) => !titledIds.has(id) && !base.catalogue.byId.has(id));
  if (episodesChanged) base.seasons.clear();
  if (fresh.length === 0 && !changed.some((id) => base.catalogue.byId.has(id))) return base;
  const byId = new Map(base.catalogue.byId);
  for (const id of changed) byId.delete(id);
  for (const item of fresh) byId.set(item.id, item);
  for (const id of changed) base.seasons.delete(id);
  return hold(source, [...byId.values()].sort(listOrder), new Map(base.others), new Map(base.seasons));
};

/** A value built from a catalogue: its search index, its recent lists ... at most once per catalogue. */
export interface Derived<T, A> {
  /** The value for this catalogue, built now if it is not. */
  of(titled: TitledCatalogue, arg: A): Promise<T>;
  /** The value built last, and its catalogue, whatever it is: for a reader who may lag a running scan. */
  latest(): { value: T; titled: TitledCatalogue } | undefined;
  /** Whether this catalogue's value is built. */
  has(titled: TitledCatalogue): boolean;
}

/**
 * `build` run once per catalogue: a move that changed none of its films and shows (a scan's last
 * move, an episode's) hands back the same catalogue, and so the same value, at once.
 */
export const derived = <T, A = void>(build: (titled: TitledCatalogue, arg: A) => Promise<T>): Derived<T, A> => {
  const built = new WeakMap<TitledCatalogue, Promise<T>>();
  const settled = new WeakSet<TitledCatalogue>();
  let latest: { order: number; value: T; titled: TitledCatalogue } | undefined;
  let builds = 0;
  return {
    of(titled, arg) {
      let value = built.get(titled);
      if (!value) {
        const order = ++builds;
        value = build(titled, arg);
        built.set(titled, value);
        value.then(
          (v) => {
            settled.add(titled);
            if (!latest || latest.order < order) latest = { order, value: v, titled };
          },
          () => built.delete(titled),
        );
      }
      return value;
    },
    latest: () => latest,
    has: (titled) => settled.has(titled),
  };
};

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
  private reload(version: number): Promise<Held> {
    if (this.loading && this.loading.version >= version) return this.loading.value;
    const before = this.loading?.value.catch(() => undefined);
    const value = (async () => {
      await before;
      const base = this.current;
      if (base && base.version >= version) return base.held;
      let held: Held | undefined;
      if (base) {
        const changed = await this.source.changedBetween(base.version, version);
        if (changed && changed.length <= Math.max(PATCHED_MIN, base.held.catalogue.items.length * PATCHED_SHARE)) held = await patch(this.source, base.held, changed);
      }
      held ??= await readAll(this.source);
      this.versions.set(held.catalogue, Math.max(version, this.versions.get(held.catalogue) ?? -1));
      if (!this.current || this.current.version < version) this.current = { version, held };
      return held;
    })();
    const entry = { version, value };
    this.loading = entry;
    void value.catch(() => undefined).finally(() => {
      if (this.loading === entry) this.loading = undefined;
    });
    return value;
  }

  /**
   * The films and shows, and whether a newer catalogue is being read behind this one.
   * `lag`: a reader that may be a moment behind any move (the watch rows) is never made to wait.
   */
  private async reading(lag: boolean, state?: VersionState): Promise<{ titled: TitledCatalogue; behind: boolean }> {
    const { version, quiet } = state ?? (await this.stamp());
    const held = this.current;
    if (held && held.version >= version) return { titled: held.held.catalogue, behind: false };
    if (held && (lag || (quiet && this.mayLag(held.held.catalogue)))) {
      void this.reload(version).catch(() => undefined);
      return { titled: held.held.catalogue, behind: true };
    }
    return { titled: (await this.reload(version)).catalogue, behind: false };
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
    const item = await this.source.get(id, { consistent: true });
    return item && isTitled(item) ? item : undefined;
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
