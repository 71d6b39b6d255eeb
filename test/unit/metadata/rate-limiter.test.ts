// The client's limiter on a virtual clock: exact, and fast, whatever the machine's timers do.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createRateLimiter } from '../../../lib/metadata/tmdb/rate-limiter';

/**
 * A clock that moves only when the limiter sleeps. The sleep first lets every pending callback
 * run (setImmediate comes after promise jobs), so a released caller reads the time it was let out.
 */
const virtualTime = (oversleep: (ms: number) => number = () => 0) => {
  let now = 0;
  return {
    clock: () => now,
    sleep: async (ms: number) => {
      await new Promise((resolve) => setImmediate(resolve));
      now += ms + oversleep(ms);
    },
  };
};

/** Lets `count` concurrent callers through; the time each one was released. */
const releaseTimes = async (limiter: { acquire(): Promise<void> }, clock: () => number, count: number) =>
  Promise.all(Array.from({ length: count }, () => limiter.acquire().then(clock)));

const mostInAnySecond = (times: number[]) => Math.max(...times.map((start) => times.filter((t) => t >= start && t < start + 1000).length));

describe('TMDB rate limiter', () => {
  it('lets 200 concurrent callers out one by one, evenly spaced, at most the rate in any second', async () => {
    // Prepare
    const time = virtualTime();
    const limiter = createRateLimiter({ requestsPerSecond: 40, ...time });

    // Act
    const times = await releaseTimes(limiter, time.clock, 200);

    // Assess
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    assert.ok(Math.min(...gaps) >= 25, `smallest gap ${Math.min(...gaps)} ms`);
    assert.ok(mostInAnySecond(times) <= 40, `${mostInAnySecond(times)} in one second`);
    const rate = ((times.length - 1) / (times.at(-1)! - times[0]!)) * 1000;
    assert.ok(rate >= 0.9 * 40 && rate <= 40, `rate ${rate.toFixed(1)}/s`);
  });

  it('holds every waiting caller during a pause, then goes on at the same pace', async () => {
    const time = virtualTime();
    const limiter = createRateLimiter({ requestsPerSecond: 40, ...time });
    const first = await limiter.acquire().then(time.clock);
    limiter.pauseFor(2000);
    limiter.pauseFor(500); // a shorter pause never shortens the one in force

    const rest = await releaseTimes(limiter, time.clock, 5);

    assert.equal(first, 0);
    assert.ok(rest[0]! >= 2000, `released at ${rest[0]}`);
    assert.ok(rest[4]! - rest[0]! >= 4 * 25);
  });

  it('comes back from a stall with the same spacing, never a burst', async () => {
    // Every tenth sleep oversleeps by 400 ms, as a blocked event loop would.
    let sleeps = 0;
    const time = virtualTime(() => (++sleeps % 10 === 0 ? 400 : 0));
    const limiter = createRateLimiter({ requestsPerSecond: 40, ...time });

    const times = await releaseTimes(limiter, time.clock, 100);

    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    assert.ok(Math.min(...gaps) >= 25, `smallest gap ${Math.min(...gaps)} ms`);
    assert.ok(mostInAnySecond(times) <= 40);
  });

  it('keeps its schedule when timers fire a little late, so the rate does not drift down', async () => {
    const time = virtualTime(() => 3);
    const limiter = createRateLimiter({ requestsPerSecond: 40, ...time });

    const times = await releaseTimes(limiter, time.clock, 120);

    const rate = ((times.length - 1) / (times.at(-1)! - times[0]!)) * 1000;
    assert.ok(rate >= 0.9 * 40, `rate ${rate.toFixed(1)}/s`);
    assert.ok(mostInAnySecond(times) <= 40);
  });

  it('rejects every waiting caller at once when told to, and serves later callers again', async () => {
    const time = virtualTime();
    const limiter = createRateLimiter({ requestsPerSecond: 40, ...time });
    await limiter.acquire();
    const waiting = Array.from({ length: 3 }, () =>
      limiter.acquire().then(
        () => 'let through',
        (err: Error) => err.message,
      ),
    );

    limiter.failWaiting(new Error('key refused'));

    assert.deepEqual(await Promise.all(waiting), ['key refused', 'key refused', 'key refused']);
    assert.equal(limiter.waiting, 0);
    await limiter.acquire();
  });
});
