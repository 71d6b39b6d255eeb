// From TMDB's bodies to the provider port's shapes. Pure. TMDB spells "unknown" as an empty
// string, a zero or a missing field; here every one of those becomes null. A body that is not
// an object at all, or an entry without an id, is a ShapeError (the client reports it as a bad
// response).
import {
  CAST_LIMIT,
  type CastMember,
  type CollectionDetails,
  type CollectionPart,
  type CollectionRef,
  type EpisodeDetails,
  type ExternalIdMatches,
  type ImageConfiguration,
  type MovieCandidate,
  type MovieDetails,
  type SeasonDetails,
  type SeasonSummary,
  type ShowCandidate,
  type ShowDetails,
} from '../provider';
import type {
  TmdbAlternativeTitles,
  TmdbCollectionDetails,
  TmdbCollectionRef,
  TmdbConfiguration,
  TmdbContentRatings,
  TmdbCredits,
  TmdbEpisode,
  TmdbFindResults,
  TmdbGenreList,
  TmdbMovieDetails,
  TmdbMovieResult,
  TmdbPage,
  TmdbReleaseDates,
  TmdbSeasonDetails,
  TmdbSeasonSummary,
  TmdbTvDetails,
  TmdbTvResult,
} from './wire';
import {
  ShapeError,
  objectBody,
  requireId,
  list,
  text,
  date,
  yearOf,
  number,
  positive,
  imagePath,
  genreNames,
  unique,
  imdbId,
  ids,
  rating,
} from './fields';

/**
 * How many alternative titles are kept. Well-known films have dozens (one or more per country);
 * the first ones, distinct, are what people type, and every one costs the search index memory.
 */
export const ALTERNATIVE_TITLES_LIMIT = 12;

export { ShapeError };

// --- Search and find ---------------------------------------------------------------------

const movieCandidate = (r: TmdbMovieResult): MovieCandidate => {
  const releaseDate = date(r.release_date);
  return {
    tmdbId: requireId(r.id, 'a movie result'),
    title: r.title ?? r.original_title ?? '',
    originalTitle: r.original_title ?? r.title ?? '',
    releaseDate,
    year: yearOf(releaseDate),
    overview: text(r.overview),
    popularity: number(r.popularity) ?? 0,
    posterPath: imagePath(r.poster_path),
    backdropPath: imagePath(r.backdrop_path),
    genreIds: ids(r.genre_ids),
    rating: rating(r.vote_average, r.vote_count),
  };
};

const showCandidate = (r: TmdbTvResult): ShowCandidate => {
  const firstAirDate = date(r.first_air_date);
  return {
    tmdbId: requireId(r.id, 'a TV result'),
    name: r.name ?? r.original_name ?? '',
    originalName: r.original_name ?? r.name ?? '',
    firstAirDate,
    year: yearOf(firstAirDate),
    overview: text(r.overview),
    popularity: number(r.popularity) ?? 0,
    posterPath: imagePath(r.poster_path),
    backdropPath: imagePath(r.backdrop_path),
    genreIds: ids(r.genre_ids),
    rating: rating(r.vote_average, r.vote_count),
  };
};

const resultsOf = <T>(body: unknown, what: string): T[] => {
  const page = objectBody<TmdbPage<T>>(body, what);
  if (!Array.isArray(page.results)) throw new ShapeError(`${what} has no results list`);
  return page.results;
};

export const toMovieCandidates = (body: unknown) => resultsOf<TmdbMovieResult>(body, 'a movie search').map(movieCandidate);
export const toShowCandidates = (body: unknown) => resultsOf<TmdbTvResult>(body, 'a TV search').map(showCandidate);

/** A genre list: its names by id. */
export const toGenreNames = (body: unknown): Array<[number, string]> =>
  list(objectBody<TmdbGenreList>(body, 'a genre list').genres)
    .filter((g) => Number.isSafeInteger(g?.id) && typeof g.name === 'string' && g.name.trim() !== '')
    .map((g) => [g.id, g.name]);

