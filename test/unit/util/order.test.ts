import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ascending } from '../../../lib/util/order';

describe('ascending', () => {
  it('orders strings by code unit, not by locale: upper case before lower, accented letters after z', () => {
    assert.deepEqual(['b', 'é', 'a', 'B', 'z'].sort(ascending), ['B', 'a', 'b', 'z', 'é']);
  });

  it('puts a prefix before what extends it, and a folder\'s "/" before letters', () => {
    assert.deepEqual(['ab', 'a', 'a/b', 'a b', 'aB'].sort(ascending), ['a', 'a b', 'a/b', 'aB', 'ab']);
  });

  it('answers 0 for equal values only', () => {
    assert.equal(ascending('x', 'x'), 0);
    assert.equal(ascending(2, 2), 0);
    assert.ok(ascending('x', 'y') < 0 && ascending('y', 'x') > 0);
  });

  it('orders numbers by value, -Infinity first', () => {
    assert.deepEqual([10, -Infinity, 2, 1.5].sort(ascending), [-Infinity, 1.5, 2, 10]);
  });

  it('sorts any strings as Array#sort without a comparer does, astral characters included', () =>
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' })), (values) => {
        assert.deepEqual([...values].sort(ascending), [...values].sort());
      }),
    ));
});
