// What the Films and Shows screens show, as their address says it: the sort, its order and the
// filters, read from ?… (a bad value is left out, never an error) and written back the same
// way, only what differs from the defaults and always in one order, so one view has one address.
import type { operations } from '../api/schema';

type ListQuery = NonNullable<operations['listMovies']['parameters']['query']>;
export type Sort = NonNullable<ListQuery['sort']>;
export type Order = NonNullable<ListQuery['order']>;
export type Letter = NonNullable<ListQuery['letter']>;

export const SORTS: ReadonlyArray<readonly [Sort, string]> = [
  ['title', 'Title'],
  ['added', 'Date added'],
  ['year', 'Year'],
  ['rating', 'Rating'],
  ['released', 'Release date'],
  ['lastPlayed', 'Last played'],
];

export const LETTERS = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '#'] as Letter[];

export interface BrowseState {
  sort: Sort;
  /** null: the sort's own (see defaultOrder). */
  order: Order | null;
  /** Every one must match. */
  genres: string[];
  yearFrom: number | null;
  yearTo: number | null;
  letter: Letter | null;
  /** By the current profile; null: either. */
  played: boolean | null;
  /** The current profile's favourites (false: the others); null: either. */
  favorite: boolean | null;
}

/** A whole library reads best A to Z; "newest first" is what home's shelves are for. */
const DEFAULT_SORT: Sort = 'title';

/** The service's default: A to Z for titles, newest (highest, latest) first for the others. */
export const defaultOrder = (sort: Sort): Order => (sort === 'title' ? 'asc' : 'desc');

const yearOf = (value: string | null) => (value !== null && /^\d{1,4}$/.test(value) ? Number(value) : null);
const yesNo = (value: string | null) => (value === 'true' ? true : value === 'false' ? false : null);

export const parseBrowse = (params: URLSearchParams): BrowseState => {
  const sort = params.get('sort');
  const order = params.get('order');
  const letter = params.get('letter')?.toUpperCase() ?? '';
  return {
    sort: SORTS.find(([s]) => s === sort)?.[0] ?? DEFAULT_SORT,
    order: order === 'asc' || order === 'desc' ? order : null,
    genres: [
      ...new Set(
        params
          .getAll('genre')
          .map((g) => g.trim())
          .filter(Boolean),
      ),
    ],
    yearFrom: yearOf(params.get('yearFrom')),
    yearTo: yearOf(params.get('yearTo')),
    letter: LETTERS.find((l) => l === letter) ?? null,
    played: yesNo(params.get('played')),
    favorite: yesNo(params.get('favorite')),
  };
};

export const queryOf = (state: BrowseState) => {
  const params = new URLSearchParams();
  if (state.sort !== DEFAULT_SORT) params.set('sort', state.sort);
  if (state.order && state.order !== defaultOrder(state.sort)) params.set('order', state.order);
  for (const genre of state.genres) params.append('genre', genre);
  if (state.letter) params.set('letter', state.letter);
  if (state.yearFrom !== null) params.set('yearFrom', String(state.yearFrom));
  if (state.yearTo !== null) params.set('yearTo', String(state.yearTo));
  if (state.played !== null) params.set('played', String(state.played));
  if (state.favorite !== null) params.set('favorite', String(state.favorite));
  const query = params.toString();
  return query ? `?${query}` : '';
};

export const isFiltered = (state: BrowseState) =>
  state.genres.length > 0 ||
  state.letter !== null ||
  state.yearFrom !== null ||
  state.yearTo !== null ||
  state.played !== null ||
  state.favorite !== null;

export const unfiltered = (state: BrowseState): BrowseState => ({
  ...state,
  genres: [],
  letter: null,
  yearFrom: null,
  yearTo: null,
  played: null,
  favorite: null,
});

/** The filters as the list and its facets take them. */
export const filtersOf = (state: BrowseState) => ({
  // The OpenAPI document types `genre` as one string, but the service takes it repeated, and
  // openapi-fetch sends an array as genre=a&genre=b.
  genre: (state.genres.length ? state.genres : undefined) as unknown as string | undefined,
  letter: state.letter ?? undefined,
  yearFrom: state.yearFrom ?? undefined,
  yearTo: state.yearTo ?? undefined,
  played: state.played ?? undefined,
  favorite: state.favorite ?? undefined,
});
