// What the door's browsing handlers share (lib/jellyfin/library.ts, lists.ts): the item
// shapes with the profile's state read in one go, what a GUID names, the profile's title
// states for filters, a show's seasons and episodes, and played marks.
import type { EpisodeItem, ShowItem, TitledItem } from '../catalog/model';
import type { UserData } from '../watching/rules';
import type { DoorCatalogue, Found } from './catalogue';
import { json, notFound, type DoorRequest } from './door';
import { boxSetDto, boxSetsViewDto, episodeDto, movieDto, seasonDto, seriesDto, viewDto, type ItemContext } from './items';
import { page } from './query';
import type { DoorStore } from './store';
import type { TrackOptions } from '../subtitles/tracks';

export interface LibraryDeps {
  store: DoorStore;
  catalogue: DoorCatalogue;
  userData: (profileId: string, ids: readonly string[]) => Promise<Map<string, UserData>>;
  watched: (profileId: string) => Promise<Map<string, { played: boolean; lastPlayedAt: string | null; favorite: boolean }>>;
  inProgress: (profileId: string, limit: number) => Promise<string[]>;
  nextUp: (profileId: string, limit: number) => Promise<string[]>;
  search: (term: string, limit: number) => Promise<string[]>;
  markPlayed: (profileId: string, id: string, played: boolean) => Promise<void>;
  markFavorite: (profileId: string, id: string, favorite: boolean) => Promise<void>;
  /** Whether subtitle streams inside videos can be sent here. */
  subtitles?: TrackOptions | undefined;
}

export type Dto = Record<string, unknown>;
export const result = (items: Dto[], total = items.length, start = 0) => ({ Items: items, TotalRecordCount: total, StartIndex: start });

