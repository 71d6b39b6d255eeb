// The movie and show lists with their sorts and filters, and their facets, from an index per kind
// built once per catalogue the process holds (lib/catalog/snapshot.ts), as search's is: a page asks
// the database nothing at home, and the profile's state only when the played or favorite filter
// or the lastPlayed sort needs it (kept in memory at home too).
// A list with none of the browsing parameters answers as it always has (lib/views/recent.ts).
import type { Static } from '@sinclair/typebox';
import type { Facets, MediaEntry } from '../api/schemas';
import type { CatalogDeps } from '../catalog/service';
import { derived, snapshotOf } from '../catalog/snapshot';
import type { MediaKind } from '../library/model';
import { toEntry } from '../views/entry';
import { listRecent } from '../views/recent';
import { buildBrowseIndex } from './build';
import { decodeCursor, encodeCursor } from './cursor';
import type { Filters, WatchedById } from './model';
import { filtersOf, isBrowsing, sortOf, type FacetsQuery, type ListQuery } from './query';

export interface BrowseDeps extends CatalogDeps {
  /** The asking profile's state, read only when a filter or the sort needs it. */
  watched: () => Promise<WatchedById>;
}

/** Each kind's index, built the first time it is asked for after its films or shows changed. */
const indexes = {
  movie: derived(({ items }) => buildBrowseIndex(items, 'movie')),
  tvshow: derived(({ items }) => buildBrowseIndex(items, 'tvshow')),
};

const indexFor = (deps: BrowseDeps, type: MediaKind, filters: Filters, lastPlayed: boolean) =>
  Promise.all([
    snapshotOf(deps.catalog).derive(indexes[type], undefined),
    filters.played !== undefined || filters.favorite !== undefined || lastPlayed ? deps.watched() : undefined,
  ]);

interface Page {
  data: Array<Static<typeof MediaEntry>>;
  meta: { total: number; nextCursor: string | null };
}

/** GET /movies, /tvshows: the recent list, or with browsing parameters a sorted, filtered page of every title. */
export const listTitles = async (
  deps: BrowseDeps,
  type: MediaKind,
  query: ListQuery,
  rawQueryString: string | undefined,
  origin: string,
): Promise<Page> => {
  const limit = query.limit ?? 10;
  if (!isBrowsing(query)) return listRecent(deps, type, limit, query.cursor, origin, query.matched);
  const filters = filtersOf(query, rawQueryString);
  const { sort, order } = sortOf(query);
  const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, type, sort, order);
  const [index, watched] = await indexFor(deps, type, filters, sort === 'lastPlayed');
  const page = index.page({ sort, order, limit, after }, filters, watched);
  return {
    data: page.items.map((item) => toEntry(item, origin)),
    meta: { total: page.total, nextCursor: page.next ? encodeCursor(type, sort, order, page.next) : null },
  };
};

/** GET /movies/facets, /tvshows/facets: genres, years and letters of the titles the filters keep, counted. */
export const titleFacets = async (
  deps: BrowseDeps,
  type: MediaKind,
  query: FacetsQuery,
  rawQueryString: string | undefined,
): Promise<Static<typeof Facets>> => {
  const filters = filtersOf(query, rawQueryString);
  const [index, watched] = await indexFor(deps, type, filters, false);
  return index.facets(filters, watched);
};
