// The rate limit counted at the edge, in memory, per client address: where an instance owns its
// embedded database its front door sees every request and nobody else counts, so a counted
// request costs no database write (the handlers count nothing: RATE_LIMIT_AT=edge). Same
// window, maximum, exemptions, headers and 429 as the handlers' middleware (lib/http/rate-limit.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationDef } from '../../lib/api/operations';
import { rateLimited } from '../../lib/errors';
import { countHit, memoryHitCounter, rateLimitHeaders, type HitCounter, type RateLimitSettings } from '../../lib/http/rate-limit';
import { sendProblem } from './problems';

/** Admits a request: false when its client is over the limit and has had its 429. */
export type Admit = (req: IncomingMessage, res: ServerResponse, op: OperationDef) => Promise<boolean>;

/**
 * Counts one request of its client in `hits` and sets the limit's headers on whatever answer
 * follows (writeHead merges them); the seconds to wait when the client is over the limit.
 */
export const countAtEdge = async (
  settings: RateLimitSettings,
  hits: HitCounter,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<number | undefined> => {
  const state = await countHit(settings, req.socket.remoteAddress ?? 'unknown', hits);
  for (const [name, value] of Object.entries(rateLimitHeaders(settings, state))) res.setHeader(name, value);
  return state.limited ? state.resetSeconds : undefined;
};

/** Counting with `settings` in `hits` (one per instance: the Jellyfin door counts there too), or admitting everything when the edge does not count. */
export const edgeRateLimit = (settings: RateLimitSettings | undefined, hits: HitCounter = memoryHitCounter()): Admit => {
  return async (req, res, op) => {
    if (!settings || !op.counted || req.method === 'OPTIONS') return true;
    const wait = await countAtEdge(settings, hits, req, res);
    if (wait === undefined) return true;
    sendProblem(req, res, rateLimited(wait));
    return false;
  };
};
