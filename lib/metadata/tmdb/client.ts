// The TMDB API v3 adapter of the metadata provider port. One client per key: its calls share
// one pace (requestsPerSecond), one pause after a 429, one memory of a refused key, one cache
// and one set of counters.
//
//   const tmdb = createTmdbClient({ apiKey, language: 'en-US', cache });
//   const [best] = await tmdb.searchMovies('The Matrix', 1999);
//   const movie = best && (await tmdb.movieDetails(best.tmdbId));
import {
  COLLECTION_TTL_SECONDS,
  ProviderBadResponse,
  ProviderNotFound,
  type CollectionDetails,
  type ExternalIdMatches,
  type FetchedImage,
  type ImageConfiguration,
  type MetadataProvider,
  type MovieCandidate,
  type MovieDetails,
  type ProviderStats,
  type SeasonDetails,
  type ShowCandidate,
  type ShowDetails,
} from '../provider';
import { cacheKey } from './cache-key';
import { isReadAccessToken, resolveTmdbConfig, type TmdbConfig } from './config';
import { imageUrl, readImage } from './images';
import {
  ShapeError,
  toCollectionDetails,
  toExternalIdMatches,
  toGenreNames,
  toImageConfiguration,
  toMovieCandidates,
  toMovieDetails,
  toSeasonDetails,
  toShowCandidates,
  toShowDetails,
} from './map';
import { displayUrl, scrubber } from './redact';
import { createTransport, type OutgoingRequest, type ReadBody } from './transport';

const DAY = 24 * 3600;
/** Searches change as TMDB's catalogue grows; details of a known title rarely do. */
const TTL = { search: DAY, details: 7 * DAY, collection: COLLECTION_TTL_SECONDS, configuration: DAY, genres: 7 * DAY } as const;

export type TmdbClient = MetadataProvider;

interface JsonOptions<T> {
  ttlSeconds: number;
  map: (body: unknown) => T;
  /** What else the mapped value depends on, so it is part of the cache key. */
  variant?: string;
}

