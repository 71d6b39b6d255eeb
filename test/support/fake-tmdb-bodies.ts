// What the fake TMDB seeds with, and the JSON bodies it answers, shaped as TMDB API v3 sends
// them (snake_case, empty strings and nulls where TMDB has nothing, appended responses under
// their own names). Fields a client is unlikely to read are present anyway, so a client that
// chokes on an unexpected field is caught here rather than in production.
import { createHash } from 'node:crypto';

/** How a seeded image looks. */
export interface ImageSpec {
  /** The path TMDB would give ("/abc.jpg"); by default derived from its owner ("/movie-603-poster.jpg"). */
  file?: string;
  /** Colours of the top-left, top-right, bottom-left and bottom-right quarters. */
  quadrants?: [string, string, string, string];
  /** One colour for the whole image; by default one derived from the file name. */
  color?: string;
}

export type ImageKind = 'poster' | 'backdrop' | 'still';

export interface SeedPerson {
  name: string;
  character?: string;
}

export interface SeedMovie {
  id: number;
  title: string;
  originalTitle?: string;
  originalLanguage?: string;
  /** "1999-03-30", or "" when TMDB has no date. */
  releaseDate?: string;
  overview?: string;
  tagline?: string;
  runtime?: number;
  genres?: string[];
  voteAverage?: number;
  voteCount?: number;
  popularity?: number;
  imdbId?: string | null;
  cast?: SeedPerson[];
  /** Crew with their job; a "Director" is what clients look for. */
  crew?: Array<{ name: string; job: string; department?: string }>;
  /** Certification per country: { US: 'R', DE: '16' }. */
  certifications?: Record<string, string>;
  alternativeTitles?: SeedAlternativeTitle[];
  /** null: TMDB has no poster; absent: a plain one. */
  poster?: ImageSpec | null;
  backdrop?: ImageSpec | null;
}

/** A film collection; `parts` are ids of seeded movies (TMDB knows them whether a library has them or not). */
export interface SeedCollection {
  id: number;
  name: string;
  overview?: string;
  poster?: ImageSpec | null;
  backdrop?: ImageSpec | null;
  parts: number[];
}

/** Another title, in a country ("US", "FR"); `type` as TMDB's ("working title", often ""). */
export interface SeedAlternativeTitle {
  country: string;
  title: string;
  type?: string;
}

const alternativeTitles = (titles: SeedAlternativeTitle[] = []) =>
  titles.map((t) => ({ iso_3166_1: t.country, title: t.title, type: t.type ?? '' }));

export interface SeedEpisode {
  episodeNumber: number;
  name: string;
  overview?: string;
  airDate?: string;
  runtime?: number;
  still?: ImageSpec | null;
}

export interface SeedSeason {
  seasonNumber: number;
  name?: string;
  overview?: string;
  airDate?: string;
  poster?: ImageSpec | null;
  episodes: SeedEpisode[];
}

export interface SeedShow {
  id: number;
  name: string;
  originalName?: string;
  originalLanguage?: string;
  firstAirDate?: string;
  overview?: string;
  genres?: string[];
  voteAverage?: number;
  voteCount?: number;
  popularity?: number;
  imdbId?: string | null;
  tvdbId?: number | null;
  cast?: SeedPerson[];
  creators?: string[];
  /** Content rating per country: { US: 'TV-MA' }. */
  certifications?: Record<string, string>;
  alternativeTitles?: SeedAlternativeTitle[];
  poster?: ImageSpec | null;
  backdrop?: ImageSpec | null;
  seasons?: SeedSeason[];
}

// TMDB's own genre ids, so bodies carry the numbers real clients see.
const GENRE_IDS: Record<string, number> = {
  Action: 28,
  Adventure: 12,
  Animation: 16,
  Comedy: 35,
  Crime: 80,
  Documentary: 99,
  Drama: 18,
  Family: 10751,
  Fantasy: 14,
  History: 36,
  Horror: 27,
  Music: 10402,
  Mystery: 9648,
  Romance: 10749,
  'Science Fiction': 878,
  'TV Movie': 10770,
  Thriller: 53,
  War: 10752,
  Western: 37,
  'Action & Adventure': 10759,
  Kids: 10762,
  News: 10763,
  Reality: 10764,
  'Sci-Fi & Fantasy': 10765,
  Soap: 10766,
  Talk: 10767,
  'War & Politics': 10768,
};

