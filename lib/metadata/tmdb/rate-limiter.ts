// One client's pace: callers queue in order and are let through one at a time, evenly spaced,
// never in bursts. A server that counts any one-second window then sees at most the rate.
//
// Why one caller per wake-up, on a schedule: if timers fired exactly on time, spacing would be
// enough. They fire late, and after a blocked event loop several would fire together; letting
// out one caller per wake-up, and starting the schedule again from now after a long delay, means
// a stall produces a gap, never a burst. Small lateness keeps the schedule (so the rate does not
// drift down by a millisecond per request).
//
// Why slightly slower than asked (SPACING_MARGIN): the server counts arrivals, which jitter by a
// few milliseconds (timers, the network, a new connection). With exact spacing the 41st request
// of a 40/s budget would land right on the edge of the first one's window. And why a window on
// top of the spacing (WINDOW_GUARD_MS): keeping the schedule after a late wake-up lets a few
// releases come closer than the spacing; the window never lets the budget's next request out
// until the one that many requests back is a second (and a guard) old.

export interface RateLimiterOptions {
  requestsPerSecond: number;
  /** Milliseconds, monotonic. */
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
}

export interface RateLimiter {
  /** Resolves when the caller may send one request. */
  acquire(): Promise<void>;
  /** Lets nobody through until `ms` from now (a 429's Retry-After); never shortens a pause. */
  pauseFor(ms: number): void;
  /** Rejects every caller waiting now (the key was refused: their turn would change nothing). */
  failWaiting(reason: Error): void;
  /** Callers waiting now. */
  readonly waiting: number;
}

const SPACING_MARGIN = 1.05;
const WINDOW_MS = 1000;
const WINDOW_GUARD_MS = 40;

export function createRateLimiter({ requestsPerSecond, clock, sleep }: RateLimiterOptions): RateLimiter {
  const intervalMs = (1000 / requestsPerSecond) * SPACING_MARGIN;
  const queue: Array<{ resolve: () => void; reject: (reason: Error) => void }> = [];
  let earliest = -Infinity; // the next slot the spacing allows
  const budget = Math.max(1, Math.floor(requestsPerSecond));
  const released: number[] = []; // the last `budget` release times
  let pausedUntil = -Infinity;
  let pumping = false;

  const release = (now: number, due: number) => {
    // Late by less than one interval: keep the schedule. Later than that: start again from now.
    const base = now - due < intervalMs ? due : now;
    earliest = base + intervalMs;
    released.push(now);
    if (released.length > budget) released.shift();
    queue.shift()!.resolve();
  };

  const pump = async () => {
    pumping = true;
    try {
      while (queue.length > 0) {
        const windowOpens = released.length === budget ? released[0]! + WINDOW_MS + WINDOW_GUARD_MS : -Infinity;
        const due = Math.max(earliest, pausedUntil, windowOpens);
        const now = clock();
        // Asleep until due, then look again: a 429 may have moved the pause meanwhile.
        if (now < due) await sleep(due - now);
        else release(now, due);
      }
    } finally {
      pumping = false;
    }
  };

  return {
    acquire() {
      return new Promise<void>((resolve, reject) => {
        queue.push({ resolve, reject });
        if (!pumping) void pump();
      });
    },
    pauseFor(ms) {
      pausedUntil = Math.max(pausedUntil, clock() + ms);
    },
    failWaiting(reason) {
      for (const waiter of queue.splice(0)) waiter.reject(reason);
    },
    get waiting() {
      return queue.length;
    },
  };
}
