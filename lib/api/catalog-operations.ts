// The catalogue's operations: search, the movie and show lists with their facets and details,
// and the collections (the registry: lib/api/operations.ts).
import { Type } from '@sinclair/typebox';
import { op, pathParams } from './operation-def';
import * as S from './schemas';

/** The movie and show lists' two ways of answering (the contract's "Browsing the whole library"). */
const BROWSING =
  'With none of `sort`, `order`, `genre`, `yearFrom`, `yearTo`, `letter`, `played`, `libraryId`, `collectionId`: the most recently added first, `meta.total` counting the titles the libraries hold, kept current as a scan writes them (with `matched`, those matched, or not, now). ' +
  'With any of them: every title the filters keep (all must match), in the order asked for, `meta.total` counting them now. Titles without the sorted value (no year, rating or release date; never played) come last in either order; ties go by year, then id. ' +
  "Follow `meta.nextCursor` for the next page: it names the last title's place in the order, so paging while a scan adds titles neither repeats nor skips one. A cursor of another list, sort or order is a 400.";
const FACETS =
  'The same filters as the list. Genres by count (most first), then name; years newest first (titles without one are not counted there); letters A to Z, then `#`. With `played`, for `profileId`.';
export const catalogOperations = {
  search: op({
    id: 'search',
    method: 'GET',
    path: '/api/v1/search',
    tag: 'search',
    counted: true,
    handler: 'functions/search/get.handler',
    summary: 'Search movies and shows by title, original and alternative titles, and people',
    description:
      "Searches each item's title, its original title, the other titles the provider knows it by, and its people (directors, a show's creators, the first five billed cast); a query matches one of these at a time. " +
      'Case- and accent-insensitive; matches any word prefix ("dark kni" finds "The Dark Knight", "nolan" finds Christopher Nolan\'s films). ' +
      'Forgives typos: a word of 4 to 7 letters matches words within one edit, 8 or more within two (a swap of two letters is one edit), the last word typed as a word prefix; shorter words stay exact. ' +
      'A four-digit year names the items from that year, which come first ("heat 1995"); "&" reads as "and"; sequel numbers 2-20 match in either numerals ("rocky 2", "Rocky II"); a leading article may be left out ("matrix" is the whole title "The Matrix"). ' +
      'Best match first: matches as typed before matches with typos; within each, any title match before any person match; then items from a year the query names; then the whole text, the start of it, every word in any order (with typos: the whole text within one edit, within two, the words within theirs); at one level a title before an original title before an alternative one; then the most recent. ' +
      'Each hit says what it matched (`matchedOn`, `matchedText`), so a client can show "Amélie: original title Le Fabuleux Destin d\'Amélie Poulain".',
    query: S.SearchQuery,
    success: { status: 200, description: 'Hits, best first', schema: Type.Array(S.SearchHit), list: true },
  }),
  listMovies: op({
    id: 'listMovies',
    method: 'GET',
    path: '/api/v1/movies',
    tag: 'movies',
    counted: true,
    handler: 'functions/catalog/api.listMovies',
    summary: 'Movies: the most recently added first, or every one sorted and filtered',
    query: S.MovieListQuery,
    description: BROWSING,
    success: {
      status: 200,
      description: 'A page of movies, each `{ id, type, media }` as a search hit',
      schema: Type.Array(S.MediaEntry),
      list: true,
    },
  }),
  movieFacets: op({
    id: 'movieFacets',
    method: 'GET',
    path: '/api/v1/movies/facets',
    tag: 'movies',
    counted: true,
    handler: 'functions/catalog/api.movieFacets',
    summary: 'The genres, years and letters of the movies the filters keep, with how many have each',
    query: S.MovieFacetsQuery,
    description: FACETS,
    success: { status: 200, description: 'The counts', schema: S.Facets },
  }),
  getMovie: op({
    id: 'getMovie',
    method: 'GET',
    path: '/api/v1/movies/{movieId}',
    tag: 'movies',
    counted: true,
    handler: 'functions/catalog/api.getMovie',
    summary: 'One movie with its file and stream URL',
    params: pathParams(['movieId']),
    query: S.ProfileQuery,
    errors: [404],
    success: { status: 200, description: 'The movie', schema: S.MovieDetail },
  }),
  listShows: op({
    id: 'listShows',
    method: 'GET',
    path: '/api/v1/tvshows',
    tag: 'tvshows',
    counted: true,
    handler: 'functions/catalog/api.listShows',
    summary: 'TV shows: the most recently added first, or every one sorted and filtered',
    query: S.ShowListQuery,
    description: `${BROWSING} A show counts as played when every episode of it is, and its lastPlayed is when one of them last was.`,
    success: {
      status: 200,
      description: 'A page of shows, each `{ id, type, media }` as a search hit',
      schema: Type.Array(S.MediaEntry),
      list: true,
    },
  }),
  showFacets: op({
    id: 'showFacets',
    method: 'GET',
    path: '/api/v1/tvshows/facets',
    tag: 'tvshows',
    counted: true,
    handler: 'functions/catalog/api.showFacets',
    summary: 'The genres, years and letters of the shows the filters keep, with how many have each',
    query: S.ShowFacetsQuery,
    description: FACETS,
    success: { status: 200, description: 'The counts', schema: S.Facets },
  }),
  getShow: op({
    id: 'getShow',
    method: 'GET',
    path: '/api/v1/tvshows/{showId}',
    tag: 'tvshows',
    counted: true,
    handler: 'functions/catalog/api.getShow',
    summary: 'One show with its seasons and episodes in order',
    params: pathParams(['showId']),
    query: S.ProfileQuery,
    errors: [404],
    success: { status: 200, description: 'The show', schema: S.ShowDetail },
  }),
  listCollections: op({
    id: 'listCollections',
    method: 'GET',
    path: '/api/v1/collections',
    tag: 'movies',
    counted: true,
    handler: 'functions/collections/api.listCollections',
    summary: 'Film collections with at least one film here, by name',
    description:
      "Collections come from the provider's `belongs_to_collection` of each film, and from an NFO's `<set>` that names the provider's collection id (`tmdbcolid`; a set without one is left out): kept by that id, never by name. Names file as titles do (\"The Godfather Collection\" under G). `owned` counts its films here (two copies of a film once), `total` its parts: the films the provider lists in it, and any here it does not list. Each collection's parts are asked of the provider once, when a scan first describes one of its films; again when one describes another of its films once that copy is a week old, or when one of its films is refreshed.",
    success: { status: 200, description: 'The collections', schema: Type.Array(S.CollectionSummary) },
  }),
  getCollection: op({
    id: 'getCollection',
    method: 'GET',
    path: '/api/v1/collections/{collectionId}',
    tag: 'movies',
    counted: true,
    handler: 'functions/collections/api.getCollection',
    summary: 'One film collection with every part, owned or missing, in release order',
    description:
      "A missing part has `owned: false` and `id` and `media` null; a part here has the film's `id` and `media` as lists show it. Until the provider has been asked (no key), only the films here are listed. 400 for an id that is not a positive integer; 404 when no film here is in the collection.",
    params: S.CollectionParams,
    errors: [400, 404],
    success: { status: 200, description: 'The collection', schema: S.CollectionDetail },
  }),
};
