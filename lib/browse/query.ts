// A list request's browsing parameters, from the query string the operation validated.
import type { Static } from '@sinclair/typebox';
import type { MovieFacetsQuery, MovieListQuery } from '../api/schemas';
import { invalidRequest } from '../errors';
import type { Letter } from '../text/sort-title';
import { defaultOrder, type Filters, type Order, type SortKey } from './model';

/** The lists' query, movies' and shows' alike (shows have no collectionId). */
export type ListQuery = Static<typeof MovieListQuery>;
export type FacetsQuery = Static<typeof MovieFacetsQuery>;

/** The parameters a recent list does not take: with none of them a list answers as it always has. */
const BROWSING = ['sort', 'order', 'genre', 'yearFrom', 'yearTo', 'letter', 'played', 'favorite', 'libraryId', 'collectionId'] as const;

export const isBrowsing = (query: ListQuery): boolean => BROWSING.some((name) => query[name] !== undefined);

/**
 * Each `genre` of the query string. API Gateway (and offline) join a repeated parameter's values
 * with commas in the parsed parameters, so the raw query string is read when there is one; a
 * genre may hold a comma of its own.
 */
const genresOf = (joined: string | undefined, rawQueryString: string | undefined): string[] | undefined => {
  if (joined === undefined) return undefined;
  const raw = rawQueryString ? new URLSearchParams(rawQueryString).getAll('genre') : [];
  return raw.length ? raw : joined.split(',');
};

export const filtersOf = (query: FacetsQuery, rawQueryString: string | undefined): Filters => {
  if (query.yearFrom !== undefined && query.yearTo !== undefined && query.yearFrom > query.yearTo) {
    throw invalidRequest([{ field: 'query.yearTo', message: `must not be before yearFrom (${query.yearFrom})` }]);
  }
  return {
    genres: genresOf(query.genre, rawQueryString),
    yearFrom: query.yearFrom,
    yearTo: query.yearTo,
    letter: query.letter as Letter | undefined,
    played: query.played,
    favorite: query.favorite,
    libraryId: query.libraryId,
    collectionId: query.collectionId,
    matched: query.matched,
  };
};

export const sortOf = (query: ListQuery): { sort: SortKey; order: Order } => {
  const sort = query.sort ?? 'added';
  return { sort, order: query.order ?? defaultOrder(sort) };
};
