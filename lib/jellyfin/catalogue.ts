// What a GUID of the door names, found in the catalogue the process holds: a film or a show by
// the index below, an episode among its 16 candidate ids (read once and kept with the catalogue),
// a season by its show and number, a library by its own id.
import { derived, snapshotOf, type TitledCatalogue } from '../catalog/snapshot';
import type { CatalogStore } from '../catalog/store';
import type { EpisodeItem, ShowItem, TitledItem } from '../catalog/model';
import type { Library } from '../library/model';
import { filing } from '../text/sort-title';
import { BOXSETS_VIEW, itemGuid, itemIdsOf, libraryGuid, normalGuid, seasonCandidates } from './guid';

export type Found =
  | { kind: 'title'; item: TitledItem }
  | { kind: 'episode'; item: EpisodeItem; show: ShowItem }
  | { kind: 'season'; show: ShowItem; season: number }
  | { kind: 'library'; library: Library }
  | { kind: 'boxsets' };

export interface DoorIndex {
  byGuid: ReadonlyMap<string, TitledItem>;
  /** Each title's sort key, as its SortName. */
  sortName: ReadonlyMap<string, string>;
}

const doorIndex = derived(async ({ items }: TitledCatalogue): Promise<DoorIndex> => {
  const byGuid = new Map<string, TitledItem>();
  const sortName = new Map<string, string>();
  for (const item of items) {
    byGuid.set(itemGuid(item.id), item);
    sortName.set(item.id, filing(item.title).sortTitle);
  }
  return { byGuid, sortName };
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
