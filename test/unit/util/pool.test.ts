import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eachLimited, JobPool, Limiter } from '../../../lib/util/pool';

/** A promise with its resolve and reject at hand. */
const deferred = () => {
  let resolve!: () => void;
  let reject!: (err: unknown) => void;
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
};

/** Lets every promise callback queued so far run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('eachLimited', () => {
  it('never has more than the limit in flight', async () => {
    // Prepare
    let inFlight = 0;
    let most = 0;
    // Act
    await eachLimited(
      Array.from({ length: 50 }, (_, i) => i),
      4,
      async (i) => {
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, i % 3));
        inFlight--;
      },
    );
    // Assess
    assert.equal(most, 4);
  });

  it('starts the next item as soon as one finishes, not when the slowest of a batch does', async () => {
    // Prepare: item 0 is slow; the rest finish when told.
    const gates = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    const run = eachLimited([0, 1, 2, 3, 4, 5], 2, async (i) => {
      started.push(i);
      await gates[i]!.promise;
    });
    await settle();
    assert.deepEqual(started, [0, 1]);
    // Act: the fast ones finish one by one while 0 is still running.
    for (const i of [1, 2, 3, 4]) {
      gates[i]!.resolve();
      await settle();
    }
    // Assess: every item has started though the first is still in flight.
    assert.deepEqual(started, [0, 1, 2, 3, 4, 5]);
    gates[5]!.resolve();
    gates[0]!.resolve();
    await run;
  });

  it('hands each item its index, in order of start', async () => {
    const seen: string[] = [];
    await eachLimited(['a', 'b', 'c'], 1, async (item, index) => void seen.push(`${index}:${item}`));
    assert.deepEqual(seen, ['0:a', '1:b', '2:c']);
  });

  it('rejects with the first failure and starts nothing after it', async () => {
    // Prepare
    const started: number[] = [];
    // Act
    const run = eachLimited([0, 1, 2, 3, 4], 1, async (i) => {
      started.push(i);
      if (i === 1) throw new Error('item 1 failed');
    });
    // Assess
    await assert.rejects(run, /item 1 failed/);
    await settle();
    assert.deepEqual(started, [0, 1]);
  });

  it('resolves at once for no items', async () => {
    let called = false;
    await eachLimited([], 4, async () => void (called = true));
    assert.equal(called, false);
  });
});

describe('JobPool', () => {
  it('runs jobs that add more jobs, newest first, within the limit', async () => {
    // Prepare: a tree of jobs, each finishing on a later turn.
    const pool = new JobPool(2);
    const order: string[] = [];
    let inFlight = 0;
    let most = 0;
    const job = (name: string, children: string[]) => (done: () => void) => {
      order.push(name);
      most = Math.max(most, ++inFlight);
      setImmediate(() =>
        pool.attempt(() => {
          for (const child of children) pool.push(job(child, []));
          inFlight--;
          done();
        }),
      );
    };
    // Act
    pool.push(job('a', ['a1', 'a2']));
    pool.push(job('b', []));
    await pool.finished();
    // Assess: a and b run at once; a's children go ahead of nothing else waiting, the newest first.
    assert.deepEqual(order, ['a', 'b', 'a2', 'a1']);
    assert.equal(most, 2);
  });

  it('ends the run at the first throw: nothing more starts and finished rejects', async () => {
    const pool = new JobPool(1);
    const started: string[] = [];
    pool.push((done) => {
      started.push('first');
      setImmediate(() =>
        pool.attempt(() => {
          throw new Error('read failed');
        }),
      );
      void done;
    });
    pool.push(() => started.push('second'));
    await assert.rejects(pool.finished(), /read failed/);
    assert.deepEqual(started, ['first']);
  });

  it('ignores what a job does after the run ended', async () => {
    const pool = new JobPool(2);
    let later = false;
    pool.push((done) => setImmediate(() => pool.attempt(() => ((later = true), done()))));
    pool.fail(new Error('aborted'));
    await assert.rejects(pool.finished(), /aborted/);
    await settle();
    assert.equal(later, false);
  });

  it('starts jobs added together in the order given', async () => {
    const pool = new JobPool(1);
    const order: number[] = [];
    pool.pushAll([0, 1, 2].map((i) => (done: () => void) => (order.push(i), setImmediate(done))));
    await pool.finished();
    assert.deepEqual(order, [0, 1, 2]);
  });
});

describe('Limiter', () => {
  it('runs at most the limit at once, the others in the order they came', async () => {
    // Prepare
    const limiter = new Limiter(2);
    const gates = Array.from({ length: 5 }, deferred);
    const started: number[] = [];
    // Act
    const runs = gates.map((gate, i) => limiter.run(async () => (started.push(i), await gate.promise, i)));
    await settle();
    // Assess
    assert.deepEqual(started, [0, 1]);
    assert.deepEqual(limiter.load, { running: 2, waiting: 3 });
    gates[1]!.resolve();
    await settle();
    assert.deepEqual(started, [0, 1, 2]);
    for (const gate of gates) gate.resolve();
    assert.deepEqual(await Promise.all(runs), [0, 1, 2, 3, 4]);
    assert.deepEqual(limiter.load, { running: 0, waiting: 0 });
  });

  it('gives a freed place to the first in line, not to work that comes meanwhile', async () => {
    // Work may come at any turn of the event loop's queue after a place is freed: each of the
    // first few is tried.
    for (let turns = 0; turns < 8; turns++) {
      // Prepare: one place, taken; one waiting.
      const limiter = new Limiter(1);
      const first = deferred();
      let inFlight = 0;
      let most = 0;
      const counted = (wait: Promise<void>) => async () => {
        most = Math.max(most, ++inFlight);
        await wait;
        inFlight--;
      };
      const runs = [limiter.run(counted(first.promise)), limiter.run(counted(Promise.resolve()))];
      await settle();
      // Act: the place is freed, and more work comes `turns` turns later.
      first.resolve();
      let later = Promise.resolve();
      for (let i = 0; i < turns; i++) later = later.then(() => undefined);
      runs.push(later.then(() => limiter.run(counted(Promise.resolve()))));
      await Promise.all(runs);
      // Assess
      assert.equal(most, 1, `work that came ${turns} turns after a place was freed`);
    }
  });

  it('keeps running the others when one fails, and hands the failure to its caller', async () => {
    const limiter = new Limiter(1);
    const failing = limiter.run(async () => {
      throw new Error('ffmpeg failed');
    });
    const next = limiter.run(async () => 'made');
    await assert.rejects(failing, /ffmpeg failed/);
    assert.equal(await next, 'made');
    assert.deepEqual(limiter.load, { running: 0, waiting: 0 });
  });
});
