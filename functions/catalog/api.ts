// The catalogue: recent movies and shows (or those the provider could not describe), and their
// details, each with the state of the profile asking (`profileId`, default `default`).
import { operations } from '../../lib/api/operations';
import { movieDetail, showDetail } from '../../lib/views/detail';
import { listRecent } from '../../lib/views/recent';
import { detailServices, services, watchingService } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';

export const listMovies = http(operations.listMovies, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'movie', query.limit ?? 10, query.cursor, origin, query.matched);
  return ok(await watchingService().withUserData(query.profileId ?? 'default', data), meta);
});

export const getMovie = http(operations.getMovie, async ({ params, query, origin }) => {
  const watching = watchingService();
  const profileId = query?.profileId ?? 'default';
  const [movie, states] = await Promise.all([
    movieDetail(detailServices(), params.movieId, origin),
    watching.userData(profileId, [params.movieId]),
    watching.requireProfile(profileId),
  ]);
  return ok({ ...movie, userData: states.get(movie.id)! });
});

export const listShows = http(operations.listShows, async ({ query, origin }) => {
  const { data, meta } = await listRecent(services, 'tvshow', query.limit ?? 10, query.cursor, origin, query.matched);
  return ok(await watchingService().withUserData(query.profileId ?? 'default', data), meta);
});

export const getShow = http(operations.getShow, async ({ params, query, origin }) => {
  const watching = watchingService();
  const profileId = query?.profileId ?? 'default';
  const show = await showDetail(detailServices(), params.showId, origin);
  const episodes = show.seasons.flatMap((s) => s.episodes.map((e) => e.id));
  const [states] = await Promise.all([watching.userData(profileId, episodes), watching.requireProfile(profileId)]);
  const seasons = show.seasons.map((s) => ({ ...s, episodes: s.episodes.map((e) => ({ ...e, userData: states.get(e.id)! })) }));
  const playedEpisodes = episodes.filter((id) => states.get(id)?.played).length;
  return ok({ ...show, seasons, userData: { playedEpisodes, totalEpisodes: episodes.length, played: episodes.length > 0 && playedEpisodes === episodes.length } });
});
