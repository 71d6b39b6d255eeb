// Faults during a scan, on an instance of its own whose worker hands over to a fresh
// invocation after every step (a 1 ms slice): the worker killed mid-scan (the runner restarts
// the handlers and the job resumes itself), every process killed with -9 and the service
// started again, auto-resume off (interrupted, then resumed by hand), and cleanup of a job
// whose worker went silent. Each time the job completes and the catalogue holds exactly the
// distinct items on disk.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LOCAL_CREDENTIALS } from '../../lib/config';
import { createDb } from '../../lib/db/client';
import { MAX_AUTO_RESUMES } from '../../lib/scan/job';
import { newJob, start } from '../../lib/scan/transitions';
import { DynamoScanJobStore } from '../../lib/scan/job-store';
import { killGroup } from '../../infra/runner/managed-process';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { allPages, DONE, getJob, makeTree, waitForJob } from '../support/media';
import { call, jsonBody } from '../support/stack';

const FILES = 1_500;
// A low entries limit, for the tree too big to walk (the trees here have 3,000 entries each).
const ENV = { SCAN_SLICE_MS: '1', LOG_LEVEL: 'info', SCAN_MAX_ENTRIES: '20000' };

const movieTree = (name: string) =>
  makeTree(
    tempDir(name),
    Array.from({ length: FILES }, (_, i) => `${name} Film ${i} (${1950 + (i % 70)})/${name} Film ${i} (${1950 + (i % 70)}).mkv`),
    1,
  );

