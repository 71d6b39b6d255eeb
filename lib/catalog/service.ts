// The catalogue as clients read it: recent lists, movie and show details, with absolute
// stream URLs built from the address the client used.
import type { Static } from '@sinclair/typebox';
import type { Media, MovieDetail, ShowDetail } from '../api/schemas';
import { notFound } from '../errors';
import type { DynamoLibraryStore } from '../library/store';
import { versionCached } from './version-cache';
import { containerOf, toMedia, type EpisodeItem, type MediaKind, type MovieItem, type ShowItem } from './model';
import type { DynamoCatalogStore } from './store';

export interface CatalogDeps {
  catalog: DynamoCatalogStore;
  libraries: DynamoLibraryStore;
}

export const streamUrl = (origin: string, mediaId: string) => `${origin}/api/v1/stream/${encodeURIComponent(mediaId)}`;

// A list's total may lag a finished scan by a second; its items never do.
const librariesNow = versionCached((libraries: DynamoLibraryStore) => libraries.list(), { recheckAfterMs: 1_000 });

export const listRecent = async (deps: CatalogDeps, type: MediaKind, limit: number, cursor?: string) => {
  // A finished scan or a deleted library moves the version stamp, so the libraries' counts
  // are read again only then (checked at most once a second).
  const [page, libraries] = await Promise.all([deps.catalog.recent(type, limit, cursor), librariesNow(deps.catalog, deps.libraries)]);
  // Totals are the libraries' counts as of their last finished scan.
  const total = libraries.reduce((n, l) => n + (type === 'movie' ? l.counts.movies : l.counts.tvShows), 0);
  const data: Static<typeof Media>[] = page.items.map(toMedia);
  return { data, meta: { total: Math.max(total, data.length), nextCursor: page.nextCursor } };
};

const getOf = async <E extends 'movie' | 'tvshow'>(deps: CatalogDeps, entity: E, id: string) => {
  const item = await deps.catalog.get(id);
  if (!item || item.entity !== entity) throw notFound(`${entity === 'movie' ? 'Movie' : 'TV show'} ${id}`);
  return item as E extends 'movie' ? MovieItem : ShowItem;
};

const providerFields = (item: MovieItem | ShowItem) => ({ tmdbId: item.tmdbId });

export const movieDetail = async (deps: CatalogDeps, id: string, origin: string): Promise<Static<typeof MovieDetail>> => {
  const movie = await getOf(deps, 'movie', id);
  const first = movie.files[0]!;
  return {
    id: movie.id,
    media: toMedia(movie),
    poster: movie.posterUrl,
    backdrop: movie.backdropUrl,
    metadata: providerFields(movie),
    file: {
      size: movie.files.reduce((n, f) => n + f.size, 0),
      container: containerOf(first.relPath),
      durationSeconds: null,
      path: first.relPath,
      parts: movie.files.length,
    },
    streamUrl: streamUrl(origin, movie.id),
  };
};

const seasonName = (n: number) => (n === 0 ? 'Specials' : `Season ${n}`);

export const showDetail = async (deps: CatalogDeps, id: string, origin: string): Promise<Static<typeof ShowDetail>> => {
  const [show, episodes] = await Promise.all([getOf(deps, 'tvshow', id), deps.catalog.episodes(id)]);
  const seasons = new Map<number, EpisodeItem[]>();
  for (const e of episodes) seasons.set(e.seasonNumber, [...(seasons.get(e.seasonNumber) ?? []), e]);
  return {
    id: show.id,
    media: toMedia(show),
    metadata: providerFields(show),
    // The index hands episodes back in season and episode order already.
    seasons: [...seasons.entries()].map(([seasonNumber, list]) => ({
      seasonNumber,
      name: seasonName(seasonNumber),
      episodeCount: list.length,
      episodes: list.map((e) => ({
        id: e.id,
        seasonNumber: e.seasonNumber,
        episodeNumber: e.episodeNumber,
        title: e.title,
        overview: e.overview,
        airDate: e.airDate,
        stillUrl: e.stillUrl,
        streamUrl: streamUrl(origin, e.id),
      })),
    })),
  };
};