/** A stable number from a text: person ids, season ids and the like. */
export const stableId = (text: string, max = 9_000_000) => (createHash('sha1').update(text).digest().readUInt32BE(0) % max) + 1;
const hex24 = (text: string) => createHash('sha1').update(text).digest('hex').slice(0, 24);

const genres = (names: string[] = []) => names.map((name) => ({ id: GENRE_IDS[name] ?? stableId(`genre:${name}`, 100_000), name }));
const genreIds = (names: string[] = []) => genres(names).map((g) => g.id);

/** The image path of an owner's image, or null when it has none. */
export const imageFile = (spec: ImageSpec | null | undefined, owner: string, kind: ImageKind) =>
  spec === null ? null : (spec?.file ?? `/${owner}-${kind}.jpg`);

const person = (name: string) => ({
  adult: false,
  gender: 0,
  id: stableId(`person:${name}`),
  known_for_department: 'Acting',
  name,
  original_name: name,
  popularity: 1.5,
  profile_path: null,
});

const credits = (cast: SeedPerson[] = [], crew: SeedMovie['crew'] = []) => ({
  cast: cast.map((c, order) => ({
    ...person(c.name),
    cast_id: order + 1,
    character: c.character ?? '',
    credit_id: hex24(`cast:${c.name}:${order}`),
    order,
  })),
  crew: crew.map((c) => ({
    ...person(c.name),
    known_for_department: c.department ?? (c.job === 'Director' ? 'Directing' : 'Crew'),
    credit_id: hex24(`crew:${c.name}:${c.job}`),
    department: c.department ?? (c.job === 'Director' ? 'Directing' : 'Crew'),
    job: c.job,
  })),
});

// --- Movies ------------------------------------------------------------------------------

export const movieResult = (m: SeedMovie) => ({
  adult: false,
  backdrop_path: imageFile(m.backdrop, `movie-${m.id}`, 'backdrop'),
  genre_ids: genreIds(m.genres),
  id: m.id,
  original_language: m.originalLanguage ?? 'en',
  original_title: m.originalTitle ?? m.title,
  overview: m.overview ?? '',
  popularity: m.popularity ?? 1,
  poster_path: imageFile(m.poster, `movie-${m.id}`, 'poster'),
  release_date: m.releaseDate ?? '',
  title: m.title,
  video: false,
  vote_average: m.voteAverage ?? 0,
  vote_count: m.voteCount ?? (m.voteAverage ? 100 : 0),
});

const releaseDates = (m: SeedMovie) => ({
  results: Object.entries(m.certifications ?? {}).map(([country, certification]) => ({
    iso_3166_1: country,
    release_dates: [
      {
        certification,
        descriptors: [],
        iso_639_1: '',
        note: '',
        release_date: m.releaseDate ? `${m.releaseDate}T00:00:00.000Z` : '',
        type: 3,
      },
    ],
  })),
});

/** What a movie's details say of the collection it is in. */
const collectionRef = (c: SeedCollection) => ({
  id: c.id,
  name: c.name,
  poster_path: imageFile(c.poster, `collection-${c.id}`, 'poster'),
  backdrop_path: imageFile(c.backdrop, `collection-${c.id}`, 'backdrop'),
});

/** GET /movie/{id}, with what `append_to_response` asked for. */
export const movieDetails = (m: SeedMovie, append: Set<string>, collection?: SeedCollection) => {
  const { genre_ids: _ids, ...result } = movieResult(m);
  return {
    ...result,
    belongs_to_collection: collection ? collectionRef(collection) : null,
    budget: 0,
    genres: genres(m.genres),
    homepage: '',
    imdb_id: m.imdbId ?? null,
    origin_country: [],
    production_companies: [],
    production_countries: [],
    revenue: 0,
    runtime: m.runtime ?? 0,
    spoken_languages: [],
    status: 'Released',
    tagline: m.tagline ?? '',
    ...(append.has('credits') ? { credits: credits(m.cast, m.crew) } : {}),
    ...(append.has('release_dates') ? { release_dates: releaseDates(m) } : {}),
    // A movie's alternative titles come as `titles`, a show's as `results`.
    ...(append.has('alternative_titles') ? { alternative_titles: { titles: alternativeTitles(m.alternativeTitles) } } : {}),
    ...(append.has('external_ids')
      ? { external_ids: { imdb_id: m.imdbId ?? null, wikidata_id: null, facebook_id: null, instagram_id: null, twitter_id: null } }
      : {}),
  };
};

