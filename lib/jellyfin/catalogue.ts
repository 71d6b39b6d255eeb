// What a GUID of the door names, found in the catalogue the process holds: a film or a show by
// the index below, an episode among its 16 candidate ids (read once and kept with the catalogue),
// a season by its show and number, a library by its own id.
import { derived, snapshotOf, type TitledCatalogue } from '../catalog/snapshot';
import type { CatalogStore } from '../catalog/store';
import type { EpisodeItem, MovieItem, ShowItem, TitledItem } from '../catalog/model';
import type { Library } from '../library/model';
import { filing } from '../text/sort-title';
import { BOXSETS_VIEW, collectionIdOf, itemGuid, itemIdsOf, libraryGuid, normalGuid, seasonCandidates } from './guid';

export type Found =
  | { kind: 'title'; item: TitledItem }
  | { kind: 'episode'; item: EpisodeItem; show: ShowItem }
  | { kind: 'season'; show: ShowItem; season: number }
  | { kind: 'library'; library: Library }
  | { kind: 'collection'; collection: BoxSet }
  | { kind: 'boxsets' };

/** A film collection with films here, for the door's box sets. */
export interface BoxSet {
  id: number;
  name: string;
  films: MovieItem[];
}

export interface DoorIndex {
  byGuid: ReadonlyMap<string, TitledItem>;
  /** Film collections with films here, by the provider's id, in the order of their names. */
  boxSets: ReadonlyMap<number, BoxSet>;
  /** Each title's sort key, as its SortName. */
  sortName: ReadonlyMap<string, string>;
}

const doorIndex = derived(async ({ items }: TitledCatalogue): Promise<DoorIndex> => {
  const byGuid = new Map<string, TitledItem>();
  const sortName = new Map<string, string>();
  const sets = new Map<number, BoxSet>();
  for (const item of items) {
    byGuid.set(itemGuid(item.id), item);
    sortName.set(item.id, filing(item.title).sortTitle);
    const collection = item.entity === 'movie' ? item.metadata?.collection : undefined;
    if (item.entity === 'movie' && collection) {
      const set = sets.get(collection.id) ?? { id: collection.id, name: collection.name, films: [] };
      set.films.push(item);
      sets.set(collection.id, set);
    }
  }
  const boxSets = new Map([...sets].sort(([, a], [, b]) => (filing(a.name).sortTitle < filing(b.name).sortTitle ? -1 : 1)));
  return { byGuid, sortName, boxSets };
});

export class DoorCatalogue {
  constructor(
    private readonly catalog: CatalogStore,
    private readonly libraryList: () => Promise<Library[]>,
  ) {}

  titled(): Promise<TitledCatalogue> {
    return snapshotOf(this.catalog).titled();
  }

  index(): Promise<DoorIndex> {
    return snapshotOf(this.catalog).derive(doorIndex, undefined);
  }

  libraries(): Promise<Library[]> {
    return this.libraryList();
  }

  async episodes(showId: string): Promise<EpisodeItem[]> {
    return snapshotOf(this.catalog).episodes(showId);
  }

  /** What `raw` (a GUID in any of the forms the apps send) names; undefined for nothing here. */
  async find(raw: string): Promise<Found | undefined> {
    const guid = normalGuid(raw);
    if (!guid) return undefined;
    if (guid === BOXSETS_VIEW) return { kind: 'boxsets' };
    const index = await this.index();
    const collectionId = collectionIdOf(guid);
    const collection = collectionId === undefined ? undefined : index.boxSets.get(collectionId);
    if (collection) return { kind: 'collection', collection };
    const title = index.byGuid.get(guid);
    if (title) return { kind: 'title', item: title };
    const library = (await this.libraryList()).find((l) => libraryGuid(l.id) === guid);
    if (library) return { kind: 'library', library };
    const titled = await this.titled();
    const episodeIds = itemIdsOf(guid).filter((id) => id.startsWith('ep_'));
    for (const item of (await titled.get(episodeIds)).values()) {
      if (item.entity !== 'episode' || itemGuid(item.id) !== guid) continue;
      const show = titled.byId.get(item.showId);
      if (show?.entity === 'tvshow') return { kind: 'episode', item, show };
    }
    for (const { showGuid, season } of seasonCandidates(guid)) {
      const show = index.byGuid.get(showGuid);
      if (show?.entity !== 'tvshow') continue;
      if ((await this.episodes(show.id)).some((e) => e.seasonNumber === season)) return { kind: 'season', show, season };
    }
    return undefined;
  }
}
