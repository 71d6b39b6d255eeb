// Every film and show of the catalogue, read once per version stamp and kept per process (a
// Lambda container, the local in-process handlers): the search index is built over them, and
// the watch rows take their films' and shows' fields from them instead of reading the items.
// The stamp moves with every scan's writes, a match fixed and a library removed, so anything
// kept with a version is current while the version is.
import type { CatalogItem, TitledItem } from './model';
import type { CatalogStore } from './store';

/** Other items (episodes) read on demand and kept with the version: Next up asks for the same few again and again. */
const KEPT_OTHERS = 5_000;

export interface TitledCatalogue {
  /** In the order the catalogue lists them: films, then shows, newest first. */
  items: readonly TitledItem[];
  byId: ReadonlyMap<string, TitledItem>;
  /** Items by id, whatever their kind: films and shows from memory, others read once and kept with this version. */
  get(ids: readonly string[]): Promise<Map<string, CatalogItem>>;
}

const load = async (catalog: CatalogStore): Promise<TitledCatalogue> => {
  const items: TitledItem[] = [];
  for await (const item of catalog.titled()) items.push(item);
  const byId = new Map(items.map((i) => [i.id, i]));
  const others = new Map<string, CatalogItem>();
  return {
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
  };
};

let kept: { version: number; value: Promise<TitledCatalogue>; ready?: TitledCatalogue } | undefined;
let loading: { version: number; value: Promise<TitledCatalogue> } | undefined;

/** One load per version at a time; a failed one is forgotten so the next call tries again. */
const reload = (catalog: CatalogStore, version: number): Promise<TitledCatalogue> => {
  if (loading?.version === version) return loading.value;
  const value = load(catalog);
  const entry = { version, value };
  loading = entry;
  value.then(
    (ready) => {
      if (!kept || kept.version < version) kept = { version, value, ready };
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
export const titledKept = (): TitledCatalogue | undefined => kept?.ready;

interface Versioned {
  version(): Promise<number>;
}
