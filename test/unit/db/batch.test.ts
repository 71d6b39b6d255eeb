// The retry of what DynamoDB leaves unprocessed, shared by batch writes and the catalogue's batch gets.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { untilProcessed } from '../../../lib/db/batch';

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
