// The metadata provider port: what the scan asks of a metadata source (TMDB today), in the
// catalogue's words rather than the provider's. Adapters map their wire format to these shapes
// and their failures to the errors below, so callers never see a provider's JSON or status codes.

/** A search hit, enough to choose among candidates (title and year, then popularity). */
export interface MovieCandidate {
  tmdbId: number;
  title: string;
  originalTitle: string;
  /** "1999-03-30", or null when the provider has no date. */
  releaseDate: string | null;
  year: number | null;
  /** Absent on answers cached before it was kept. */
  overview?: string | null;
  popularity: number;
  posterPath: string | null;
  backdropPath: string | null;
  /** The provider's genre ids (names through `genreNames`); absent on answers cached before they were kept. */
  genreIds?: number[];
  /** As in the details; absent on answers cached before it was kept. */
  rating?: number | null;
}

export interface ShowCandidate {
  tmdbId: number;
  name: string;
  originalName: string;
  firstAirDate: string | null;
  year: number | null;
  /** Absent on answers cached before it was kept. */
  overview?: string | null;
  popularity: number;
  posterPath: string | null;
  backdropPath: string | null;
  /** The provider's genre ids (names through `genreNames`); absent on answers cached before they were kept. */
  genreIds?: number[];
  /** As in the details; absent on answers cached before it was kept. */
  rating?: number | null;
}

/** How many billed cast members are kept: enough for a details page, small enough to cache. */
export const CAST_LIMIT = 20;

export interface CastMember {
  name: string;
  character: string;
  /** Billing order, 0 first. */
  order: number;
}

export interface MovieDetails {
  tmdbId: number;
  /** Lowercase, "tt0133093"; null when the provider knows none. */
  imdbId: string | null;
  title: string;
  originalTitle: string;
  year: number | null;
  releaseDate: string | null;
  overview: string | null;
  tagline: string | null;
  runtimeMinutes: number | null;
  genres: string[];
  /** The provider's average vote, 0-10; null before anyone voted. */
  rating: number | null;
  /** The rating board's label in the configured region ("R", "12"), when it has one. */
  certification: string | null;
  /** The first billed members only. */
  cast: CastMember[];
  directors: string[];
  /** Other titles it is known by (other countries, working titles), distinct, at most ALTERNATIVE_TITLES_LIMIT. */
  alternativeTitles: string[];
  posterPath: string | null;
  backdropPath: string | null;
  /** The film collection it belongs to ("The Godfather Collection"), by the provider's collection id. */
  collection: CollectionRef | null;
}

export interface CollectionRef {
  id: number;
  name: string;
}

/** One film of a collection, as the collection lists it. */
export interface CollectionPart {
  tmdbId: number;
  title: string;
  releaseDate: string | null;
  year: number | null;
}

/** A film collection with all of its parts (the films the provider knows in it, owned or not). */
export interface CollectionDetails {
  id: number;
  name: string;
  overview: string | null;
  posterPath: string | null;
  backdropPath: string | null;
  /** In the provider's order, which is not always release order. */
  parts: CollectionPart[];
}

/**
 * How long a collection's parts are taken as current: its provider answer is cached this long,
 * and the copy the catalogue keeps is asked for again after it. A new sequel is rare news.
 */
export const COLLECTION_TTL_SECONDS = 7 * 24 * 3600;

export interface SeasonSummary {
  seasonNumber: number;
  name: string;
  episodeCount: number;
  airDate: string | null;
  posterPath: string | null;
}

export interface ShowDetails {
  tmdbId: number;
  imdbId: string | null;
  tvdbId: number | null;
  name: string;
  originalName: string;
  year: number | null;
  firstAirDate: string | null;
  overview: string | null;
  genres: string[];
  rating: number | null;
  certification: string | null;
  cast: CastMember[];
  creators: string[];
  alternativeTitles: string[];
  posterPath: string | null;
  backdropPath: string | null;
  seasons: SeasonSummary[];
}

export interface EpisodeDetails {
  seasonNumber: number;
  episodeNumber: number;
  name: string;
  overview: string | null;
  airDate: string | null;
  runtimeMinutes: number | null;
  stillPath: string | null;
}

export interface SeasonDetails {
  showTmdbId: number;
  seasonNumber: number;
  name: string;
  overview: string | null;
  airDate: string | null;
  posterPath: string | null;
  episodes: EpisodeDetails[];
}