/** GET /collection/{id}: its parts in the order they were seeded (TMDB's is not always release order). */
export const collectionDetails = (c: SeedCollection, parts: SeedMovie[]) => ({
  ...collectionRef(c),
  original_language: 'en',
  original_name: c.name,
  overview: c.overview ?? '',
  parts: parts.map((m) => ({ ...movieResult(m), media_type: 'movie' })),
});

// --- TV ----------------------------------------------------------------------------------

export const tvResult = (s: SeedShow) => ({
  adult: false,
  backdrop_path: imageFile(s.backdrop, `tv-${s.id}`, 'backdrop'),
  genre_ids: genreIds(s.genres),
  id: s.id,
  origin_country: ['US'],
  original_language: s.originalLanguage ?? 'en',
  original_name: s.originalName ?? s.name,
  overview: s.overview ?? '',
  popularity: s.popularity ?? 1,
  poster_path: imageFile(s.poster, `tv-${s.id}`, 'poster'),
  first_air_date: s.firstAirDate ?? '',
  name: s.name,
  vote_average: s.voteAverage ?? 0,
  vote_count: s.voteCount ?? (s.voteAverage ? 100 : 0),
});

const seasonSummary = (s: SeedShow, season: SeedSeason) => ({
  air_date: season.airDate ?? null,
  episode_count: season.episodes.length,
  id: stableId(`season:${s.id}:${season.seasonNumber}`),
  name: season.name ?? (season.seasonNumber === 0 ? 'Specials' : `Season ${season.seasonNumber}`),
  overview: season.overview ?? '',
  poster_path: imageFile(season.poster, `tv-${s.id}-s${season.seasonNumber}`, 'poster'),
  season_number: season.seasonNumber,
  vote_average: 0,
});

/** GET /tv/{id}, with what `append_to_response` asked for. */
export const tvDetails = (s: SeedShow, append: Set<string>) => {
  const { genre_ids: _ids, ...result } = tvResult(s);
  const seasons = s.seasons ?? [];
  return {
    ...result,
    created_by: (s.creators ?? []).map((name) => ({
      id: stableId(`person:${name}`),
      credit_id: hex24(`creator:${name}`),
      name,
      original_name: name,
      gender: 0,
      profile_path: null,
    })),
    episode_run_time: [],
    genres: genres(s.genres),
    homepage: '',
    in_production: false,
    languages: [s.originalLanguage ?? 'en'],
    last_air_date: seasons.at(-1)?.episodes.at(-1)?.airDate ?? null,
    last_episode_to_air: null,
    next_episode_to_air: null,
    networks: [],
    number_of_episodes: seasons.reduce((n, season) => n + season.episodes.length, 0),
    number_of_seasons: seasons.filter((season) => season.seasonNumber > 0).length,
    production_companies: [],
    production_countries: [],
    seasons: seasons.map((season) => seasonSummary(s, season)),
    spoken_languages: [],
    status: 'Ended',
    tagline: '',
    type: 'Scripted',
    ...(append.has('credits') ? { credits: credits(s.cast) } : {}),
    ...(append.has('external_ids')
      ? {
          external_ids: {
            imdb_id: s.imdbId ?? null,
            freebase_mid: null,
            freebase_id: null,
            tvdb_id: s.tvdbId ?? null,
            tvrage_id: null,
            wikidata_id: null,
            facebook_id: null,
            instagram_id: null,
            twitter_id: null,
          },
        }
      : {}),
    ...(append.has('alternative_titles') ? { alternative_titles: { results: alternativeTitles(s.alternativeTitles) } } : {}),
    ...(append.has('content_ratings')
      ? {
          content_ratings: {
            results: Object.entries(s.certifications ?? {}).map(([country, rating]) => ({ descriptors: [], iso_3166_1: country, rating })),
          },
        }
      : {}),
  };
};