describe('a scan survives its worker or the whole service dying', () => {
  const dataDir = tempDir('faults');
  let instance: Instance;
  before(async () => {
    instance = await startInstance({ dataDir, env: ENV });
  });
  after(async () => {
    await instance.stop();
  });

  const startScan = async (path: string) => {
    const res = await call('POST', '/api/v1/scan/path', { ...jsonBody({ path, mediaType: 'movie' }), base: instance.url });
    assert.equal(res.status, 202, res.text);
    return res.json.data.jobId as string;
  };
  /** Waits until the job has written part of its items, well before the end. */
  const midScan = async (jobId: string) => {
    // waitFor swallows a probe's errors, so a scan that finished too early is returned, then refused.
    const job = await waitFor(
      'the scan to be part-way',
      async () => {
        const j = await getJob(jobId, instance.url);
        return j.status === 'completed' || (j.status === 'running' && j.counts.added >= 200) ? j : undefined;
      },
      60_000,
      25,
    );
    assert.notEqual(job.status, 'completed', 'the scan finished before it could be interrupted');
    return job;
  };

  const assertExactly = async (jobId: string, name: string) => {
    const job = await waitForJob(jobId, instance.url, 180_000, DONE);
    assert.equal(job.status, 'completed', JSON.stringify(job));
    assert.equal(job.counts.added, FILES, 'every item counted once, including those written before the fault');
    assert.equal(
      job.counts.probed + job.counts.probeFailed,
      FILES,
      `every file's header read and counted once: ${JSON.stringify(job.counts)}`,
    );
    const movies = (await allPages('/api/v1/movies', instance.url)).filter((m) => m.title.startsWith(`${name} Film `));
    assert.equal(movies.length, FILES);
    assert.equal(new Set(movies.map((m) => m.id)).size, FILES, 'no duplicate ids');
    assert.equal(new Set(movies.map((m) => m.title)).size, FILES, 'no duplicate titles');
    const library = (await call('GET', `/api/v1/library/${job.libraryId}`, { base: instance.url })).json.data;
    assert.equal(library.stats.movies, FILES);
    return job;
  };

  it('the worker killed mid-scan: the handlers restart and the job resumes and completes by itself', async () => {
    const jobId = await startScan(movieTree('Alpha'));
    await midScan(jobId);
    process.kill(instance.state().processes.offline!, 'SIGKILL');
    await assertExactly(jobId, 'Alpha');
    const log = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
    assert.ok(log.includes('scan slice ended; continuing in a new invocation'), 'the worker handed over between slices');
    assert.ok(log.includes('scan jobs recovered after a restart'));
  });

  it('every process killed with -9, then a plain start: the job completes', async () => {
    const jobId = await startScan(movieTree('Bravo'));
    await midScan(jobId);
    const { pid, processes } = instance.state();
    for (const p of [pid, processes.offline!, processes.dynamodb!]) killGroup(p, 'SIGKILL');
    await instance.stop();
    instance = await startInstance({ dataDir, env: ENV });
    await assertExactly(jobId, 'Bravo');
  });

  it('DynamoDB Local killed mid-scan: the runner restarts it and the job completes with no call to the API', async () => {
    const jobId = await startScan(movieTree('Kilo'));
    await midScan(jobId);
    const dynamodb = instance.state().processes.dynamodb!;
    process.kill(dynamodb, 'SIGKILL');
    await waitFor(
      'DynamoDB Local to be restarted',
      async () => (instance.state().processes.dynamodb !== dynamodb ? true : undefined),
      60_000,
      100,
    );
    await assertExactly(jobId, 'Kilo');
    // The runner writes what the handlers log a moment after they log it. A worker whose time
    // slice ran out while it waited (a slow restart of the database on a busy machine) hands the
    // wait to a fresh invocation instead, which goes on from the checkpoint just the same.
    const waited = [
      'the database is back; the scan goes on from its checkpoint',
      'still waiting for the database; continuing in a new invocation',
    ];
    await waitFor(
      'the worker to log that it waited for the database',
      async () => {
        const log = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
        return waited.some((line) => log.includes(line)) || undefined;
      },
      10_000,
      200,
    );
  });

  it('a job that keeps stopping the service is not resumed forever: after 3 automatic resumes that got no further it stays failed', async () => {
    const dir = makeTree(tempDir('stuck'), ['Lima (2005).mkv']);
    const library = (
      await call('POST', '/api/v1/library', { ...jsonBody({ name: 'Stuck', path: dir, mediaType: 'movie' }), base: instance.url })
    ).json.data;
    const store = new DynamoScanJobStore(() =>
      createDb({
        tableName: 'media',
        endpoint: instance.state().dynamodbEndpoint,
        region: 'us-east-1',
        localCredentials: LOCAL_CREDENTIALS,
      }),
    );
    const queued = await store.create(
      newJob({ jobId: 'stuckjob' + Date.now(), libraryId: library.id, path: library.path, mediaType: 'movie' }, Date.now()),
    );
    // As a restart leaves a job after its third automatic resume: running, no further than where that resume began.
    await store.save(queued, start({ ...queued.value, autoResumes: { count: MAX_AUTO_RESUMES, progress: 0 } }, Date.now()));
    process.kill(instance.state().processes.offline!, 'SIGKILL');
    // Recovery saves the job interrupted, then decides on its resume: a poll may see the first.
    const failed = await waitFor(
      'the job to be given up',
      async () => {
        const job = await getJob(queued.value.jobId, instance.url);
        return job.status !== 'running' && job.status !== 'interrupted' ? job : undefined;
      },
      90_000,
      200,
    );
    assert.equal(failed.status, 'failed');
    assert.equal(failed.error.code, 'resume-limit');
    assert.match(failed.error.message, /4 times in a row/);
  });

  it('with auto-resume off the job is left interrupted, and resuming it by hand completes it', async () => {
    const off = await call('PATCH', '/api/v1/settings', { ...jsonBody({ features: { autoResumeScans: false } }), base: instance.url });
    assert.equal(off.status, 200);
    const jobId = await startScan(movieTree('Charlie'));
    await midScan(jobId);
    process.kill(instance.state().processes.offline!, 'SIGKILL');
    const interrupted = await waitFor(
      'the job to be marked interrupted',
      async () => {
        const job = await getJob(jobId, instance.url);
        return job.status === 'interrupted' ? job : undefined;
      },
      60_000,
      100,
    );
    assert.ok(interrupted.progress > 10 && interrupted.progress < 60, `progress kept: ${interrupted.progress}`);
    const resumed = await call('POST', `/api/v1/scan/jobs/${jobId}/resume`, { base: instance.url });
    assert.equal(resumed.status, 202, resumed.text);
    assert.equal(resumed.json.data.status, 'running');
    assert.ok(resumed.json.data.progress >= interrupted.progress, 'resume continues from the checkpoint');
    await assertExactly(jobId, 'Charlie');
  });

  it('a tree with more entries than SCAN_MAX_ENTRIES ends the job failed with the reason, whatever the entries are', async () => {
    const dir = tempDir('crowded');
    mkdirSync(join(dir, 'Crowded'));
    for (let i = 0; i < 20_050; i++) writeFileSync(join(dir, 'Crowded', `note-${i}.txt`), '');
    const started = await startScan(dir);
    const job = await waitForJob(started, instance.url, 120_000, DONE);
    assert.equal(job.status, 'failed');
    assert.equal(job.error.code, 'scan-too-large');
    assert.match(job.error.message, /more than 20000 entries .*SCAN_MAX_ENTRIES/);
    assert.equal((await call('GET', '/api/v1/health', { base: instance.url })).status, 200);
  });

  it('cleanup marks a running job with a stale heartbeat interrupted, and it resumes', async () => {
    const dir = makeTree(tempDir('stale'), ['Delta (2001)/Delta (2001).mkv', 'Echo (2002).mkv', 'Foxtrot (2003).mkv']);
    const library = (
      await call('POST', '/api/v1/library', { ...jsonBody({ name: 'Stale', path: dir, mediaType: 'movie' }), base: instance.url })
    ).json.data;
    // A job whose worker died without anyone noticing: running, last heard from ten minutes ago.
    const store = new DynamoScanJobStore(() =>
      createDb({
        tableName: 'media',
        endpoint: instance.state().dynamodbEndpoint,
        region: 'us-east-1',
        localCredentials: LOCAL_CREDENTIALS,
      }),
    );
    const tenMinutesAgo = Date.now() - 600_000;
    const queued = await store.create(
      newJob({ jobId: 'stalejob' + Date.now(), libraryId: library.id, path: library.path, mediaType: 'movie' }, tenMinutesAgo),
    );
    await store.save(queued, start(queued.value, tenMinutesAgo));

    const fresh = await call('POST', '/api/v1/scan/cleanup', { ...jsonBody({ staleAfterSeconds: 3600 }), base: instance.url });
    assert.deepEqual(fresh.json.data, { interrupted: 0, removed: 0 }, 'not stale yet by that threshold');
    const cleaned = await call('POST', '/api/v1/scan/cleanup', { ...jsonBody({ staleAfterSeconds: 60 }), base: instance.url });
    assert.equal(cleaned.status, 200);
    assert.equal(cleaned.json.data.interrupted, 1);
    // 0 is what a client sends after a crash: whatever is marked running now is stale.
    const other = makeTree(tempDir('stale-now'), ['Golf (2004).mkv']);
    const otherLibrary = (
      await call('POST', '/api/v1/library', { ...jsonBody({ name: 'Now', path: other, mediaType: 'movie' }), base: instance.url })
    ).json.data;
    const justNow = await store.create(
      newJob({ jobId: 'nowjob' + Date.now(), libraryId: otherLibrary.id, path: otherLibrary.path, mediaType: 'movie' }, Date.now()),
    );
    await store.save(justNow, start(justNow.value, Date.now()));
    const zero = await call('POST', '/api/v1/scan/cleanup', { ...jsonBody({ staleAfterSeconds: 0 }), base: instance.url });
    assert.equal(zero.status, 200, zero.text);
    assert.equal(zero.json.data.interrupted, 1, 'a job that beat just now is stale by 0 too');
    assert.equal((await getJob(justNow.value.jobId, instance.url)).status, 'interrupted');
    assert.equal((await getJob(queued.value.jobId, instance.url)).status, 'interrupted');

    assert.equal((await call('POST', `/api/v1/scan/jobs/${queued.value.jobId}/resume`, { base: instance.url })).status, 202);
    const done = await waitForJob(queued.value.jobId, instance.url);
    assert.equal(done.status, 'completed');
    assert.equal(done.counts.added, 3);
  });
});
