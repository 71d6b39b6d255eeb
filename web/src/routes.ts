// The addresses the web client answers itself (its screens). One list for the client's router
// and the box's front door, which serves index.html at exactly these and keeps its 404
// problem for every other address. No DOM here: the front door imports it.
export const CLIENT_ROUTES = {
  home: /^\/$/,
  search: /^\/search$/,
  movies: /^\/movies$/,
  movie: /^\/movies\/([\w-]+)$/,
  shows: /^\/shows$/,
  show: /^\/shows\/([\w-]+)$/,
  collections: /^\/collections$/,
  collection: /^\/collections\/([\w-]+)$/,
  play: /^\/play\/([\w-]+)$/,
  playEpisode: /^\/shows\/([\w-]+)\/play\/([\w-]+)$/,
  libraries: /^\/libraries$/,
  unmatched: /^\/unmatched$/,
  settings: /^\/settings$/,
  logs: /^\/logs$/,
} as const;

export const isClientRoute = (path: string) => Object.values(CLIENT_ROUTES).some((re) => re.test(path));
