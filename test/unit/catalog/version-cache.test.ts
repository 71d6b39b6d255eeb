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

  it('answers a quiet move (a running scan\'s) from the last value while one computation runs behind, and waits for any other move', async () => {
    let state = { version: 1, quiet: false };
    const stamp = { version: async () => state.version, versionState: async () => state };
    const gates: Array<() => void> = [];
    let computed = 0;
    const value = versionCached(async (_: undefined) => {
      const n = ++computed;
      if (n > 1) await new Promise<void>((r) => gates.push(r));
      return `built ${n}`;
    });
    assert.equal(await value(stamp, undefined), 'built 1');
    state = { version: 2, quiet: true };
    assert.equal(await value(stamp, undefined), 'built 1', 'not waited for');
    const notWaited = (what: string) => Promise.race([value(stamp, undefined), new Promise((r) => setTimeout(() => r(`${what}: waited`), 100))]);
    assert.equal(await notWaited('a second reader of the same stamp'), 'built 1', 'nor by the readers after the first');
    state = { version: 3, quiet: true };
    assert.equal(await value(stamp, undefined), 'built 1');
    assert.equal(computed, 2, 'one computation at a time');
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(await value(stamp, undefined), 'built 2', 'the newer value once made, the next one started behind it');
    assert.equal(computed, 3);
    state = { version: 4, quiet: false };
    const waited = value(stamp, undefined);
    await new Promise((r) => setTimeout(r, 0));
    for (const open of gates.splice(0)) open();
    assert.equal(await waited, 'built 4', 'a move that is not quiet is waited for');
  });
});
