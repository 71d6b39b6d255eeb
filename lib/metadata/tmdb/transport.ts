// Sending one logical request to TMDB: paced by the client's limiter, each attempt bounded by a
// timeout, tried again on 5xx, timeouts and network errors (exponential backoff with jitter),
// and after a 429 once the whole client has paused as long as the server asked. Every other
// answer maps to one provider error. A 401 on the API is remembered: from then on every call
// fails at once with that error, without a request (the key will not become valid by retrying).
import {
  ProviderAuthError,
  ProviderBadResponse,
  ProviderError,
  ProviderNotFound,
  ProviderRejected,
  ProviderUnavailable,
  type ProviderStats,
} from '../provider';
import { backoffDelay, parseRetryAfter } from './backoff';
import type { ResolvedTmdbConfig } from './config';
import { createRateLimiter } from './rate-limiter';
import { scrubbedCause } from './redact';
import type { TmdbErrorBody } from './wire';

export interface OutgoingRequest {
  /** What is fetched; may carry the key in its query. */
  url: string;
  /** What errors and logs show: the same request without credentials. */
  shownUrl: string;
  headers: Record<string, string>;
  /** API calls are paced, and a 401 there means the key is bad; image downloads are neither. */
  api: boolean;
}

/** Reads a 2xx answer. Throw a ProviderError to fail the call; anything else counts as a failed attempt. */
export type ReadBody<T> = (response: Response, request: OutgoingRequest, attempts: number) => Promise<T>;

export interface Transport {
  send<T>(request: OutgoingRequest, read: ReadBody<T>): Promise<T>;
  /** Throws the remembered auth error, if any. */
  throwIfKeyRefused(): void;
}

// A 429 may come back several times while others drain the budget: its own budget, so it does
// not eat the attempts meant for real failures. A longer Retry-After than a minute is not a
// hiccup; the call fails, reporting it, while the client still pauses for that minute.
const MAX_RATE_LIMIT_WAITS = 10;
const MAX_PAUSE_MS = 60_000;

/** A failed attempt that may be tried again. */
class Retryable {
  constructor(
    readonly reason: string,
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly cause?: unknown,
  ) {}
}

export function createTransport(config: ResolvedTmdbConfig, stats: ProviderStats, scrub: (text: string) => string): Transport {
  const limiter = createRateLimiter(config);
  const backoff = { baseMs: config.retryBaseDelayMs, maxMs: config.retryMaxDelayMs, random: config.random };
  let keyRefused: ProviderAuthError | undefined;

  const throwIfKeyRefused = () => {
    if (keyRefused) throw keyRefused;
  };

  /** One attempt: the answer read, a provider error thrown, or a Retryable returned. */
  const attempt = async <T>(request: OutgoingRequest, read: ReadBody<T>, attempts: number): Promise<T | Retryable> => {
    const signal = AbortSignal.timeout(config.timeoutMs);
    try {
      const response = await config.fetch(request.url, { headers: request.headers, signal });
      if (response.ok) return await read(response, request, attempts);
      return await failure(response, request, attempts);
    } catch (err) {
      if (err instanceof ProviderError) throw err;
      const timedOut = signal.aborted || (err as Error)?.name === 'TimeoutError';
      return new Retryable(timedOut ? `no answer within ${config.timeoutMs} ms` : 'network error', undefined, undefined, err);
    }
  };

  const failure = async (response: Response, request: OutgoingRequest, attempts: number): Promise<Retryable> => {
    const { status } = response;
    const body = await errorBody(response);
    const context = { url: request.shownUrl, status, providerCode: body.status_code, attempts };
    const said = body.status_message ? `: ${scrub(body.status_message)}` : '';
    if (status === 429) return new Retryable('rate limited', status, parseRetryAfter(response.headers.get('retry-after'), Date.now()));
    if (status >= 500 || status === 408) return new Retryable(`answered ${status}${said}`, status);
    if (status === 401 && request.api) throw new ProviderAuthError(`TMDB refused the API key (${status}${said})`, context);
    if (status === 404) throw new ProviderNotFound(`TMDB has nothing at ${request.shownUrl}`, context);
    if (status >= 400) throw new ProviderRejected(`TMDB refused ${request.shownUrl} (${status}${said})`, context);
    throw new ProviderBadResponse(`TMDB answered ${request.shownUrl} with an unexpected ${status}`, context);
  };

  /** Waits out a 429 (pausing every caller of the client); throws when it is not worth waiting. */
  const rateLimited = async (request: OutgoingRequest, outcome: Retryable, waits: number, attempts: number) => {
    stats.rateLimited++;
    const waitMs = outcome.retryAfterMs ?? backoffDelay(waits, backoff);
    const context = { url: request.shownUrl, status: 429, attempts };
    if (waitMs > MAX_PAUSE_MS || waits > MAX_RATE_LIMIT_WAITS) {
      if (request.api) limiter.pauseFor(Math.min(waitMs, MAX_PAUSE_MS));
      const retryAfterSeconds = outcome.retryAfterMs === undefined ? undefined : Math.ceil(outcome.retryAfterMs / 1000);
      throw new ProviderUnavailable(`TMDB kept rate-limiting ${request.shownUrl}`, { ...context, retryAfterSeconds });
    }
    config.log?.warn({ url: request.shownUrl, waitMs, attempt: attempts }, 'tmdb rate limited: pausing the client');
    // API calls wait in the limiter (with everyone else); an image download waits alone.
    if (request.api) limiter.pauseFor(waitMs);
    else await config.sleep(waitMs);
  };

  const send = async <T>(request: OutgoingRequest, read: ReadBody<T>): Promise<T> => {
    let attempts = 0;
    let failures = 0;
    let rateLimitWaits = 0;
    for (;;) {
      if (request.api) {
        throwIfKeyRefused();
        await limiter.acquire();
        throwIfKeyRefused(); // refused while this call waited its turn
      }
      attempts++;
      stats.requests++;
      let outcome: T | Retryable;
      try {
        outcome = await attempt(request, read, attempts);
      } catch (err) {
        if (err instanceof ProviderAuthError && !keyRefused) {
          keyRefused = err;
          limiter.failWaiting(err);
        }
        throw err;
      }
      if (!(outcome instanceof Retryable)) return outcome;
      if (outcome.status === 429) {
        await rateLimited(request, outcome, ++rateLimitWaits, attempts);
      } else {
        failures++;
        if (failures >= config.maxAttempts) {
          throw new ProviderUnavailable(
            `TMDB gave no usable answer to ${request.shownUrl} in ${attempts} attempts (last: ${outcome.reason})`,
            { url: request.shownUrl, status: outcome.status, attempts },
            outcome.cause === undefined ? undefined : { cause: scrubbedCause(outcome.cause, scrub) },
          );
        }
        const waitMs = backoffDelay(failures, backoff);
        config.log?.warn({ url: request.shownUrl, reason: outcome.reason, attempt: attempts, waitMs }, 'tmdb request failed: retrying');
        await config.sleep(waitMs);
      }
      stats.retries++;
    }
  };

  return { send, throwIfKeyRefused };
}

/** TMDB's error body, or nothing when the answer is not one (an HTML page from a proxy). */
async function errorBody(response: Response): Promise<TmdbErrorBody> {
  try {
    const parsed: unknown = JSON.parse(await response.text());
    return typeof parsed === 'object' && parsed !== null ? parsed : {};
  } catch {
    return {};
  }
}
