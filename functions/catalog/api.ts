// The catalogue: movies and shows (the recent lists, or every one sorted and filtered, with their
// facets), and their details, each with the state of the profile asking (`profileId`, default
// `default`).
import { operations } from '../../lib/api/operations';
import { listTitles, titleFacets, type BrowseDeps } from '../../lib/browse/service';
import { movieDetail, showDetail } from '../../lib/views/detail';
import { detailServices, services, watchingService } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { ok } from '../../lib/http/reply';

/** The lists' services, with the asking profile's state should a filter or the sort need it. */
const browsing = (profileId: string): BrowseDeps => ({ ...services, watched: () => watchingService().watchedTitles(profileId) });

export const listMovies = http(operations.listMovies, async ({ query, event, origin }) => {
  const profileId = query.profileId ?? 'default';
  const { data, meta } = await listTitles(browsing(profileId), 'movie', query, event.rawQueryString, origin);
  return ok(await watchingService().withUserData(profileId, data), meta);
});

export const movieFacets = http(operations.movieFacets, async ({ query, event }) =>
  ok(await titleFacets(browsing(query.profileId ?? 'default'), 'movie', query, event.rawQueryString)),
);

export const getMovie = http(operations.getMovie, async ({ params, query, origin }) => {
  const watching = watchingService();
  const profileId = query?.profileId ?? 'default';
  const [movie, userData] = await Promise.all([
    movieDetail(detailServices(), params.movieId, origin),
    watching.filmUserData(profileId, params.movieId),
    watching.requireProfile(profileId),
  ]);
  return ok({ ...movie, userData });
});

export const listShows = http(operations.listShows, async ({ query, event, origin }) => {
  const profileId = query.profileId ?? 'default';
  const { data, meta } = await listTitles(browsing(profileId), 'tvshow', query, event.rawQueryString, origin);
  return ok(await watchingService().withUserData(profileId, data), meta);
});

export const showFacets = http(operations.showFacets, async ({ query, event }) =>
  ok(await titleFacets(browsing(query.profileId ?? 'default'), 'tvshow', query, event.rawQueryString)),
);

export const getShow = http(operations.getShow, async ({ params, query, origin }) => {
  const watching = watchingService();
  const profileId = query?.profileId ?? 'default';
  const show = await showDetail(detailServices(), params.showId, origin);
  const episodeIds = show.seasons.flatMap((s) => s.episodes.map((e) => e.id));
  const { episodes, show: userData } = await watching.showDetailUserData(profileId, show.id, episodeIds);
  const seasons = show.seasons.map((s) => ({ ...s, episodes: s.episodes.map((e) => ({ ...e, userData: episodes.get(e.id)! })) }));
  return ok({ ...show, seasons, userData });
});
