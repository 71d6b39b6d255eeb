// What browsing the whole library reads and answers: the sorts and filters of the movie and show
// lists (the contract's "Browsing the whole library"), and a profile's state as far as they use it.
import type { Letter } from '../text/sort-title';

export type SortKey = 'added' | 'title' | 'year' | 'rating' | 'released' | 'lastPlayed';
/** The sorts an index keeps ready; lastPlayed is the profile's, ordered per request. */
export type StoredSort = Exclude<SortKey, 'lastPlayed'>;
export const STORED_SORTS: readonly StoredSort[] = ['added', 'title', 'year', 'rating', 'released'];
export type Order = 'asc' | 'desc';

/** Titles by name A–Z, the rest newest, best, latest first. */
export const defaultOrder = (sort: SortKey): Order => (sort === 'title' ? 'asc' : 'desc');

/** Every filter given must match. */
export interface Filters {
  /** Every one of them; compared normalised (case and accents do not count). */
  genres?: readonly string[] | undefined;
  yearFrom?: number | undefined;
  yearTo?: number | undefined;
  letter?: Letter | undefined;
  /** For the profile whose state is given with the request. */
  played?: boolean | undefined;
  /** The profile's favourites (or not), as `played`. */
  favorite?: boolean | undefined;
  libraryId?: string | undefined;
  /** The provider's collection id (films). */
  collectionId?: number | undefined;
  matched?: boolean | undefined;
}

export interface PageRequest {
  sort: SortKey;
  order: Order;
  limit: number;
  /** Where the last page ended (lib/browse/cursor.ts). */
  after?: SortPoint | undefined;
}

/**
 * A place in an order: a title's sort key (null: it has none, so it sits with those that come
 * last), its year and its id. Paging resumes after it, wherever the catalogue has moved since.
 */
export interface SortPoint {
  key: number | string | null;
  year: number | null;
  id: string;
}

/** What the played and favorite filters and the lastPlayed sort read of a profile's state, by film or show id. */
export interface Watched {
  /** A show: every episode played. */
  played: boolean;
  lastPlayedAt: string | null;
  /** A show: the show itself marked. */
  favorite: boolean;
}
export type WatchedById = ReadonlyMap<string, Watched>;

export interface FacetCounts {
  total: number;
  genres: Array<{ name: string; count: number }>;
  years: Array<{ year: number; count: number }>;
  letters: Array<{ letter: Letter; count: number }>;
}