export const toExternalIdMatches = (body: unknown): ExternalIdMatches => {
  const found = objectBody<TmdbFindResults>(body, 'a find answer');
  return { movies: list(found.movie_results).map(movieCandidate), shows: list(found.tv_results).map(showCandidate) };
};

// --- Details -----------------------------------------------------------------------------

const castOf = (credits: TmdbCredits | undefined): CastMember[] =>
  list(credits?.cast)
    .filter((c) => !!c?.name)
    .map((c, i) => ({ name: c.name!, character: c.character ?? '', order: number(c.order) ?? i }))
    .sort((a, b) => a.order - b.order)
    .slice(0, CAST_LIMIT);

/** The provider's other titles, in its order, without the title itself or repeats (case and spacing aside). */
const alternativeTitles = (alternatives: TmdbAlternativeTitles | undefined, ...own: string[]): string[] => {
  const seen = new Set(own.map((t) => t.toLowerCase().replace(/\s+/gu, ' ').trim()));
  const kept: string[] = [];
  for (const entry of [...list(alternatives?.titles), ...list(alternatives?.results)]) {
    const title = text(entry?.title)?.trim();
    const key = title?.toLowerCase().replace(/\s+/gu, ' ');
    if (title === undefined || key === undefined || seen.has(key)) continue;
    seen.add(key);
    kept.push(title);
    if (kept.length === ALTERNATIVE_TITLES_LIMIT) break;
  }
  return kept;
};

// Theatrical releases carry the rating people know; the others (premiere, digital, TV) follow.
const RELEASE_TYPE_PREFERENCE = [3, 2, 1, 4, 5, 6];
const preference = (type: number | undefined) => {
  const at = RELEASE_TYPE_PREFERENCE.indexOf(type ?? 0);
  return at === -1 ? RELEASE_TYPE_PREFERENCE.length : at;
};

export const movieCertification = (releases: TmdbReleaseDates | undefined, region: string): string | null => {
  const country = list(releases?.results).find((r) => r?.iso_3166_1 === region);
  const rated = list(country?.release_dates).filter((d) => text(d?.certification));
  rated.sort((a, b) => preference(a.type) - preference(b.type));
  return rated[0]?.certification?.trim() ?? null;
};

const showCertification = (ratings: TmdbContentRatings | undefined, region: string) =>
  text(list(ratings?.results).find((r) => r?.iso_3166_1 === region)?.rating)?.trim() ?? null;

/** A collection without a usable id is no collection: collections are kept by id, never by name. */
const collectionRef = (c: TmdbCollectionRef | null | undefined): CollectionRef | null => {
  const id = c?.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) return null;
  return { id, name: text(c!.name)?.trim() ?? `Collection ${id}` };
};

export const toMovieDetails = (body: unknown, region: string): MovieDetails => {
  const m = objectBody<TmdbMovieDetails>(body, 'a movie');
  const candidate = movieCandidate(m);
  return {
    tmdbId: candidate.tmdbId,
    imdbId: imdbId(m.imdb_id, m.external_ids?.imdb_id),
    title: candidate.title,
    originalTitle: candidate.originalTitle,
    year: candidate.year,
    releaseDate: candidate.releaseDate,
    overview: text(m.overview),
    tagline: text(m.tagline),
    runtimeMinutes: positive(m.runtime),
    genres: genreNames(m.genres),
    rating: rating(m.vote_average, m.vote_count),
    certification: movieCertification(m.release_dates, region),
    cast: castOf(m.credits),
    directors: unique(
      list(m.credits?.crew)
        .filter((c) => c?.job === 'Director')
        .map((c) => c.name),
    ),
    alternativeTitles: alternativeTitles(m.alternative_titles, candidate.title, candidate.originalTitle),
    posterPath: candidate.posterPath,
    backdropPath: candidate.backdropPath,
    collection: collectionRef(m.belongs_to_collection),
  };
};

