import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BoundedMap } from '../../../lib/util/bounded-map';

/** A clock the test moves by hand. */
const manualClock = () => {
  let now = 1_000;
  return { clock: () => now, pass: (ms: number) => void (now += ms) };
};

describe('BoundedMap', () => {
  it('keeps at most maxSize entries, the least recently set going first', () => {
    // Prepare
    const map = new BoundedMap<string, number>({ maxSize: 3 });
    // Act
    for (const [i, key] of ['a', 'b', 'c', 'd', 'e'].entries()) map.set(key, i);
    // Assess
    assert.deepEqual([...map.keys()], ['c', 'd', 'e']);
    assert.equal(map.size, 3);
  });

  it('moves an entry last when it is used or set again, not when it is only read', () => {
    // Prepare
    const map = new BoundedMap<string, number>({ maxSize: 3 }, [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ]);
    // Act: a read with get leaves a first; use moves b last; setting c again moves it last.
    assert.equal(map.get('a'), 1);
    assert.equal(map.use('b'), 2);
    map.set('c', 30);
    map.set('d', 4);
    // Assess: a was the least recently set or used.
    assert.deepEqual(
      [...map.entries()],
      [
        ['b', 2],
        ['c', 30],
        ['d', 4],
      ],
    );
  });

  it('bounds the total weight when entries weigh, and keeps nothing heavier than the whole', () => {
    // Prepare
    const map = new BoundedMap<string, string>({ maxSize: 10, weigh: (s) => s.length });
    // Act
    map.set('a', 'xxxx').set('b', 'xxxx').set('c', 'xxx');
    const afterThree = [...map.keys()];
    map.set('huge', 'x'.repeat(11));
    // Assess: the third pushed the first out (4 + 3 <= 10); the huge one was refused and took nothing.
    assert.deepEqual(afterThree, ['b', 'c']);
    assert.deepEqual([...map.keys()], ['b', 'c']);
    assert.equal(map.weight, 7);
    assert.equal(map.has('huge'), false);
  });

  it('forgets an entry once it is maxAgeMs old, counted from when it was set', () => {
    // Prepare
    const { clock, pass } = manualClock();
    const map = new BoundedMap<string, number>({ maxSize: 10, maxAgeMs: 1_000, clock });
    map.set('old', 1);
    pass(600);
    map.set('young', 2);
    // Act: using an entry does not make it younger.
    assert.equal(map.use('old'), 1);
    pass(400);
    // Assess
    assert.equal(map.get('old'), undefined);
    assert.equal(map.get('young'), 2);
    assert.deepEqual([...map.keys()], ['young']);
    assert.equal(map.size, 1);
  });

  it('never evicts a pinned entry, by size or by age, and stays over its size meanwhile', () => {
    // Prepare: entries whose value is true are pinned (a write in flight).
    const { clock, pass } = manualClock();
    const map = new BoundedMap<string, boolean>({ maxSize: 2, maxAgeMs: 1_000, clock, pinned: (busy) => busy });
    map.set('busy1', true).set('busy2', true);
    // Act
    map.set('idle', false);
    // Assess: the only entry it could evict is the one just set, which is never evicted.
    assert.deepEqual([...map.keys()], ['busy1', 'busy2', 'idle']);
    map.set('idle2', false);
    assert.deepEqual([...map.keys()], ['busy1', 'busy2', 'idle2']);
    pass(5_000);
    assert.deepEqual([...map.keys()], ['busy1', 'busy2']);
    // Once unpinned, an entry goes like any other.
    map.set('busy1', false);
    map.set('next', false);
    assert.deepEqual([...map.keys()], ['busy2', 'next']);
  });

  it('deletes and clears, its weight following', () => {
    const map = new BoundedMap<string, number>({ maxSize: 5 }, [
      ['a', 1],
      ['b', 2],
    ]);
    assert.equal(map.delete('a'), true);
    assert.equal(map.delete('a'), false);
    assert.equal(map.weight, 1);
    map.clear();
    assert.equal(map.size, 0);
    assert.equal(map.weight, 0);
  });

  it('lets entries be deleted while it is iterated', () => {
    const map = new BoundedMap<string, number>({ maxSize: 10 }, [
      ['p|1', 1],
      ['q|1', 2],
      ['p|2', 3],
    ]);
    for (const key of map.keys()) if (key.startsWith('p|')) map.delete(key);
    assert.deepEqual([...map], [['q|1', 2]]);
  });

  it('holds the most recently set maxSize keys, whatever the sequence of sets', () =>
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 })), fc.integer({ min: 1, max: 8 }), (keys, maxSize) => {
        const map = new BoundedMap<number, number>({ maxSize });
        for (const key of keys) map.set(key, key);
        const expected: number[] = [];
        for (const key of [...keys].reverse()) if (!expected.includes(key) && expected.length < maxSize) expected.unshift(key);
        assert.deepEqual([...map.keys()], expected);
      }),
    ));
});
