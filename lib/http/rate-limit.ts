// Fixed-window rate limit per client address. Where it is counted: in the table (one atomic
// UpdateItem per counted request, shared by every function, process and instance: the cloud,
// or instances sharing a DYNAMODB_ENDPOINT), or at home at the edge, by the front door that
// sees every request of its instance (memoryHitCounter: no database write per request).
// Headers follow the IETF draft: RateLimit-Policy: "default";q=100;w=900 and
// RateLimit: "default";r=42;t=310; a 429 also carries Retry-After.
import { rateLimited } from '../errors';
import { setHeader, type HttpMiddleware, type HttpRequest } from './context';

export interface RateLimitSettings {
  max: number;
  windowMs: number;
}

/** Adds one hit for the client in the window starting at windowStart; returns the count so far. */
export type HitCounter = (client: string, windowStart: number, expiresAtSeconds: number) => Promise<number>;

export interface RateLimitState {
  count: number;
  remaining: number;
  resetSeconds: number;
  limited: boolean;
}

export const windowOf = (now: number, windowMs: number) => {
  const start = Math.floor(now / windowMs) * windowMs;
  return { start, end: start + windowMs };
};

export const rateLimitState = (count: number, now: number, settings: RateLimitSettings): RateLimitState => {
  const { end } = windowOf(now, settings.windowMs);
  return {
    count,
    remaining: Math.max(0, settings.max - count),
    resetSeconds: Math.max(1, Math.ceil((end - now) / 1000)),
    limited: count > settings.max,
  };
};

const policyHeader = (s: RateLimitSettings) => `"default";q=${s.max};w=${Math.ceil(s.windowMs / 1000)}`;
const stateHeader = (st: RateLimitState) => `"default";r=${st.remaining};t=${st.resetSeconds}`;

/** The headers every counted answer carries, 429 included. */
export const rateLimitHeaders = (settings: RateLimitSettings, state: RateLimitState) => ({
  'RateLimit-Policy': policyHeader(settings),
  RateLimit: stateHeader(state),
});

/** Counts one hit for `client` now; the state after it. */
export const countHit = async (settings: RateLimitSettings, client: string, counter: HitCounter, now = Date.now()) => {
  const { start, end } = windowOf(now, settings.windowMs);
  const count = await counter(client, start, Math.ceil(end / 1000) + 60);
  return rateLimitState(count, now, settings);
};

/**
 * Counts in this process's memory. Only past windows are dropped, at the first hit of a new
 * one, so it holds one entry per client seen in the current window.
 */
export const memoryHitCounter = (): HitCounter => {
  let window = -1;
  let hits = new Map<string, number>();
  return async (client, windowStart) => {
    if (windowStart !== window) {
      window = windowStart;
      hits = new Map();
    }
    const count = (hits.get(client) ?? 0) + 1;
    hits.set(client, count);
    return count;
  };
};

export const rateLimit = (settings: RateLimitSettings, counted: boolean, counter: HitCounter): HttpMiddleware => {
  const stateKey = Symbol('rateLimitState');
  type WithState = HttpRequest & { [stateKey]?: RateLimitState };

  const before = async (request: WithState) => {
    if (!counted || request.event.requestContext?.http?.method === 'OPTIONS') return;
    const state = await countHit(settings, request.context.clientAddress, counter);
    request[stateKey] = state;
    if (state.limited) throw rateLimited(state.resetSeconds);
  };

  const decorate = async (request: WithState) => {
    const state = request[stateKey];
    if (!state || !request.response) return;
    for (const [name, value] of Object.entries(rateLimitHeaders(settings, state))) setHeader(request.response, name, value);
  };

  return { before, after: decorate, onError: decorate };
};
