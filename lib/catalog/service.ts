// The catalogue as clients read it: recent lists, movie and show details, with absolute
// stream URLs built from the address the client used.
import type { Static } from '@sinclair/typebox';
import type { MediaEntry, MovieDetail, MovieMetadata, ShowDetail, ShowMetadata } from '../api/schemas';
import { sourceKey, type ArtworkStore } from '../artwork/store';
import { notFound } from '../errors';
import type { Log } from '../log';
import { posterColors } from '../media/poster-colors';
import type { MediaKind } from '../library/model';
import type { LibraryStore } from '../library/store';
import { versionCached } from './version-cache';
import { artworkUrl, containerOf, toEntry, toMedia, type EpisodeItem, type FileRef, type MovieItem, type ShowItem, type TitledItem } from './model';
import type { CatalogStore } from './store';
import { subtitleTracks, type TrackOptions } from '../subtitles/tracks';

export interface CatalogDeps {
  catalog: CatalogStore;
  libraries: LibraryStore;
  /** For poster colours computed when an item is fetched; without it the stored colours are shown. */
  artworks?: ArtworkStore;
  log?: Log;
  /** Whether streams inside videos can be served as subtitles here; without it they are listed without a URL. */
  subtitles?: TrackOptions;
}

export const streamUrl = (origin: string, mediaId: string) => `${origin}/api/v1/stream/${encodeURIComponent(mediaId)}`;

// A list's total may lag a finished scan by a second; its items never do.
const librariesNow = versionCached((libraries: LibraryStore) => libraries.list(), { recheckAfterMs: 1_000 });

export const listRecent = async (deps: CatalogDeps, type: MediaKind, limit: number, cursor: string | undefined, origin: string) => {
  // A finished scan or a deleted library moves the version stamp, so the libraries' counts
  // are read again only then (checked at most once a second).
  const [page, libraries] = await Promise.all([deps.catalog.recent(type, limit, cursor), librariesNow(deps.catalog, deps.libraries)]);
  // Totals are the libraries' counts as of their last finished scan.
  const total = libraries.reduce((n, l) => n + (type === 'movie' ? l.counts.movies : l.counts.tvShows), 0);
  const data: Static<typeof MediaEntry>[] = page.items.map((item) => toEntry(item, origin));
  return { data, meta: { total: Math.max(total, data.length), nextCursor: page.nextCursor } };
};

const getOf = async <E extends 'movie' | 'tvshow'>(deps: CatalogDeps, entity: E, id: string) => {
  const item = await deps.catalog.get(id);
  if (!item || item.entity !== entity) throw notFound(`${entity === 'movie' ? 'Movie' : 'TV show'} ${id}`);
  return withPosterColors(deps, item as E extends 'movie' ? MovieItem : ShowItem);
};

/**
 * An item fetched with a poster its colours were not taken from (a poster stored while colours
 * were off, an item from before posters had colours) gets them now, and keeps them. A failure
 * here never fails the request: the stored colours are shown.
 */
const withPosterColors = async <T extends TitledItem>(deps: CatalogDeps, item: T): Promise<T> => {
  const poster = item.artwork?.poster;
  if (!poster || item.colorsFrom === poster.etag || !deps.artworks) return item;
  try {
    const source = await deps.artworks.get(sourceKey(item.id, 'poster', poster.etag));
    if (!source) return item;
    const meshGradientColors = await posterColors(source.bytes);
    await deps.catalog.setColors(item.id, meshGradientColors, poster.etag);
    return { ...item, meshGradientColors, colorsFrom: poster.etag };
  } catch (err) {
    deps.log?.warn({ err, itemId: item.id }, 'poster colours could not be computed; the stored ones are shown');
    return item;
  }
};

