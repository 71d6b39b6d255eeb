// TMDB API v3 bodies as they arrive (snake_case), only the fields this client reads. Every
// field is optional or nullable here on purpose: the mappers decide what a missing one means,
// so an answer with a gap degrades to nulls rather than crashing the scan.

export interface TmdbPage<T> {
  page?: number;
  results?: T[];
  total_pages?: number;
  total_results?: number;
}

export interface TmdbMovieResult {
  id: number;
  title?: string;
  original_title?: string;
  release_date?: string;
  overview?: string | null;
  popularity?: number;
  poster_path?: string | null;
  backdrop_path?: string | null;
  genre_ids?: number[];
  vote_average?: number;
  vote_count?: number;
}

export interface TmdbTvResult {
  id: number;
  name?: string;
  original_name?: string;
  first_air_date?: string;
  overview?: string | null;
  popularity?: number;
  poster_path?: string | null;
  backdrop_path?: string | null;
  genre_ids?: number[];
  vote_average?: number;
  vote_count?: number;
}

export interface TmdbGenre {
  id: number;
  name: string;
}

/** /genre/movie/list and /genre/tv/list: the names of the ids a search result carries. */
export interface TmdbGenreList {
  genres?: TmdbGenre[];
}

export interface TmdbCastCredit {
  name?: string;
  character?: string;
  order?: number;
}

export interface TmdbCrewCredit {
  name?: string;
  job?: string;
  department?: string;
}

export interface TmdbCredits {
  cast?: TmdbCastCredit[];
  crew?: TmdbCrewCredit[];
}

/** `release_dates` appended to a movie: per country, its releases and their certifications. */
export interface TmdbReleaseDates {
  results?: Array<{
    iso_3166_1?: string;
    release_dates?: Array<{ certification?: string; type?: number; release_date?: string }>;
  }>;
}

/** `content_ratings` appended to a show. */
export interface TmdbContentRatings {
  results?: Array<{ iso_3166_1?: string; rating?: string }>;
}

/** `alternative_titles` appended: a movie's come as `titles`, a show's as `results`. */
export interface TmdbAlternativeTitles {
  titles?: Array<{ iso_3166_1?: string; title?: string; type?: string }>;
  results?: Array<{ iso_3166_1?: string; title?: string; type?: string }>;
}

export interface TmdbExternalIds {
  imdb_id?: string | null;
  tvdb_id?: number | null;
}

export interface TmdbMovieDetails extends TmdbMovieResult {
  imdb_id?: string | null;
  overview?: string | null;
  tagline?: string | null;
  runtime?: number | null;
  genres?: TmdbGenre[];
  vote_average?: number;
  vote_count?: number;
  credits?: TmdbCredits;
  release_dates?: TmdbReleaseDates;
  external_ids?: TmdbExternalIds;
  alternative_titles?: TmdbAlternativeTitles;
  belongs_to_collection?: TmdbCollectionRef | null;
}

/** What a movie's details say of its collection. */
export interface TmdbCollectionRef {
  id?: number;
  name?: string;
  poster_path?: string | null;
  backdrop_path?: string | null;
}

/** GET /collection/{id}: the collection and its parts (movie results). */
export interface TmdbCollectionDetails extends TmdbCollectionRef {
  overview?: string | null;
  parts?: TmdbMovieResult[];
}

export interface TmdbSeasonSummary {
  season_number?: number;
  name?: string;
  episode_count?: number;
  air_date?: string | null;
  poster_path?: string | null;
}

export interface TmdbTvDetails extends TmdbTvResult {
  overview?: string | null;
  genres?: TmdbGenre[];
  vote_average?: number;
  vote_count?: number;
  created_by?: Array<{ name?: string }>;
  seasons?: TmdbSeasonSummary[];
  credits?: TmdbCredits;
  external_ids?: TmdbExternalIds;
  content_ratings?: TmdbContentRatings;
  alternative_titles?: TmdbAlternativeTitles;
}

export interface TmdbEpisode {
  season_number?: number;
  episode_number?: number;
  name?: string;
  overview?: string | null;
  air_date?: string | null;
  runtime?: number | null;
  still_path?: string | null;
}

export interface TmdbSeasonDetails {
  season_number?: number;
  name?: string;
  overview?: string | null;
  air_date?: string | null;
  poster_path?: string | null;
  episodes?: TmdbEpisode[];
}

export interface TmdbFindResults {
  movie_results?: TmdbMovieResult[];
  tv_results?: TmdbTvResult[];
}

export interface TmdbConfiguration {
  images?: {
    base_url?: string;
    secure_base_url?: string;
    backdrop_sizes?: string[];
    logo_sizes?: string[];
    poster_sizes?: string[];
    profile_sizes?: string[];
    still_sizes?: string[];
  };
  change_keys?: string[];
}

/** Every TMDB error body. */
export interface TmdbErrorBody {
  status_code?: number;
  status_message?: string;
  success?: boolean;
}