export const toCollectionDetails = (body: unknown): CollectionDetails => {
  const c = objectBody<TmdbCollectionDetails>(body, 'a collection');
  const ref = collectionRef(c);
  if (!ref) throw new ShapeError('a collection has no numeric id');
  // A part without an id names nothing a film here could be: left out rather than failing the collection.
  const parts = list(c.parts)
    .filter((p) => typeof p?.id === 'number' && Number.isSafeInteger(p.id) && p.id > 0)
    .map((p): CollectionPart => {
      const { tmdbId, title, releaseDate, year } = movieCandidate(p);
      return { tmdbId, title, releaseDate, year };
    });
  return { ...ref, overview: text(c.overview), posterPath: imagePath(c.poster_path), backdropPath: imagePath(c.backdrop_path), parts };
};

const seasonSummary = (s: TmdbSeasonSummary): SeasonSummary | null =>
  typeof s?.season_number === 'number'
    ? {
        seasonNumber: s.season_number,
        name: s.name ?? `Season ${s.season_number}`,
        episodeCount: number(s.episode_count) ?? 0,
        airDate: date(s.air_date),
        posterPath: imagePath(s.poster_path),
      }
    : null;

export const toShowDetails = (body: unknown, region: string): ShowDetails => {
  const t = objectBody<TmdbTvDetails>(body, 'a TV show');
  const candidate = showCandidate(t);
  const tvdbId = t.external_ids?.tvdb_id;
  return {
    tmdbId: candidate.tmdbId,
    imdbId: imdbId(t.external_ids?.imdb_id),
    tvdbId: typeof tvdbId === 'number' && tvdbId > 0 ? tvdbId : null,
    name: candidate.name,
    originalName: candidate.originalName,
    year: candidate.year,
    firstAirDate: candidate.firstAirDate,
    overview: text(t.overview),
    genres: genreNames(t.genres),
    rating: rating(t.vote_average, t.vote_count),
    certification: showCertification(t.content_ratings, region),
    cast: castOf(t.credits),
    creators: unique(list(t.created_by).map((c) => c?.name)),
    alternativeTitles: alternativeTitles(t.alternative_titles, candidate.name, candidate.originalName),
    posterPath: candidate.posterPath,
    backdropPath: candidate.backdropPath,
    seasons: list(t.seasons)
      .map(seasonSummary)
      .filter((s): s is SeasonSummary => s !== null),
  };
};

const episode =
  (seasonNumber: number) =>
  (e: TmdbEpisode): EpisodeDetails | null =>
    typeof e?.episode_number === 'number'
      ? {
          seasonNumber: e.season_number ?? seasonNumber,
          episodeNumber: e.episode_number,
          name: e.name ?? `Episode ${e.episode_number}`,
          overview: text(e.overview),
          airDate: date(e.air_date),
          runtimeMinutes: positive(e.runtime),
          stillPath: imagePath(e.still_path),
        }
      : null;

export const toSeasonDetails = (body: unknown, showTmdbId: number, asked: number): SeasonDetails => {
  const s = objectBody<TmdbSeasonDetails>(body, 'a season');
  const seasonNumber = typeof s.season_number === 'number' ? s.season_number : asked;
  return {
    showTmdbId,
    seasonNumber,
    name: s.name ?? `Season ${seasonNumber}`,
    overview: text(s.overview),
    airDate: date(s.air_date),
    posterPath: imagePath(s.poster_path),
    episodes: list(s.episodes)
      .map(episode(seasonNumber))
      .filter((e): e is EpisodeDetails => e !== null),
  };
};

export const toImageConfiguration = (body: unknown): ImageConfiguration => {
  const images = objectBody<TmdbConfiguration>(body, 'the configuration').images;
  if (!images) throw new ShapeError('the configuration has no images section');
  const sizes = (s: string[] | undefined) => list(s).filter((x) => typeof x === 'string');
  return {
    secureBaseUrl: images.secure_base_url ?? images.base_url ?? '',
    posterSizes: sizes(images.poster_sizes),
    backdropSizes: sizes(images.backdrop_sizes),
    stillSizes: sizes(images.still_sizes),
    profileSizes: sizes(images.profile_sizes),
    logoSizes: sizes(images.logo_sizes),
  };
};
