// Fixing a wrong match: its operations, the same four for movies and for shows (lib/api/operations.ts).
import { Type } from '@sinclair/typebox';
import { op, pathParams } from './operation-def';
import * as S from './schemas';

/** Fixing a wrong match, the same four operations for movies and for shows. */
export const matchingOperations = <K extends 'movie' | 'tvshow'>(kind: K) => {
  const movie = kind === 'movie';
  const Kind = movie ? 'Movie' : 'Show';
  const noun = movie ? 'movie' : 'show';
  const base = movie ? '/api/v1/movies/{movieId}' : '/api/v1/tvshows/{showId}';
  const params = pathParams([movie ? 'movieId' : 'showId']);
  const detail = movie ? S.MovieDetail : S.ShowDetail;
  const tag = movie ? 'movies' : 'tvshows';
  const noProvider =
    'Without a TMDB key (or with fetching switched off) 409 `provider-not-configured`; the provider down or refusing 424 `provider-unavailable` with Retry-After; neither changes anything.';
  return {
    candidates: op({
      id: `${noun}Candidates`,
      method: 'GET',
      path: `${base}/candidates`,
      tag,
      counted: true,
      handler: `functions/matching/api.${noun}Candidates`,
      summary: `The provider's records that may be this ${noun}, best first`,
      description: `One provider search (\`query\`, default the ${noun}'s title; \`year\` exact), in the provider's order. Each \`posterUrl\` goes through this service (GET /api/v1/provider-images/{file}). ${noProvider} 404 for an unknown id.`,
      params,
      query: S.CandidatesQuery,
      errors: [404, 409, 424],
      success: { status: 200, description: 'The candidates', schema: Type.Array(S.MatchCandidate) },
    }),
    match: op({
      id: `match${Kind}`,
      method: 'PUT',
      path: `${base}/match`,
      tag,
      counted: true,
      handler: `functions/matching/api.match${Kind}`,
      summary: `Pin the ${noun} to a provider record, for good`,
      description: `The ${noun} is described from that record at once (title, overview, cast, poster, colours${movie ? '' : '; its seasons and episodes too'}) and \`metadata.matchLocked\` is true. From then on no rescan, refresh, move or rename of ${movie ? 'its file' : 'its files'}, NFO or \`[tmdbid-…]\` in a name searches or matches it again: it is described from that record alone (no NFO fields, no local pictures), fetched again only by its id, until DELETE unlocks it. Who chose it (the client's address) and when is kept with the choice. 422 \`unknown-provider-id\` when the provider has no ${noun} with that id; 409 \`scan-already-running\` while its library is scanned. ${noProvider} 404 for an unknown id.`,
      params,
      body: S.MatchRequest,
      bodyRequired: true,
      errors: [400, 404, 409, 422, 424],
      success: { status: 200, description: `The ${noun}, described from the chosen record`, schema: detail },
    }),
    unmatch: op({
      id: `unmatch${Kind}`,
      method: 'DELETE',
      path: `${base}/match`,
      tag,
      counted: true,
      handler: `functions/matching/api.unmatch${Kind}`,
      summary: `Unlock the ${noun}'s match: it is matched automatically again`,
      description: `The pinned record is dropped and the ${noun} is matched again from ${movie ? "its file's name" : "its folder's name"} (and NFO), as a new ${noun} would be; \`matched\` may be false afterwards. A ${noun} that was not locked is answered as it is. 409 \`scan-already-running\` while its library is scanned. ${noProvider} 404 for an unknown id.`,
      params,
      errors: [404, 409, 424],
      success: { status: 200, description: `The ${noun}, unlocked`, schema: detail },
    }),
    refresh: op({
      id: `refresh${Kind}`,
      method: 'POST',
      path: `${base}/refresh`,
      tag,
      counted: true,
      handler: `functions/matching/api.refresh${Kind}`,
      summary: `Fetch the ${noun}'s record and pictures again`,
      description: `The provider's record (the pinned one when locked; else the one it is matched to, or a new search when it has none) and its pictures are fetched again, not taken from the provider cache, and the ${noun}${movie ? '' : ' and its episodes'} described from them. Done before the answer, which carries the ${noun}. 409 \`scan-already-running\` while its library is scanned. ${noProvider} 404 for an unknown id.`,
      params,
      errors: [404, 409, 424],
      success: { status: 202, description: `The ${noun}, described again`, schema: detail },
    }),
  } as const;
};