export const libraryReader = (deps: LibraryDeps) => {
  const profileOf = (req: DoorRequest) => req.session!.profileId;

  /**
   * The context the item shapes need, with the profile's state of `ids` read in one go; the
   * title states (a show's played and favourite) only when a show is among them.
   */
  const contextFor = async (req: DoorRequest, ids: readonly string[]): Promise<ItemContext> => {
    const shows = ids.some((id) => id.startsWith('tv_'));
    const [serverId, data, titles] = await Promise.all([
      deps.store.server(),
      ids.length ? deps.userData(profileOf(req), ids) : undefined,
      shows ? deps.watched(profileOf(req)) : undefined,
    ]);
    return { serverId, userData: (id) => data?.get(id), titleState: (id) => titles?.get(id), subtitles: deps.subtitles };
  };

  const seasonsOf = (episodes: readonly EpisodeItem[]) => {
    const counts = new Map<number, number>();
    for (const e of episodes) counts.set(e.seasonNumber, (counts.get(e.seasonNumber) ?? 0) + 1);
    return [...counts].sort(([a], [b]) => a - b);
  };

  const titleDtos = async (req: DoorRequest, items: readonly TitledItem[]) => {
    const ctx = await contextFor(
      req,
      items.map((i) => i.id),
    );
    return Promise.all(
      items.map(async (item) =>
        item.entity === 'movie' ? movieDto(item, ctx) : seriesDto(item, ctx, seasonsOf(await deps.catalogue.episodes(item.id)).length),
      ),
    );
  };

  const episodeDtos = async (req: DoorRequest, episodes: readonly { item: EpisodeItem; show: ShowItem }[]) => {
    const ctx = await contextFor(
      req,
      episodes.map((e) => e.item.id),
    );
    return episodes.map(({ item, show }) => episodeDto(item, show, ctx));
  };

  /** The items a list of catalogue ids names, in order, as shapes. */
  const dtosOfIds = async (req: DoorRequest, ids: readonly string[]) => {
    const titled = await deps.catalogue.titled();
    const items = await titled.get(ids);
    const out: Dto[] = [];
    const ctx = await contextFor(req, ids);
    for (const id of ids) {
      const item = items.get(id);
      if (!item) continue;
      if (item.entity === 'movie') out.push(movieDto(item, ctx));
      else if (item.entity === 'tvshow') out.push(seriesDto(item, ctx));
      else {
        const show = titled.byId.get(item.showId);
        if (show?.entity === 'tvshow') out.push(episodeDto(item, show, ctx));
      }
    }
    return out;
  };

  const found = async (raw: string | undefined): Promise<Found> => {
    const hit = raw ? await deps.catalogue.find(raw) : undefined;
    if (!hit) throw notFound('Item');
    return hit;
  };

  const oneDto = async (req: DoorRequest, hit: Found): Promise<Dto> => {
    switch (hit.kind) {
      case 'title':
        return (await titleDtos(req, [hit.item]))[0]!;
      case 'episode':
        return (await episodeDtos(req, [hit]))[0]!;
      case 'season': {
        const count = (await deps.catalogue.episodes(hit.show.id)).filter((e) => e.seasonNumber === hit.season).length;
        return seasonDto(hit.show, hit.season, count, await contextFor(req, []));
      }
      case 'library': {
        const count = (await deps.catalogue.titled()).items.filter((i) => i.libraryId === hit.library.id).length;
        return viewDto(hit.library, await contextFor(req, []), count);
      }
      case 'collection':
        return boxSetDto(
          hit.collection,
          await contextFor(
            req,
            hit.collection.films.map((f) => f.id),
          ),
        );
      case 'boxsets':
        return boxSetsViewDto(await contextFor(req, []), (await deps.catalogue.index()).boxSets.size);
    }
  };

  const states = async (req: DoorRequest) => {
    const watched = await deps.watched(profileOf(req));
    const resumable = new Set(
      req.query.list('filters').some((f) => f.toLowerCase() === 'isresumable') ? await deps.inProgress(profileOf(req), 500) : [],
    );
    return {
      played: (id: string) => watched.get(id)?.played ?? false,
      lastPlayedAt: (id: string) => watched.get(id)?.lastPlayedAt ?? null,
      favorite: (id: string) => watched.get(id)?.favorite ?? false,
      resumable: (id: string) => resumable.has(id),
    };
  };

  /** Seasons of a show, or the episodes of a show or season (`/Items?parentId=` and `/Shows/...`). */
  const episodesOf = async (req: DoorRequest, show: ShowItem, season?: number) => {
    const all = (await deps.catalogue.episodes(show.id)).filter((e) => season === undefined || e.seasonNumber === season);
    const { items, total, start } = page(all, req.query);
    return result(
      await episodeDtos(
        req,
        items.map((item) => ({ item, show })),
      ),
      total,
      start,
    );
  };
  const seasonsResult = async (req: DoorRequest, show: ShowItem) => {
    const ctx = await contextFor(req, []);
    const seasons = seasonsOf(await deps.catalogue.episodes(show.id)).map(([n, count]) => seasonDto(show, n, count, ctx));
    return result(seasons);
  };

  const poolOf = async (req: DoorRequest): Promise<TitledItem[]> => {
    const parent = req.query.str('parentId') ? await deps.catalogue.find(req.query.str('parentId')!) : undefined;
    const titled = await deps.catalogue.titled();
    return titled.items.filter((i) => parent?.kind !== 'library' || i.libraryId === parent.library.id);
  };

  /** A played mark on a film or an episode, or on every episode of a show or a season; the item's state back. */
  const mark = async (req: DoorRequest, played: boolean) => {
    const hit = await found(req.params.itemId);
    const ids =
      hit.kind === 'title' && hit.item.entity === 'movie'
        ? [hit.item.id]
        : hit.kind === 'episode'
          ? [hit.item.id]
          : hit.kind === 'title' || hit.kind === 'season'
            ? (await deps.catalogue.episodes(hit.kind === 'title' ? hit.item.id : hit.show.id))
                .filter((e) => hit.kind !== 'season' || e.seasonNumber === hit.season)
                .map((e) => e.id)
            : [];
    for (const id of ids) await deps.markPlayed(profileOf(req), id, played);
    return json((await oneDto(req, hit)).UserData);
  };

  /** A favourite mark on a film, an episode or a show (Jellyfin has them on seasons too: not here). */
  const favorite = async (req: DoorRequest, on: boolean) => {
    const hit = await found(req.params.itemId);
    const id = hit.kind === 'title' || hit.kind === 'episode' ? hit.item.id : undefined;
    if (!id) throw notFound('Item');
    await deps.markFavorite(profileOf(req), id, on);
    return json((await oneDto(req, hit)).UserData);
  };

  return {
    favorite,
    profileOf,
    contextFor,
    seasonsOf,
    titleDtos,
    episodeDtos,
    dtosOfIds,
    found,
    oneDto,
    states,
    episodesOf,
    seasonsResult,
    poolOf,
    mark,
  };
};

export type LibraryReader = ReturnType<typeof libraryReader>;
