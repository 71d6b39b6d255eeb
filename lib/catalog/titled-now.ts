// Every film and show of the catalogue, read once and kept per process (a Lambda container,
// the local in-process handlers): the search index is built over them, and the watch rows take
// their films' and shows' fields from them instead of reading the items. The stamp moves with
// every scan's writes, a match fixed and a library removed; each move names the items it
// announces (lib/catalog/changes.ts), so a process behind reads those again and keeps the
// rest. A catalogue that did not change is the same object, so what is built over it (an
// index) can be kept with it.
import type { CatalogItem, TitledItem } from './model';
import type { CatalogStore } from './store';

/** Other items (episodes) read on demand and kept with the version: Next up asks for the same few again and again. */
const KEPT_OTHERS = 5_000;

/**
 * Past this share of the catalogue changed, it is read whole again: on DynamoDB Local an item
 * read by id costs about what an item of a Query does (0.15-0.22 against 0.16 ms, 10,000
 * films), so reading only the changed ones is the cheaper while they are under about half.
 */
const PATCHED_SHARE = 0.5;
/** A small catalogue is patched all the same up to this many. */
const PATCHED_MIN = 500;

export interface TitledCatalogue {
  /** In the order the catalogue lists them: films, then shows, each by when they were added. */
  items: readonly TitledItem[];
  byId: ReadonlyMap<string, TitledItem>;
  /** Items by id, whatever their kind: films and shows from memory, others read once and kept with this version. */
  get(ids: readonly string[]): Promise<Map<string, CatalogItem>>;
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
}

const hold = (catalog: CatalogStore, items: TitledItem[], others = new Map<string, CatalogItem>()): Held => {
  const byId = new Map(items.map((i) => [i.id, i]));
  return {
    others,
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
        for (const item of missing.length ? await catalog.getMany(missing) : []) {
          found.set(item.id, item);
          if (others.size < KEPT_OTHERS) others.set(item.id, item);
        }
        return found;
      },
    },
  };
};

const readAll = async (catalog: CatalogStore): Promise<Held> => {
  const items: TitledItem[] = [];
  for await (const item of catalog.titled()) items.push(item);
  return hold(catalog, items);
};

/** `base` with the items named changed read again: gone ones dropped, new ones in their place in the order. */
const patch = async (catalog: CatalogStore, base: Held, changed: readonly string[]): Promise<Held> => {
  if (changed.length === 0) return base;
  const fresh = (await catalog.getMany([...changed], { consistent: true })).filter(isTitled);
  // Episodes read on demand are read again when next asked for.
  for (const id of changed) base.others.delete(id);
  if (fresh.length === 0 && !changed.some((id) => base.catalogue.byId.has(id))) return base;
  const byId = new Map(base.catalogue.byId);
  for (const id of changed) byId.delete(id);
  for (const item of fresh) byId.set(item.id, item);
  return hold(catalog, [...byId.values()].sort(listOrder), new Map(base.others));
};

/** The catalogue at `version`: from `base` and what changed since, or read whole when the journal cannot say. */
const load = async (catalog: CatalogStore, version: number, base: { version: number; held: Held } | undefined): Promise<Held> => {
  if (base && base.version < version) {
    const changed = await catalog.changedBetween(base.version, version);
    if (changed && changed.length <= Math.max(PATCHED_MIN, base.held.catalogue.items.length * PATCHED_SHARE)) return patch(catalog, base.held, changed);
  }
  return readAll(catalog);
};

let kept: { version: number; value: Promise<TitledCatalogue>; held?: Held } | undefined;
let loading: { version: number; value: Promise<TitledCatalogue> } | undefined;

/** One load per version at a time; a failed one is forgotten so the next call tries again. */
const reload = (catalog: CatalogStore, version: number): Promise<TitledCatalogue> => {
  if (loading?.version === version) return loading.value;
  const base = kept?.held ? { version: kept.version, held: kept.held } : undefined;
  const held = load(catalog, version, base);
  const value = held.then((h) => h.catalogue);
  const entry = { version, value };
  loading = entry;
  held.then(
    (ready) => {
      if (!kept || kept.version < version) kept = { version, value, held: ready };
      if (loading === entry) loading = undefined;
    },
    () => {
      if (loading === entry) loading = undefined;
    },
  );
  return value;
};

/** The films and shows as the catalogue has them now (one GetItem to check the stamp; a reload waited for when it moved). */
export const titledNow = async (stamp: Versioned, catalog: CatalogStore): Promise<TitledCatalogue> => {
  const version = await stamp.version();
  return kept?.version === version ? kept.value : reload(catalog, version);
};

/**
 * The films and shows as last loaded, even when the stamp has moved since: the reload starts
 * behind, so a scan (which moves the stamp every batch) never makes a reader wait for one.
 * For reads that may lag a scan by a moment: the watch rows. Items it lacks are read.
 */
export const titledRecent = async (stamp: Versioned, catalog: CatalogStore): Promise<TitledCatalogue> => {
  const version = await stamp.version();
  if (!kept) return reload(catalog, version);
  if (kept.version !== version) void reload(catalog, version).catch(() => undefined);
  return kept.value;
};

/** The films and shows as last loaded, without asking the database; none before the first load. */
export const titledKept = (): TitledCatalogue | undefined => kept?.held?.catalogue;

interface Versioned {
  version(): Promise<number>;
}

/**
 * `build` run once per catalogue: a move that changed none of its films and shows (a scan's
 * last move, an episode's) hands back the same catalogue, and so the same index, at once.
 */
export const perCatalogue = <T>(build: (titled: TitledCatalogue) => Promise<T>) => {
  const built = new WeakMap<TitledCatalogue, Promise<T>>();
  return (titled: TitledCatalogue): Promise<T> => {
    let value = built.get(titled);
    if (!value) {
      value = build(titled);
      built.set(titled, value);
      value.catch(() => built.delete(titled));
    }
    return value;
  };
};
