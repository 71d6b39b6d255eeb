// How long to wait before trying again: exponential backoff with jitter after a failure, and
// the server's own word (Retry-After) after a 429.

export interface BackoffOptions {
  baseMs: number;
  maxMs: number;
  random: () => number;
}

/**
 * The wait before attempt `failedAttempts + 1`: base, 2x base, 4x base... capped, of which the
 * upper half is random so that many callers failing together do not come back together.
 */
export function backoffDelay(failedAttempts: number, { baseMs, maxMs, random }: BackoffOptions): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, failedAttempts - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * Retry-After in milliseconds: delta-seconds ("2") or an HTTP date; undefined when absent or
 * unreadable. `nowMs` is wall-clock time, for the date form.
 */
export function parseRetryAfter(header: string | null, nowMs: number): number | undefined {
  const text = header?.trim();
  if (!text) return undefined;
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
