// The catalogue: recent movies and shows (or those the provider could not describe), and their details.
import { operations } from '../../lib/api/operations';
import { movieDetail, showDetail } from '../../lib/views/detail';
import { listRecent } from '../../lib/views/recent';
import { detailServices, services } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';

export const listMovies = http(operations.listMovies, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'movie', query.limit ?? 10, query.cursor, origin, query.matched);
  return ok(data, meta);
});

export const getMovie = http(operations.getMovie, async ({ params, origin }) => ok(await movieDetail(detailServices(), params.movieId, origin)));

export const listShows = http(operations.listShows, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'tvshow', query.limit ?? 10, query.cursor, origin, query.matched);
  return ok(data, meta);
});

export const getShow = http(operations.getShow, async ({ params, origin }) => ok(await showDetail(detailServices(), params.showId, origin)));
