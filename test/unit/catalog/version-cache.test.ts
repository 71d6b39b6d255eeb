import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { versionCached } from '../../../lib/catalog/version-cache';

describe('version-cached values', () => {
  it('computes again only when the version moves, and shares one computation', async () => {
    let version = 1;
    let computed = 0;
    const stamp = { version: async () => version };
    const value = versionCached(async (n: number) => (computed++, n * 2));
    assert.deepEqual(await Promise.all([value(stamp, 21), value(stamp, 21)]), [42, 42]);
    assert.equal(computed, 1);
    version = 2;
    await value(stamp, 21);
    assert.equal(computed, 2);
  });

  it('forgets a failed computation', async () => {
    let fail = true;
    const value = versionCached(async () => {
      if (fail) throw new Error('database down');
      return 'ok';
    });
    const stamp = { version: async () => 1 };
    await assert.rejects(value(stamp, undefined));
    fail = false;
    assert.equal(await value(stamp, undefined), 'ok');
  });

  it('with recheckAfterMs, skips the version check for that long', async () => {
    let now = 0;
    let checks = 0;
    const stamp = { version: async () => (checks++, 1) };
    const value = versionCached(async () => 'v', { recheckAfterMs: 1_000, clock: () => now });
    await value(stamp, undefined);
    now = 999;
    await value(stamp, undefined);
    assert.equal(checks, 1);
    now = 1_000;
    await value(stamp, undefined);
    assert.equal(checks, 2);
  });
});