/** What an external id (an IMDb id from an NFO file) points at. */
export interface ExternalIdMatches {
  movies: MovieCandidate[];
  shows: ShowCandidate[];
}

/** The provider's image sizes ("w342", "original"), to pick one that exists. */
export interface ImageConfiguration {
  /** The https base the provider announces; the client builds its URLs from its own configured base. */
  secureBaseUrl: string;
  posterSizes: string[];
  backdropSizes: string[];
  stillSizes: string[];
  profileSizes: string[];
  logoSizes: string[];
}

export interface FetchedImage {
  bytes: Buffer;
  /** Read from the bytes themselves ("image/jpeg"), not taken from the server's word. */
  contentType: string;
  /** Where it came from (no credentials: images need none). */
  url: string;
}

/** Counters since the client was made; the scan and the benchmark report them. */
export interface ProviderStats {
  /** HTTP requests sent (every attempt, images included). */
  requests: number;
  /** Attempts made again after a 5xx, a timeout, a network error or a 429. */
  retries: number;
  /** 429 answers received. */
  rateLimited: number;
  cacheHits: number;
  cacheMisses: number;
  /** Cache reads or writes that threw; the request went on without the cache. */
  cacheErrors: number;
}

/**
 * A response cache, keyed by request (never by credentials). Values are the mapped shapes
 * above, not the provider's bodies. `get` answers undefined for a miss or an expired entry.
 */
export interface ProviderCache {
  get(key: string): Promise<unknown>;
  put(key: string, value: unknown, ttlSeconds: number): Promise<void>;
}

/** Lookups by id answer null when the provider does not know the id. */
export interface MetadataProvider {
  searchMovies(title: string, year?: number | null): Promise<MovieCandidate[]>;
  searchShows(name: string, firstAirYear?: number | null): Promise<ShowCandidate[]>;
  movieDetails(tmdbId: number): Promise<MovieDetails | null>;
  showDetails(tmdbId: number): Promise<ShowDetails | null>;
  seasonDetails(showTmdbId: number, seasonNumber: number): Promise<SeasonDetails | null>;
  findByImdbId(imdbId: string): Promise<ExternalIdMatches>;
  collectionDetails(collectionId: number): Promise<CollectionDetails | null>;
  imageConfiguration(): Promise<ImageConfiguration>;
  /** The names of the genre ids that search hits of a kind carry. */
  genreNames(kind: 'movie' | 'tv'): Promise<ReadonlyMap<number, string>>;
  /** The URL of an image path ("/abc.jpg") at a size ("w500", "original"). */
  imageUrl(path: string, size?: string): string;
  fetchImage(path: string, size?: string): Promise<FetchedImage | null>;
  readonly stats: Readonly<ProviderStats>;
}

// --- Errors ------------------------------------------------------------------------------
// Every message and property is free of credentials: `url` is the request without them.

export interface ProviderErrorContext {
  /** The request, credentials removed. */
  url?: string | undefined;
  /** The HTTP status, when an answer came. */
  status?: number | undefined;
  /** The provider's own error code (TMDB's `status_code`). */
  providerCode?: number | undefined;
  /** How many requests were sent for this call. */
  attempts?: number | undefined;
}

export class ProviderError extends Error {
  readonly url: string | undefined;
  readonly status: number | undefined;
  readonly providerCode: number | undefined;
  readonly attempts: number | undefined;

  constructor(message: string, context: ProviderErrorContext = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.url = context.url;
    this.status = context.status;
    this.providerCode = context.providerCode;
    this.attempts = context.attempts;
  }
}

/** The key was refused (invalid, suspended). Never retried: a client that saw it fails fast from then on. */
export class ProviderAuthError extends ProviderError {}

/** The provider does not know what was asked for. */
export class ProviderNotFound extends ProviderError {}

/** An answer came but cannot be used: not JSON, not the expected shape, not an image, too big. */
export class ProviderBadResponse extends ProviderError {}

/** The provider refused the request itself (a 4xx other than 401, 404 and 429). */
export class ProviderRejected extends ProviderError {}

/** No usable answer after every attempt (5xx, timeouts, network errors, rate limits). */
export class ProviderUnavailable extends ProviderError {
  /** Set when the provider asked for a longer pause than the client is willing to wait. */
  readonly retryAfterSeconds: number | undefined;

  constructor(message: string, context: ProviderErrorContext & { retryAfterSeconds?: number | undefined } = {}, options?: ErrorOptions) {
    super(message, context, options);
    this.retryAfterSeconds = context.retryAfterSeconds;
  }
}
