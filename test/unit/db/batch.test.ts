// The batches' shapes and the retry of what DynamoDB leaves unprocessed, shared by batch
// writes and gets; the calls themselves run against DynamoDB Local in the stack tests
// (store-contracts, collections, matching, watching).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getBatches, untilProcessed } from '../../../lib/db/batch';
import { isConditionFailed } from '../../../lib/db/client';

/** Records the pauses instead of sleeping them. */
const pauses = () => {
  const waited: number[] = [];
  return { waited, wait: async (ms: number) => void waited.push(ms) };
};

describe('untilProcessed', () => {
  it('sends again only what is left, with a doubling pause, until nothing is', async () => {
    // Prepare: each call takes the first request and leaves the rest.
    const calls: string[][] = [];
    const { waited, wait } = pauses();
    // Act
    await untilProcessed('writes', ['a', 'b', 'c'], async (pending) => (calls.push(pending), pending.slice(1)), wait);
    // Assess
    assert.deepEqual(calls, [['a', 'b', 'c'], ['b', 'c'], ['c']]);
    assert.deepEqual(waited, [50, 100]);
  });

  it('gives up after 8 calls with something still left: the database is unavailable, and the cause says how much', async () => {
    // Prepare: DynamoDB never takes anything.
    let calls = 0;
    const { waited, wait } = pauses();
    // Act
    const run = untilProcessed('keys', [1, 2], async (pending) => (calls++, pending), wait);
    // Assess
    await assert.rejects(run, (err: Error & { code?: string; status?: number }) => {
      assert.equal(err.code, 'dependency-unavailable');
      assert.equal(err.status, 503);
      assert.equal((err.cause as Error).message, '2 keys still unprocessed after 8 attempts');
      return true;
    });
    assert.equal(calls, 8);
    assert.deepEqual(waited, [50, 100, 200, 400, 800, 1000, 1000]);
  });

  it('makes no call for nothing', async () => {
    let calls = 0;
    await untilProcessed('writes', [], async () => (calls++, []));
    assert.equal(calls, 0);
  });

  it('passes on what a call throws (the database unavailable, say) without retrying it', async () => {
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('unreachable');
    };
    await assert.rejects(untilProcessed('writes', ['a'], failing), /unreachable/);
    assert.equal(calls, 1);
  });
});

describe('getBatches', () => {
  const key = (i: number) => ({ pk: `media#${i}`, sk: 'item' });

  it('asks for 100 keys a call at most, in the order given', () => {
    // Act
    const batches = getBatches(Array.from({ length: 250 }, (_, i) => key(i)));
    // Assess
    assert.deepEqual(
      batches.map((b) => b.length),
      [100, 100, 50],
    );
    assert.deepEqual(batches[1]![0], key(100));
    assert.deepEqual(batches[2]!.at(-1), key(249));
  });

  it('asks for a key once however often it is named (DynamoDB refuses a call that names one twice)', () => {
    const batches = getBatches([key(1), key(2), key(1), { pk: 'media#2', sk: 'item' }, { pk: 'media#1', sk: 'other' }]);
    assert.deepEqual(batches, [[key(1), key(2), { pk: 'media#1', sk: 'other' }]]);
  });

  it("sends only the table's key, whatever else the key builder adds", () => {
    const batches = getBatches([{ ...key(1), entity: 'movie' } as ReturnType<typeof key>]);
    assert.deepEqual(batches, [[key(1)]]);
  });

  it('makes no call for no keys', () => {
    assert.deepEqual(getBatches([]), []);
  });
});

describe('isConditionFailed', () => {
  it('tells a condition that did not hold from any other failure', () => {
    const failed = Object.assign(new Error('The conditional request failed'), { name: 'ConditionalCheckFailedException' });
    assert.equal(isConditionFailed(failed), true);
    assert.equal(isConditionFailed(Object.assign(new Error('cancelled'), { name: 'TransactionCanceledException' })), false);
    assert.equal(isConditionFailed(undefined), false);
    assert.equal(isConditionFailed('ConditionalCheckFailedException'), false);
  });
});
