// A movie's and a show's detail as clients read them: metadata, files, seasons, and the URLs of
// their streams, artwork and subtitle tracks.
import type { Static } from '@sinclair/typebox';
import type { MovieDetail, MovieMetadata, ShowDetail, ShowMetadata } from '../api/schemas';
import { containerOf, filesDuration, type EpisodeItem, type FileRef, type MovieItem, type ShowItem } from '../catalog/model';
import { getTitle, type CatalogDeps } from '../catalog/service';
import { snapshotOf } from '../catalog/snapshot';
import { subtitleTracks, type TrackOptions } from '../subtitles/tracks';
import { toMedia } from './entry';
import { artworkUrl, streamUrl, subtitleUrl } from './urls';

export interface DetailDeps extends CatalogDeps {
  /** Whether streams inside videos can be served as subtitles here; without it they are listed without a URL. */
  subtitles?: TrackOptions;
}

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
    matchLocked: m?.matchLocked ?? false,
    source: m?.source ?? ('file' as const),
  };
};

const movieFields = (movie: MovieItem): Static<typeof MovieMetadata> => ({
  ...knownFields(movie),
  directors: movie.metadata?.directors ?? [],
  releaseDate: movie.metadata?.releaseDate ?? null,
  runtime: movie.metadata?.runtimeMinutes ?? null,
  collection: movie.metadata?.collection ?? null,
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
  const tech = first.tech ?? null;
  return {
    size: files.reduce((n, f) => n + f.size, 0),
    container: tech?.container ?? containerOf(first.relPath),
    durationSeconds: filesDuration(files),
    path: first.relPath,
    parts: files.length,
    video: tech?.video ?? null,
    audio: tech?.audio ?? [],
    subtitles: tech?.subtitles ?? [],
  };
};

/** The subtitle tracks of a movie or an episode, with the URL of each that can be served. */
const subtitlesOf = (deps: DetailDeps, item: MovieItem | EpisodeItem, origin: string) =>
  subtitleTracks(item, deps.subtitles ?? { extract: false }).map(({ track, servable }) => ({
    ...track,
    url: servable ? subtitleUrl(origin, item.id, track.id) : null,
  }));

export const movieDetail = async (deps: DetailDeps, id: string, origin: string): Promise<Static<typeof MovieDetail>> => {
  const movie = await getTitle(deps, 'movie', id);
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

export const showDetail = async (deps: DetailDeps, id: string, origin: string): Promise<Static<typeof ShowDetail>> => {
  const [show, episodes] = await Promise.all([getTitle(deps, 'tvshow', id), snapshotOf(deps.catalog).episodes(id)]);
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
