import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextTurn, Pacer } from '../../../lib/util/pace';
import { sortPaced } from '../../../lib/util/sort-paced';
import { ascending } from '../../../lib/util/order';

describe('nextTurn', () => {
  it('lets a callback already waiting on the event loop run first', async () => {
    let ran = false;
    setImmediate(() => (ran = true));
    await nextTurn();
    assert.equal(ran, true);
  });
});

describe('Pacer', () => {
  it('says the share is spent after `every` steps, counted across callers', () => {
    const pacer = new Pacer(5);
    assert.equal(pacer.spent(2), false);
    assert.equal(pacer.spent(2), false);
    assert.equal(pacer.spent(), true);
  });

  it('resumes everyone waiting on one later turn, after work already waiting there, in the order they stopped', async () => {
    // Prepare
    const pacer = new Pacer(2);
    const order: string[] = [];
    setImmediate(() => order.push('waiting already'));
    pacer.spent(2);
    // Act
    pacer.resume(() => order.push('first'));
    assert.equal(pacer.spent(), true, 'still spent while others wait');
    pacer.resume(() => order.push('second'));
    assert.deepEqual(order, []);
    await pacer.nextTurn();
    // Assess: all in one turn, with a fresh share after it.
    assert.deepEqual(order, ['waiting already', 'first', 'second']);
    assert.equal(pacer.spent(), false);
  });
});

describe('sortPaced', () => {
  it('sorts as Array#sort does, stably, across many runs', async () => {
    // Prepare: 10,000 items in runs of 100, with ties.
    const items = Array.from({ length: 10_000 }, (_, i) => ({ key: `k${(i * 7919) % 997}`, i }));
    // Act
    const sorted = await sortPaced(items, (a, b) => ascending(a.key, b.key), new Pacer(100));
    // Assess
    assert.deepEqual(
      sorted,
      [...items].sort((a, b) => ascending(a.key, b.key)),
    );
  });

  it('hands the event loop back while it sorts', async () => {
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    setImmediate(() => turns++);
    await sortPaced(
      Array.from({ length: 20_000 }, (_, i) => String(20_000 - i)),
      ascending,
      new Pacer(500),
    );
    clearInterval(ticking);
    assert.ok(turns > 0);
  });

  it('gives [] for no items', async () => assert.deepEqual(await sortPaced([], ascending, new Pacer(10)), []));
});