/** What the provider (or an NFO) told about a title, as the detail's `metadata`. */
/** What movies and shows both know beyond the file name. */
const knownFields = (item: MovieItem | ShowItem) => {
  const m = item.metadata;
  return {
    tmdbId: item.tmdbId,
    imdbId: m?.imdbId ?? null,
    tagline: m?.tagline ?? null,
    certification: m?.certification ?? null,
    cast: m?.cast ?? [],
    alternativeTitles: m?.alternativeTitles ?? [],
    matched: m?.matched ?? false,
    source: m?.source ?? ('file' as const),
  };
};

const movieFields = (movie: MovieItem): Static<typeof MovieMetadata> => ({
  ...knownFields(movie),
  directors: movie.metadata?.directors ?? [],
  releaseDate: movie.metadata?.releaseDate ?? null,
  runtime: movie.metadata?.runtimeMinutes ?? null,
});

const showFields = (show: ShowItem): Static<typeof ShowMetadata> => ({
  ...knownFields(show),
  tvdbId: show.metadata?.tvdbId ?? null,
  creators: show.metadata?.creators ?? [],
  firstAirDate: show.metadata?.releaseDate ?? null,
});

/** Size, container and what the headers said, for a movie's parts or an episode's file. */
const fileInfo = (files: FileRef[]) => {
  const first = files[0]!;
  const durations = files.map((f) => f.tech?.durationSeconds ?? null);
  const tech = first.tech ?? null;
  return {
    size: files.reduce((n, f) => n + f.size, 0),
    container: tech?.container ?? containerOf(first.relPath),
    durationSeconds: durations.every((d) => d !== null) ? Math.round(durations.reduce((a, b) => a! + b!, 0)! * 1000) / 1000 : null,
    path: first.relPath,
    parts: files.length,
    video: tech?.video ?? null,
    audio: tech?.audio ?? [],
    subtitles: tech?.subtitles ?? [],
  };
};

export const subtitleUrl = (origin: string, mediaId: string, trackId: string) =>
  `${origin}/api/v1/subtitles/${encodeURIComponent(mediaId)}/${encodeURIComponent(trackId)}`;

/** The subtitle tracks of a movie or an episode, with the URL of each that can be served. */
const subtitlesOf = (deps: CatalogDeps, item: MovieItem | EpisodeItem, origin: string) =>
  subtitleTracks(item, deps.subtitles ?? { extract: false }).map(({ track, servable }) => ({ ...track, url: servable ? subtitleUrl(origin, item.id, track.id) : null }));

export const movieDetail = async (deps: CatalogDeps, id: string, origin: string): Promise<Static<typeof MovieDetail>> => {
  const movie = await getOf(deps, 'movie', id);
  return {
    id: movie.id,
    media: toMedia(movie, origin),
    poster: artworkUrl(origin, movie.id, 'poster', movie.artwork?.poster),
    backdrop: artworkUrl(origin, movie.id, 'backdrop', movie.artwork?.backdrop),
    metadata: movieFields(movie),
    file: fileInfo(movie.files),
    streamUrl: streamUrl(origin, movie.id),
    subtitles: subtitlesOf(deps, movie, origin),
  };
};

const seasonName = (n: number) => (n === 0 ? 'Specials' : `Season ${n}`);

export const showDetail = async (deps: CatalogDeps, id: string, origin: string): Promise<Static<typeof ShowDetail>> => {
  const [show, episodes] = await Promise.all([getOf(deps, 'tvshow', id), deps.catalog.episodes(id)]);
  const seasons = new Map<number, EpisodeItem[]>();
  for (const e of episodes) seasons.set(e.seasonNumber, [...(seasons.get(e.seasonNumber) ?? []), e]);
  return {
    id: show.id,
    media: toMedia(show, origin),
    metadata: showFields(show),
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
        stillUrl: artworkUrl(origin, e.id, 'still', e.artwork?.still),
        streamUrl: streamUrl(origin, e.id),
        file: fileInfo(e.files),
        subtitles: subtitlesOf(deps, e, origin),
      })),
    })),
  };
};
