// What the search indexes and what it answers: the item fields it reads, the options of a query,
// and a hit with what it matched.

export interface Searchable {
  id: string;
  type: 'movie' | 'tvshow'; // the catalogue's MediaKind
  title: string;
  originalTitle: string | null;
  year: number | null;
  /** ISO 8601: the later of two same-year, same-level matches comes first. */
  addedAt: string;
  /** Other names the provider knows the title by (other countries, working titles). */
  alternativeTitles?: readonly string[];
  /** Directors (or a show's creators) first, then the first billed cast. */
  people?: readonly string[];
}

export interface SearchOptions {
  /** Only items of this type; both when absent. */
  type?: Searchable['type'];
  /** At most this many results (fractions round down); below 1 gives none. */
  limit?: number;
}

/** What a hit was found by. */
export type MatchedOn = 'title' | 'originalTitle' | 'alternativeTitle' | 'person';

export interface SearchHit<T> {
  item: T;
  matchedOn: MatchedOn;
  /** The title or name that matched, as the item has it. */
  matchedText: string;
}

export const DEFAULT_LIMIT = 20;
