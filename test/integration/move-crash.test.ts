// A move that the service does not survive: two steps' worth of films (4,000) scanned, every
// folder then moved into Archive/, and every process of the service killed with -9 while that
// scan is writing its moves (a 1 ms slice makes each step of writes its own invocation, so the
// kill lands between steps). Started again on the same DATA_DIR, the job resumes and
// completes; the catalogue then holds exactly the same movies, each with its id and addedAt,
// at its new path, and the job counts every film's move (the resumed run carries what the
// first wrote). A rescan then changes nothing.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { killGroup } from '../../infra/runner/managed-process';
import { WRITE_CHUNK } from '../../lib/scan/phases/write';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { allPages, DONE, getJob, makeTree, waitForJob } from '../support/media';
import { call, jsonBody } from '../support/stack';

const FILMS = 2 * WRITE_CHUNK;
const ENV = { SCAN_SLICE_MS: '1', LOG_LEVEL: 'info' };

const film = (i: number) => `Film ${String(i).padStart(4, '0')} (2000)`;

describe('a move of a whole library survives the service being killed mid-scan', () => {
  const dataDir = tempDir('move-crash');
  const root = tempDir('move-crash-media');
  let instance: Instance;
  before(async () => {
    // Sparse files of distinct sizes: each film has a fingerprint (sizes and mtimes) of its own.
    for (let i = 0; i < FILMS; i++) makeTree(root, [`${film(i)}/${film(i)}.mkv`], 1024 * 1024 + i * 4096);
    instance = await startInstance({ dataDir, env: ENV });
  });
  after(async () => {
    await instance?.stop();
  });

  const startScan = async () => {
    const res = await call('POST', '/api/v1/scan/path', { ...jsonBody({ path: root, mediaType: 'movie' }), base: instance.url });
    assert.equal(res.status, 202, res.text);
    return res.json.data.jobId as string;
  };

  /** id -> addedAt of every movie, through every page of the list (no id twice). */
  const catalogue = async () => {
    const movies = await allPages('/api/v1/movies', instance.url);
    const byId = new Map<string, string>(movies.map((m) => [m.id as string, m.addedAt as string]));
    assert.equal(byId.size, movies.length, 'no movie listed twice');
    return byId;
  };

  /** Each movie's file path, one GET per id, a few at a time. */
  const pathsOf = async (ids: string[]) => {
    const paths = new Map<string, string>();
    const queue = [...ids];
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
          const res = await call('GET', `/api/v1/movies/${id}`, { base: instance.url });
          assert.equal(res.status, 200, `GET /movies/${id}: ${res.text}`);
          paths.set(id, res.json.data.file.path);
        }
      }),
    );
    return paths;
  };

  const libraryMovies = async (libraryId: string) =>
    (await call('GET', `/api/v1/library/${libraryId}`, { base: instance.url })).json.data.stats.movies;

  it('keeps every id and addedAt, lands every film under Archive/ and counts every move', async (t) => {
    const first = await waitForJob(await startScan(), instance.url, 600_000, DONE);
    assert.equal(first.status, 'completed', JSON.stringify(first));
    assert.equal(first.counts.added, FILMS);
    const original = await catalogue();
    assert.equal(original.size, FILMS);
    const originalPaths = await pathsOf([...original.keys()]);
    assert.ok([...originalPaths.values()].every((p) => !p.startsWith('Archive/')));

    // Move every film folder into Archive/ (a rename keeps the files' mtimes).
    mkdirSync(join(root, 'Archive'));
    for (const dir of readdirSync(root)) if (dir !== 'Archive') renameSync(join(root, dir), join(root, 'Archive', dir));

    const jobId = await startScan();
    // waitFor swallows a probe's errors, so a scan that got too far is returned, then refused.
    const caught = await waitFor(
      'the move scan to have written some of its moves',
      async () => {
        const j = await getJob(jobId, instance.url);
        if (j.status !== 'running' && j.status !== 'queued') return j;
        if (j.phase !== 'analyzing' && j.phase !== 'discovering' && j.phase !== null) return j;
        return j.counts.moved > 0 ? j : undefined;
      },
      300_000,
      25,
    );
    assert.equal(caught.status, 'running', `the scan ended before it could be killed: ${JSON.stringify(caught)}`);
    assert.equal(caught.phase, 'analyzing', `the scan was past writing before it could be killed: ${JSON.stringify(caught)}`);
    assert.ok(caught.counts.moved < FILMS, `the scan had written every move before it could be killed: ${JSON.stringify(caught.counts)}`);

    const { pid, processes } = instance.state();
    for (const p of [pid, processes.offline!, processes.dynamodb!]) killGroup(p, 'SIGKILL');
    await instance.stop();
    const restartedAt = Date.now();
    instance = await startInstance({ dataDir, env: ENV });

    let resumedByHand = false;
    const done = await waitFor(
      'the move scan to finish after the restart',
      async () => {
        const j = await getJob(jobId, instance.url);
        // Auto-resume is on by default; should the job be left interrupted, resume it by hand.
        if (j.status === 'interrupted' && Date.now() - Date.parse(j.updatedAt) > 5_000) {
          const res = await call('POST', `/api/v1/scan/jobs/${jobId}/resume`, { base: instance.url });
          assert.equal(res.status, 202, res.text);
          resumedByHand = true;
          return undefined;
        }
        return DONE.has(j.status) ? j : undefined;
      },
      600_000,
      200,
    );
    t.diagnostic(
      `killed at ${JSON.stringify(caught.counts)}; resumed ${resumedByHand ? 'by hand' : 'by itself'}; finished with ${JSON.stringify(done.counts)}`,
    );
    assert.equal(done.status, 'completed', JSON.stringify(done));
    assert.ok(Date.parse(done.finishedAt) > restartedAt, `the job finished after the restart: ${done.finishedAt}`);
    // One job for the whole move: the resumed run counts what the killed one wrote.
    assert.equal(done.counts.moved, FILMS, JSON.stringify(done.counts));
    assert.equal(done.counts.added, 0, JSON.stringify(done.counts));
    assert.equal(done.counts.removed, 0, JSON.stringify(done.counts));
    assert.equal(done.counts.updated, 0, JSON.stringify(done.counts));
    assert.equal(done.counts.discovered, FILMS);
    assert.equal(done.counts.probed + done.counts.probeFailed, 0, `a move reads no header: ${JSON.stringify(done.counts)}`);

    const afterMove = await catalogue();
    assert.deepEqual([...afterMove.keys()].sort(), [...original.keys()].sort(), 'the same movie ids: none lost, none new');
    for (const [id, addedAt] of original) assert.equal(afterMove.get(id), addedAt, `${id} keeps its addedAt`);
    assert.equal(await libraryMovies(done.libraryId), FILMS);
    const moved = await pathsOf([...afterMove.keys()]);
    for (const [id, path] of moved) assert.equal(path, `Archive/${originalPaths.get(id)}`, `${id} is at its new path`);

    const rescan = await waitForJob(await startScan(), instance.url, 600_000, DONE);
    assert.equal(rescan.status, 'completed', JSON.stringify(rescan));
    for (const k of ['added', 'updated', 'moved', 'removed'] as const)
      assert.equal(rescan.counts[k], 0, `a rescan ${k} nothing: ${JSON.stringify(rescan.counts)}`);
    const again = await catalogue();
    assert.deepEqual([...again].sort(), [...afterMove].sort(), 'a rescan leaves every id and addedAt as they are');
    assert.equal(await libraryMovies(rescan.libraryId), FILMS);
  });
});
