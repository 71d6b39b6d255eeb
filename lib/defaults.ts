// Defaults that the configuration owns and the adapters fall back to when built without it
// (tests, benches); kept apart from config.ts, which reads the environment when imported.

export const TMDB_DEFAULTS = {
  baseUrl: 'https://api.themoviedb.org/3',
  imageBaseUrl: 'https://image.tmdb.org/t/p',
  language: 'en-US',
  // TMDB's documented ceiling is about 40 per second per address.
  requestsPerSecond: 40,
  timeoutMs: 10_000,
  maxAttempts: 5,
  retryBaseDelayMs: 500,
  retryMaxDelayMs: 8_000,
  maxImageBytes: 20 * 1024 * 1024,
} as const;