export function createTmdbClient(input: TmdbConfig): TmdbClient {
  const config = resolveTmdbConfig(input);
  const stats: ProviderStats = { requests: 0, retries: 0, rateLimited: 0, cacheHits: 0, cacheMisses: 0, cacheErrors: 0 };
  const scrub = scrubber(config.apiKey);
  const transport = createTransport(config, stats, scrub);
  const bearer = isReadAccessToken(config.apiKey);

  const apiRequest = (path: string, query: Record<string, string>): OutgoingRequest => ({
    url: displayUrl(config.baseUrl, path, bearer ? query : { ...query, api_key: config.apiKey }),
    shownUrl: displayUrl(config.baseUrl, path, query),
    headers: { accept: 'application/json', ...(bearer ? { authorization: `Bearer ${config.apiKey}` } : {}) },
    api: true,
  });

  const readJson: ReadBody<unknown> = async (response, request, attempts) => {
    const text = await response.text();
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ProviderBadResponse(`TMDB answered ${request.shownUrl} with malformed JSON`, {
        url: request.shownUrl,
        status: response.status,
        attempts,
      });
    }
  };

  // A cache that fails is a cache that missed: the request goes on without it.
  const cacheGet = async (key: string) => {
    if (!config.cache) return undefined;
    try {
      const value = await config.cache.get(key);
      if (value === undefined) stats.cacheMisses++;
      else stats.cacheHits++;
      return value;
    } catch (err) {
      stats.cacheErrors++;
      config.log?.warn({ key, err: scrub(String(err)) }, 'tmdb cache read failed');
      return undefined;
    }
  };
  const cachePut = async (key: string, value: unknown, ttlSeconds: number) => {
    try {
      await config.cache?.put(key, value, ttlSeconds);
    } catch (err) {
      stats.cacheErrors++;
      config.log?.warn({ key, err: scrub(String(err)) }, 'tmdb cache write failed');
    }
  };

  const getJson = async <T>(path: string, params: Record<string, string>, options: JsonOptions<T>): Promise<T> => {
    // Before the cache: once the key is refused, every call says so, cached or not.
    transport.throwIfKeyRefused();
    const query = { ...params, language: config.language };
    const key = cacheKey(path, query, options.variant);
    const cached = await cacheGet(key);
    if (cached !== undefined) return cached as T;
    const request = apiRequest(path, query);
    const body = await transport.send(request, readJson);
    let value: T;
    try {
      value = options.map(body);
    } catch (err) {
      if (!(err instanceof ShapeError)) throw err;
      throw new ProviderBadResponse(`TMDB answered ${request.shownUrl} with an unexpected shape: ${err.message}`, {
        url: request.shownUrl,
      });
    }
    // Not awaited: the answer is here, and a cache write (which never throws) need not delay it.
    void cachePut(key, value, options.ttlSeconds);
    return value;
  };

  // Asked once per client (and kept in the cache): every search hit names its genres by these ids.
  const genreLists = new Map<'movie' | 'tv', Promise<ReadonlyMap<number, string>>>();
  const genreNames = (kind: 'movie' | 'tv') => {
    let names = genreLists.get(kind);
    if (!names) {
      names = getJson(`/genre/${kind}/list`, {}, { ttlSeconds: TTL.genres, map: toGenreNames }).then((pairs) => new Map(pairs));
      genreLists.set(kind, names);
      // A failure is asked again next time.
      names.catch(() => genreLists.delete(kind));
    }
    return names;
  };

  const year = (y: number | null | undefined, name: string) => (y ? { [name]: String(y) } : {});
  const id = (n: number, what: string) => {
    if (!Number.isSafeInteger(n) || n < 0) throw new TypeError(`Not a TMDB ${what}: ${n}`);
    return n;
  };

  return {
    searchMovies: async (title: string, releaseYear?: number | null): Promise<MovieCandidate[]> =>
      getJson(
        '/search/movie',
        { query: title, include_adult: 'false', page: '1', ...year(releaseYear, 'year') },
        {
          ttlSeconds: TTL.search,
          map: toMovieCandidates,
        },
      ),

    searchShows: async (name: string, firstAirYear?: number | null): Promise<ShowCandidate[]> =>
      getJson(
        '/search/tv',
        { query: name, include_adult: 'false', page: '1', ...year(firstAirYear, 'first_air_date_year') },
        {
          ttlSeconds: TTL.search,
          map: toShowCandidates,
        },
      ),

    movieDetails: async (tmdbId: number): Promise<MovieDetails | null> =>
      nullIfNotFound(
        getJson(
          `/movie/${id(tmdbId, 'movie id')}`,
          { append_to_response: 'credits,release_dates,external_ids,alternative_titles' },
          {
            ttlSeconds: TTL.details,
            variant: config.region,
            map: (body) => toMovieDetails(body, config.region),
          },
        ),
      ),

    showDetails: async (tmdbId: number): Promise<ShowDetails | null> =>
      nullIfNotFound(
        getJson(
          `/tv/${id(tmdbId, 'TV id')}`,
          { append_to_response: 'credits,external_ids,content_ratings,alternative_titles' },
          {
            ttlSeconds: TTL.details,
            variant: config.region,
            map: (body) => toShowDetails(body, config.region),
          },
        ),
      ),

    seasonDetails: async (showTmdbId: number, seasonNumber: number): Promise<SeasonDetails | null> =>
      nullIfNotFound(
        getJson(
          `/tv/${id(showTmdbId, 'TV id')}/season/${id(seasonNumber, 'season number')}`,
          {},
          {
            ttlSeconds: TTL.details,
            map: (body) => toSeasonDetails(body, showTmdbId, seasonNumber),
          },
        ),
      ),

    findByImdbId: async (imdbId: string): Promise<ExternalIdMatches> =>
      getJson(
        `/find/${encodeURIComponent(imdbId.trim().toLowerCase())}`,
        { external_source: 'imdb_id' },
        {
          ttlSeconds: TTL.details,
          map: toExternalIdMatches,
        },
      ),

    collectionDetails: async (collectionId: number): Promise<CollectionDetails | null> =>
      nullIfNotFound(
        getJson(
          `/collection/${id(collectionId, 'collection id')}`,
          {},
          {
            ttlSeconds: TTL.collection,
            map: toCollectionDetails,
          },
        ),
      ),

    imageConfiguration: async (): Promise<ImageConfiguration> =>
      getJson('/configuration', {}, { ttlSeconds: TTL.configuration, map: toImageConfiguration }),

    genreNames,

    imageUrl: (path: string, size?: string) => imageUrl(config.imageBaseUrl, path, size),

    fetchImage: async (path: string, size?: string): Promise<FetchedImage | null> => {
      const url = imageUrl(config.imageBaseUrl, path, size);
      const request: OutgoingRequest = { url, shownUrl: url, headers: { accept: 'image/*' }, api: false };
      const image = await nullIfNotFound(
        transport.send(request, (response, req, attempts) => readImage(response, req, config.maxImageBytes, attempts)),
      );
      return image && { ...image, url };
    },

    get stats() {
      return { ...stats };
    },
  };
}

/** A lookup by id answers null for an id TMDB does not know; every other failure stays an error. */
async function nullIfNotFound<T>(pending: Promise<T>): Promise<T | null> {
  try {
    return await pending;
  } catch (err) {
    if (err instanceof ProviderNotFound) return null;
    throw err;
  }
}
