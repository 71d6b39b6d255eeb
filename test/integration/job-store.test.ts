// The scan job store against the test run's real DynamoDB Local, on a table of this file's
// own (test/support/own-table.ts), so the lists it gives are compared whole.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { AppError } from '../../lib/errors';
import { advance, complete, interrupt, newJob, start } from '../../lib/scan/transitions';
import { DynamoScanJobStore } from '../../lib/scan/job-store';
import { ownTable } from '../support/own-table';

const store = new DynamoScanJobStore(ownTable('job-store').db);
const T0 = Date.parse('2026-11-22T12:00:00Z');
const aPath = () => `/media/${randomUUID()}`;
const job = (path: string, now = T0) =>
  newJob({ jobId: randomUUID().replaceAll('-', ''), libraryId: path.replace(/[^A-Za-z0-9]/g, '_'), path, mediaType: 'movie' }, now);
const is409 = (code: string) => (err: unknown) => err instanceof AppError && err.status === 409 && err.code === code;

describe('scan job store', () => {
  it('stores a job and reads it back whole', async () => {
    const created = await store.create(job(aPath()));
    assert.deepEqual(await store.get(created.value.jobId), created);
    assert.equal(await store.get('nope'), undefined);
  });

  it('refuses a second active job for the same library, and only one of many racing creates wins', async () => {
    const path = aPath();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.create(job(path))));
    assert.equal(results.filter((r) => r.status === 'fulfilled').length, 1);
    for (const r of results) if (r.status === 'rejected') assert.ok(is409('scan-already-running')(r.reason), String(r.reason));
    await store.create(job(aPath())); // another path is fine
  });

  it('frees the library when the job finishes, and takes it back when the job resumes', async () => {
    const path = aPath();
    let first = await store.create(job(path));
    first = await store.save(first, start(first.value, T0 + 1));
    first = await store.save(first, interrupt(first.value, T0 + 2));

    const second = await store.create(job(path, T0 + 3)); // the path is free again
    await assert.rejects(store.save(first, start(first.value, T0 + 4)), is409('scan-already-running'));

    const running = await store.save(second, start(second.value, T0 + 5));
    await store.save(running, complete(running.value, T0 + 6));
    const resumed = await store.save(first, start(first.value, T0 + 7));
    assert.equal(resumed.value.status, 'running');
  });

  it('refuses a write based on a stale read, so the worker and cleanup never overwrite each other', async () => {
    let created = await store.create(job(aPath()));
    created = await store.save(created, start(created.value, T0 + 1));
    const workerView = created;
    const cleanupView = (await store.get(created.value.jobId))!;
    await store.save(workerView, advance(workerView.value, { phase: 'analyzing', processed: 1, total: 2 }, T0 + 2));
    await assert.rejects(store.save(cleanupView, interrupt(cleanupView.value, T0 + 3)), is409('job-state-conflict'));
    assert.equal((await store.get(created.value.jobId))!.value.phase, 'analyzing');
  });
});

describe('scan job store: listing', () => {
  // A table of its own again: the jobs the tests above left are not in these lists.
  const store = new DynamoScanJobStore(ownTable('job-list').db);

  it('lists jobs newest first, optionally by status and since a time, and removes finished ones', async () => {
    assert.deepEqual(await store.list({ limit: 100 }), [], 'no job yet');
    const made = [];
    // Created oldest first, so the order cannot come from the ids.
    for (let i = 0; i < 3; i++) made.push(await store.create(job(aPath(), T0 + i)));
    const done = await store.save(made[0]!, complete(start(made[0]!.value, T0 + 5), T0 + 6));
    const [newer, middle] = [made[2]!.value, made[1]!.value];
    assert.deepEqual(await store.list({ limit: 100 }), [newer, middle, done.value], 'each job whole, as last saved, newest first');
    assert.deepEqual(await store.list({ limit: 2 }), [newer, middle]);
    assert.deepEqual(await store.list({ status: 'completed', limit: 100 }), [done.value]);
    assert.deepEqual(await store.list({ status: 'queued', limit: 100 }), [newer, middle]);
    assert.deepEqual(await store.list({ status: 'queued', limit: 1 }), [newer]);
    assert.deepEqual(await store.list({ status: 'running', limit: 100 }), []);
    // Since a time: the jobs created at it or after (the upkeep function's scans since some changes).
    const iso = (t: number) => new Date(t).toISOString();
    assert.deepEqual(await store.list({ since: iso(T0 + 1), limit: 100 }), [newer, middle], 'created at the time, and after');
    assert.deepEqual(await store.list({ since: iso(T0 + 3), limit: 100 }), []);
    assert.deepEqual(await store.list({ since: iso(T0), status: 'completed', limit: 100 }), [done.value]);
    assert.deepEqual(await store.list({ since: iso(T0 + 1), status: 'completed', limit: 100 }), []);
    await store.remove(done);
    assert.equal(await store.get(done.value.jobId), undefined);
    assert.deepEqual(await store.list({ limit: 100 }), [newer, middle]);
    assert.deepEqual(await store.list({ status: 'completed', limit: 100 }), []);
  });
});
