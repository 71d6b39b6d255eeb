// The catalogue: recent movies and shows, and their details.
import { operations } from '../../lib/api/operations';
import { listRecent, movieDetail, showDetail } from '../../lib/catalog/service';
import { services } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';

export const listMovies = http(operations.listMovies, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'movie', query.limit ?? 10, query.cursor, origin);
  return ok(data, meta);
});

export const getMovie = http(operations.getMovie, async ({ params, origin }) => ok(await movieDetail(services, params.movieId, origin)));

export const listShows = http(operations.listShows, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'tvshow', query.limit ?? 10, query.cursor, origin);
  return ok(data, meta);
});

export const getShow = http(operations.getShow, async ({ params, origin }) => ok(await showDetail(services, params.showId, origin)));
