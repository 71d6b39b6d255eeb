import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rateLimitState, windowOf } from '../../../lib/http/rate-limit';

describe('rate limit windows', () => {
  it('aligns every client to the same fixed window', () => {
    assert.deepEqual(windowOf(1_000_500, 1_000), { start: 1_000_000, end: 1_001_000 });
    assert.deepEqual(windowOf(1_000_000, 1_000), { start: 1_000_000, end: 1_001_000 });
  });

  it('allows exactly `max` requests and limits the next one', () => {
    const settings = { max: 5, windowMs: 60_000 };
    assert.deepEqual(rateLimitState(5, 30_000, settings), { count: 5, remaining: 0, resetSeconds: 30, limited: false });
    assert.deepEqual(rateLimitState(6, 30_000, settings), { count: 6, remaining: 0, resetSeconds: 30, limited: true });
  });

  it('never tells a client to retry in less than a second', () => {
    assert.equal(rateLimitState(9, 59_999, { max: 5, windowMs: 60_000 }).resetSeconds, 1);
  });
});
