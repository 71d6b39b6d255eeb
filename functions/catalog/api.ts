// The catalogue: recent movies and shows, and their details.
import { operations } from '../../lib/api/operations';
import { movieDetail, showDetail } from '../../lib/views/detail';
import { listRecent } from '../../lib/views/recent';
import { services, subtitleExtractor } from '../../lib/deps';
import { trackOptions } from '../../lib/subtitles/service';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';

export const listMovies = http(operations.listMovies, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'movie', query.limit ?? 10, query.cursor, origin);
  return ok(data, meta);
});

const withSubtitles = () => ({ ...services, subtitles: trackOptions({ storage: services.storage, extractor: subtitleExtractor() }) });

export const getMovie = http(operations.getMovie, async ({ params, origin }) => ok(await movieDetail(withSubtitles(), params.movieId, origin)));

export const listShows = http(operations.listShows, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'tvshow', query.limit ?? 10, query.cursor, origin);
  return ok(data, meta);
});

export const getShow = http(operations.getShow, async ({ params, origin }) => ok(await showDetail(withSubtitles(), params.showId, origin)));
