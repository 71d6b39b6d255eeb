// Fixing a wrong match (lib/matching/service.ts decides everything): candidates, a match chosen
// and kept, unlocking it, fetching a title again, and the candidates' posters.
import { operations } from '../../lib/api/operations';
import { currentProvider, detailServices, services } from '../../lib/deps';
import { notFound } from '../../lib/errors';
import { http } from '../../lib/http/stack';
import { accepted, ok, raw } from '../../lib/http/reply';
import { MatchingService, type Candidate } from '../../lib/matching/service';
import { deploymentKey } from '../../lib/settings/deployment-key';
import { movieDetail, showDetail } from '../../lib/views/detail';

const matching = new MatchingService({ ...services, provider: currentProvider(deploymentKey) });

const withPoster =
  (origin: string) =>
  ({ posterPath, ...c }: Candidate) => ({
    ...c,
    posterUrl: posterPath ? `${origin}/api/v1/provider-images/${encodeURIComponent(posterPath.replace(/^\//, ''))}` : null,
  });

const movie = (id: string, origin: string) => movieDetail(detailServices(), id, origin);
const show = (id: string, origin: string) => showDetail(detailServices(), id, origin);

export const movieCandidates = http(operations.movieCandidates, async ({ params, query, origin }) =>
  ok((await matching.candidates('movie', params.movieId, query)).map(withPoster(origin))),
);
export const showCandidates = http(operations.showCandidates, async ({ params, query, origin }) =>
  ok((await matching.candidates('tvshow', params.showId, query)).map(withPoster(origin))),
);

export const matchMovie = http(operations.matchMovie, async ({ params, body, origin }, ctx) => {
  await matching.match('movie', params.movieId, body.tmdbId, ctx.clientAddress);
  return ok(await movie(params.movieId, origin));
});
export const matchShow = http(operations.matchShow, async ({ params, body, origin }, ctx) => {
  await matching.match('tvshow', params.showId, body.tmdbId, ctx.clientAddress);
  return ok(await show(params.showId, origin));
});

export const unmatchMovie = http(operations.unmatchMovie, async ({ params, origin }) => {
  await matching.unlock('movie', params.movieId);
  return ok(await movie(params.movieId, origin));
});
export const unmatchShow = http(operations.unmatchShow, async ({ params, origin }) => {
  await matching.unlock('tvshow', params.showId);
  return ok(await show(params.showId, origin));
});

export const refreshMovie = http(operations.refreshMovie, async ({ params, origin }) => {
  await matching.refresh('movie', params.movieId);
  return accepted(await movie(params.movieId, origin));
});
export const refreshShow = http(operations.refreshShow, async ({ params, origin }) => {
  await matching.refresh('tvshow', params.showId);
  return accepted(await show(params.showId, origin));
});

export const providerImage = http(operations.providerImage, async ({ params }) => {
  const image = await matching.poster(params.file);
  if (!image) throw notFound(`The provider's image ${params.file}`);
  return raw(200, image.bytes, { 'Content-Type': image.contentType, 'Cache-Control': 'public, max-age=86400' });
});
