// The films and shows a process holds, in the order the catalogue lists them, with the other
// items (episodes, a show's seasons) read on demand and kept with them; and how a holding
// follows the catalogue's moves: the items a move names read again (lib/catalog/changes.ts),
// or everything when the journal cannot say. lib/catalog/snapshot.ts decides when.
import { BoundedMap } from '../util/bounded-map';
import type { CatalogItem, EpisodeItem, TitledItem } from './model';
import type { CatalogStore } from './store';

/** What a holding reads of the store. */
export type TitledSource = Pick<CatalogStore, 'getMany' | 'titled' | 'episodes'>;

/** Other items (episodes) read on demand and kept with the version: Next up asks for the same few again and again. */
const KEPT_OTHERS = { maxSize: 5_000 };
/** Shows whose episodes are kept with the version (show details). */
const KEPT_SEASONS = { maxSize: 500 };

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
  /** A show's episodes in order, read once and kept with this version. */
  episodes(showId: string): Promise<EpisodeItem[]>;
}

export const isTitled = (item: CatalogItem): item is TitledItem => item.entity === 'movie' || item.entity === 'tvshow';

/** The recent index's order (lib/db/table.ts): films before shows, then `<addedAt>#<id>`. */
const listOrder = (a: TitledItem, b: TitledItem) => {
  if (a.entity !== b.entity) return a.entity === 'movie' ? -1 : 1;
  const ka = `${a.addedAt}#${a.id}`;
  const kb = `${b.addedAt}#${b.id}`;
  return ka < kb ? -1 : ka > kb ? 1 : 0;
};

export interface Held {
  catalogue: TitledCatalogue;
  others: BoundedMap<string, CatalogItem>;
  seasons: BoundedMap<string, Promise<EpisodeItem[]>>;
  /** The libraries withdrawn (being removed): none of their items is held or read on demand. */
  withdrawn: readonly string[];
}

const hold = (
  source: TitledSource,
  items: TitledItem[],
  others = new BoundedMap<string, CatalogItem>(KEPT_OTHERS),
  seasons = new BoundedMap<string, Promise<EpisodeItem[]>>(KEPT_SEASONS),
  withdrawn: readonly string[] = [],
): Held => {
  const byId = new Map(items.map((i) => [i.id, i]));
  const gone = new Set(withdrawn);
  return {
    others,
    seasons,
    withdrawn,
    catalogue: {
      items,
      byId,
      async get(ids) {
        const found = new Map<string, CatalogItem>();
        const missing: string[] = [];
        for (const id of ids) {
          const item = byId.get(id) ?? others.use(id);
          if (item) found.set(id, item);
          else missing.push(id);
        }
        for (const item of missing.length ? await source.getMany(missing) : []) {
          if (gone.has(item.libraryId)) continue;
          found.set(item.id, item);
          others.set(item.id, item);
        }
        return found;
      },
      episodes(showId) {
        let kept = seasons.use(showId);
        if (!kept) {
          kept = source.episodes(showId).then((list) => (gone.size ? list.filter((e) => !gone.has(e.libraryId)) : list));
          seasons.set(showId, kept);
          kept.catch(() => seasons.delete(showId));
        }
        return kept;
      },
    },
  };
};

const readAll = async (source: TitledSource): Promise<Held> => {
  const items: TitledItem[] = [];
  for await (const item of source.titled()) items.push(item);
  return hold(source, items);
};

/** `base` with the items named changed read again: gone ones dropped, new ones in their place in the order. */
const patch = async (source: TitledSource, base: Held, changed: readonly string[]): Promise<Held> => {
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
  return hold(
    source,
    [...byId.values()].sort(listOrder),
    new BoundedMap(KEPT_OTHERS, base.others),
    new BoundedMap(KEPT_SEASONS, base.seasons),
    base.withdrawn,
  );
};

/** `held` without the items of the libraries withdrawn (being removed), nor any it reads on demand; `held` itself when that is so already. */
export const withoutLibraries = (source: TitledSource, held: Held, withdrawn: readonly string[]): Held => {
  const gone = new Set(withdrawn);
  const holdsNone = gone.size === 0 || !held.catalogue.items.some((i) => gone.has(i.libraryId));
  if (holdsNone && held.withdrawn.join() === withdrawn.join()) return held;
  // Episodes and seasons read on demand may be of those libraries: they are read again when asked for.
  return hold(
    source,
    held.catalogue.items.filter((i) => !gone.has(i.libraryId)),
    undefined,
    undefined,
    withdrawn,
  );
};

/** A holding of the catalogue after a move: `base` patched with what `changed` names, or read whole (no base, or the journal cannot say, or too much changed). */
export const follow = async (source: TitledSource, base: Held | undefined, changed: readonly string[] | undefined): Promise<Held> => {
  if (base && changed && changed.length <= Math.max(PATCHED_MIN, base.catalogue.items.length * PATCHED_SHARE))
    return patch(source, base, changed);
  return readAll(source);
};
