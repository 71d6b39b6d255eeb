// The TMDB client's settings: what callers pass, the defaults, and the one check that runs
// when a client is made. Nothing here reads the environment; lib/config.ts and settings do.
import { setTimeout as delay } from 'node:timers/promises';
import type { ProviderCache } from '../provider';
import { TMDB_DEFAULTS } from '../../defaults';

/** The one log method the client uses (a pino logger fits): retries, pauses, cache failures. */
export interface TmdbLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface TmdbConfig {
  /** A v3 API key (sent as `api_key`) or a v4 read access token (a JWT, sent as a Bearer token). */
  apiKey: string;
  baseUrl?: string;
  imageBaseUrl?: string;
  /** ISO 639-1 with an optional region, "en-US"; part of every request and of its cache key. */
  language?: string;
  /** Whose certification to report ("US"); by default the language's region, else US. */
  region?: string;
  requestsPerSecond?: number;
  /** For each attempt, body included. */
  timeoutMs?: number;
  /** Attempts per call on 5xx, timeouts and network errors (429s have their own budget). */
  maxAttempts?: number;
  /** The first backoff; each retry doubles it, up to retryMaxDelayMs, half of it random. */
  retryBaseDelayMs?: number;
  retryMaxDelayMs?: number;
  /** Images larger than this are refused. */
  maxImageBytes?: number;
  cache?: ProviderCache;
  log?: TmdbLog;
  // For tests.
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
  /** Milliseconds, monotonic. */
  clock?: () => number;
  random?: () => number;
}

export type ResolvedTmdbConfig = Required<Omit<TmdbConfig, 'cache' | 'log'>> & Pick<TmdbConfig, 'cache' | 'log'>;

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, '');

/** "en-US" -> "US"; a bare language has no region to guess from. */
const regionOf = (language: string) => /^[a-z]{2,3}-([A-Z]{2})$/.exec(language)?.[1] ?? 'US';

export function resolveTmdbConfig(input: TmdbConfig): ResolvedTmdbConfig {
  const apiKey = input.apiKey?.trim() ?? '';
  const issues: string[] = [];
  if (!apiKey) issues.push('apiKey is empty');
  const positive = (name: keyof typeof TMDB_DEFAULTS, value: unknown) => {
    if (typeof value !== 'number' || !(value > 0) || !Number.isFinite(value)) issues.push(`${name} must be a positive number`);
  };
  const merged = { ...TMDB_DEFAULTS, ...definedOnly(input) };
  for (const name of ['requestsPerSecond', 'timeoutMs', 'maxAttempts', 'retryBaseDelayMs', 'retryMaxDelayMs', 'maxImageBytes'] as const)
    positive(name, merged[name]);
  if (issues.length) throw new TypeError(`Invalid TMDB client configuration: ${issues.join('; ')}`);
  return {
    ...merged,
    apiKey,
    baseUrl: withoutTrailingSlash(merged.baseUrl),
    imageBaseUrl: withoutTrailingSlash(merged.imageBaseUrl),
    region: input.region ?? regionOf(merged.language),
    maxAttempts: Math.floor(merged.maxAttempts),
    cache: input.cache,
    log: input.log,
    fetch: input.fetch ?? globalThis.fetch,
    sleep: input.sleep ?? ((ms) => delay(ms)),
    clock: input.clock ?? (() => performance.now()),
    random: input.random ?? Math.random,
  };
}

/** A v4 read access token is a JWT (three dot-separated parts); a v3 key is 32 hex digits. */
export const isReadAccessToken = (apiKey: string) => apiKey.split('.').length === 3;

const definedOnly = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