/** GET /tv/{id}/season/{n}. */
export const seasonDetails = (s: SeedShow, season: SeedSeason) => ({
  _id: hex24(`season:${s.id}:${season.seasonNumber}`),
  air_date: season.airDate ?? null,
  episodes: season.episodes.map((e) => ({
    air_date: e.airDate ?? null,
    episode_number: e.episodeNumber,
    episode_type: 'standard',
    id: stableId(`episode:${s.id}:${season.seasonNumber}:${e.episodeNumber}`),
    name: e.name,
    overview: e.overview ?? '',
    production_code: '',
    runtime: e.runtime ?? null,
    season_number: season.seasonNumber,
    show_id: s.id,
    still_path: imageFile(e.still, `tv-${s.id}-s${season.seasonNumber}e${e.episodeNumber}`, 'still'),
    vote_average: 0,
    vote_count: 0,
    crew: [],
    guest_stars: [],
  })),
  name: seasonSummary(s, season).name,
  overview: season.overview ?? '',
  id: stableId(`season:${s.id}:${season.seasonNumber}`),
  poster_path: seasonSummary(s, season).poster_path,
  season_number: season.seasonNumber,
  vote_average: 0,
});

// --- Lists, configuration, errors ----------------------------------------------------------

// TMDB's /genre/movie/list and /genre/tv/list name these; a seed's own genre is added to the list of its kind.
const MOVIE_GENRES = [
  'Action',
  'Adventure',
  'Animation',
  'Comedy',
  'Crime',
  'Documentary',
  'Drama',
  'Family',
  'Fantasy',
  'History',
  'Horror',
  'Music',
  'Mystery',
  'Romance',
  'Science Fiction',
  'TV Movie',
  'Thriller',
  'War',
  'Western',
];
const TV_GENRES = [
  'Action & Adventure',
  'Animation',
  'Comedy',
  'Crime',
  'Documentary',
  'Drama',
  'Family',
  'Kids',
  'Mystery',
  'News',
  'Reality',
  'Sci-Fi & Fantasy',
  'Soap',
  'Talk',
  'War & Politics',
  'Western',
];

/** The genre list of a kind: TMDB's own, and the seeds' genres that are not in it. */
export const genreList = (kind: 'movie' | 'tv', seeds: Iterable<{ genres?: string[] }>) => {
  const names = new Set(kind === 'movie' ? MOVIE_GENRES : TV_GENRES);
  for (const seed of seeds) for (const name of seed.genres ?? []) names.add(name);
  return { genres: genres([...names]) };
};

const PAGE_SIZE = 20;

export const page = <T>(all: T[], pageNumber: number) => ({
  page: pageNumber,
  results: all.slice((pageNumber - 1) * PAGE_SIZE, pageNumber * PAGE_SIZE),
  total_pages: Math.max(1, Math.ceil(all.length / PAGE_SIZE)),
  total_results: all.length,
});

export const IMAGE_SIZES = {
  backdrop_sizes: ['w300', 'w780', 'w1280', 'original'],
  logo_sizes: ['w45', 'w92', 'w154', 'w185', 'w300', 'w500', 'original'],
  poster_sizes: ['w92', 'w154', 'w185', 'w342', 'w500', 'w780', 'original'],
  profile_sizes: ['w45', 'w185', 'h632', 'original'],
  still_sizes: ['w92', 'w185', 'w300', 'original'],
};

export const configuration = (imageBaseUrl: string) => ({
  change_keys: [
    'adult',
    'air_date',
    'also_known_as',
    'biography',
    'cast',
    'crew',
    'genres',
    'images',
    'imdb_id',
    'name',
    'overview',
    'poster_path',
    'releases',
    'runtime',
    'season',
    'title',
    'tvdb_id',
  ],
  images: { base_url: `${imageBaseUrl}/`, secure_base_url: `${imageBaseUrl}/`, ...IMAGE_SIZES },
});

/** TMDB's error bodies: { status_code, status_message, success: false }. */
export const ERRORS = {
  invalidKey: {
    status: 401,
    body: { status_code: 7, status_message: 'Invalid API key: You must be granted a valid key.', success: false },
  },
  notFound: { status: 404, body: { status_code: 34, status_message: 'The resource you requested could not be found.', success: false } },
  rateLimited: {
    status: 429,
    body: { status_code: 25, status_message: 'Your request count (#) is over the allowed limit of (40).', success: false },
  },
  internal: {
    status: 500,
    body: { status_code: 11, status_message: 'Internal error: Something went wrong, contact TMDb.', success: false },
  },
  offline: {
    status: 503,
    body: { status_code: 9, status_message: 'Service offline: This service is temporarily offline, try again later.', success: false },
  },
  backendTimeout: {
    status: 504,
    body: { status_code: 24, status_message: 'Your request to the backend server timed out. Try again.', success: false },
  },
} as const;
