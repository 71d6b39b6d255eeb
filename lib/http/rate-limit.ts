// Fixed-window rate limit per client address. The counter lives in DynamoDB (one atomic
// UpdateItem per counted request), so every function and every process shares it.
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

export const rateLimit = (settings: RateLimitSettings, counted: boolean, countHit: HitCounter): HttpMiddleware => {
  const policy = policyHeader(settings);
  const stateKey = Symbol('rateLimitState');
  type WithState = HttpRequest & { [stateKey]?: RateLimitState };

  const before = async (request: WithState) => {
    if (!counted || request.event.requestContext?.http?.method === 'OPTIONS') return;
    const now = Date.now();
    const { start, end } = windowOf(now, settings.windowMs);
    const count = await countHit(request.context.clientAddress, start, Math.ceil(end / 1000) + 60);
    const state = rateLimitState(count, now, settings);
    request[stateKey] = state;
    if (state.limited) throw rateLimited(state.resetSeconds);
  };

  const decorate = async (request: WithState) => {
    const state = request[stateKey];
    if (!state || !request.response) return;
    setHeader(request.response, 'RateLimit-Policy', policy);
    setHeader(request.response, 'RateLimit', stateHeader(state));
  };

  return { before, after: decorate, onError: decorate };
};
