// Deleting a big library, on an instance of its own whose worker hands over to a fresh
// invocation every 5 s (so a removal is several runs, as on Lambda): the answer comes at
// once, the library and its films leave every list, search and detail with it, and the table
// is emptied of them in the background, also when every process is killed with -9 part-way and
// the service started again, and when a scan of the library is running.
// It runs in a process of its own, after the other system files (test/run.ts): two scans of
// 10,000 films load the machine enough to stretch their waits.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { killGroup } from '../../infra/runner/managed-process';
import { readStamp } from '../../lib/catalog/changes';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { LOCAL_CREDENTIALS } from '../../lib/config';
import { createDb, type Db } from '../../lib/db/client';
import { DynamoLibraryStore } from '../../lib/library/store';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { getJob, makeTree, waitForJob } from '../support/media';
import { call, jsonBody } from '../support/stack';

const FILMS = 10_000;
const ENV = { SCAN_SLICE_MS: '5000', LOG_LEVEL: 'info' };

describe('a library of 10,000 films is deleted in one request', () => {
  const dataDir = tempDir('removal');
  let instance: Instance;
  let db: Db;
  const connect = () => {
    db = createDb({
      tableName: 'media',
      endpoint: instance.state().dynamodbEndpoint,
      region: 'us-east-1',
      localCredentials: LOCAL_CREDENTIALS,
    });
  };
  before(async () => {
    instance = await startInstance({ dataDir, env: ENV });
    connect();
  });
  after(async () => {
    await instance.stop();
  });

  const api = (method: string, path: string, body?: unknown) =>
    call(method, path, { ...(body === undefined ? {} : jsonBody(body)), base: instance.url });
  const filmTree = (name: string) =>
    makeTree(
      join(tempDir(name), name),
      Array.from({ length: FILMS }, (_, i) => `${name} Film ${i} (${1950 + (i % 70)})/${name} Film ${i} (${1950 + (i % 70)}).mkv`),
      1,
    );
  const startScan = async (path: string) => {
    const res = await api('POST', '/api/v1/scan/path', { path, mediaType: 'movie' });
    assert.equal(res.status, 202, res.text);
    return res.json.data as { jobId: string; libraryId: string };
  };
  /** What is left of the library in the table: its items, and whether the library and its withdrawal remain. */
  const leftOf = async (libraryId: string) => ({
    items: (await new DynamoCatalogStore(() => db).index(libraryId)).length,
    library: (await new DynamoLibraryStore(() => db).get(libraryId)) !== undefined,
    withdrawn: ((await readStamp(db)).withdrawn ?? []).includes(libraryId),
  });
  const gone = (libraryId: string) =>
    waitFor(
      'the library to be gone from the table',
      async () => {
        const left = await leftOf(libraryId);
        return !left.items && !left.library && !left.withdrawn ? left : undefined;
      },
      300_000,
      500,
    );
  /** Asks the lists, search, details and stats: none may show the library or its films. */
  const assertGoneForClients = async (libraryId: string, name: string, filmId: string) => {
    assert.equal((await api('GET', `/api/v1/library/${libraryId}`)).status, 404);
    assert.ok(!(await api('GET', '/api/v1/library')).json.data.some((l: { id: string }) => l.id === libraryId));
    assert.equal((await api('GET', '/api/v1/library/stats')).json.data.libraries, 0);
    const movies = (await api('GET', '/api/v1/movies?limit=100')).json;
    assert.deepEqual({ data: movies.data, total: movies.meta.total }, { data: [], total: 0 });
    assert.deepEqual((await api('GET', `/api/v1/search?query=${encodeURIComponent(`${name} Film 123`)}`)).json.data, []);
    assert.equal((await api('GET', `/api/v1/movies/${filmId}`)).status, 404);
    assert.deepEqual((await api('GET', '/api/v1/continue')).json.data, []);
  };

  it('answers at once, is gone for every client, and a kill of every process part-way does not stop the removal', async (t) => {
    const path = filmTree('Removal');
    const { jobId, libraryId } = await startScan(path);
    const scanned = await waitForJob(jobId, instance.url, 900_000);
    assert.equal(scanned.status, 'completed', JSON.stringify(scanned));
    assert.equal(scanned.counts.added, FILMS);
    const film = (await api('GET', `/api/v1/search?query=${encodeURIComponent('Removal Film 123')}`)).json.data[0];
    assert.equal((await api('PUT', `/api/v1/progress/${film.id}`, { positionSeconds: 600, durationSeconds: 6000 })).status, 200);
    assert.equal((await api('GET', '/api/v1/continue')).json.data.length, 1);

    const t0 = performance.now();
    const res = await api('DELETE', `/api/v1/library/${libraryId}`);
    const answeredMs = performance.now() - t0;
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(
      { ...res.json.data, since: typeof res.json.data.since },
      { libraryId, name: 'Removal', path, state: 'removing', since: 'string', items: FILMS },
    );
    await assertGoneForClients(libraryId, 'Removal', film.id);
    // Its folder stays taken until it is gone.
    assert.equal((await api('POST', '/api/v1/library', { name: 'Again', path, mediaType: 'movie' })).status, 409);

    const part = await waitFor(
      'the removal to be part-way',
      async () => {
        const left = await leftOf(libraryId);
        return left.items < FILMS ? left : undefined;
      },
      120_000,
      50,
    );
    const { pid, processes } = instance.state();
    for (const p of [pid, processes.offline!, processes.dynamodb!]) killGroup(p, 'SIGKILL');
    await instance.stop();
    instance = await startInstance({ dataDir, env: ENV });
    connect();
    await assertGoneForClients(libraryId, 'Removal', film.id);
    const t1 = performance.now();
    await gone(libraryId);
    t.diagnostic(
      `answered in ${Math.round(answeredMs)} ms; killed with ${part.items} films left; gone from the table ${Math.round((performance.now() - t1) / 1000)} s after the restart`,
    );
    // The folder is free again, and a new library of it starts empty of the old one's state.
    const again = await api('POST', '/api/v1/library', { name: 'Again', path, mediaType: 'movie' });
    assert.equal(again.status, 201, again.text);
    assert.equal((await api('DELETE', `/api/v1/library/${again.json.data.id}`)).status, 204);
  });

  it('answers at once with a scan of it running: the scan is cancelled and nothing of the library is left', async (t) => {
    const { jobId, libraryId } = await startScan(filmTree('Busy'));
    const running = await waitFor(
      'the scan to be part-way',
      async () => {
        const j = await getJob(jobId, instance.url);
        return (j.status === 'running' && j.counts.added >= 2_000) || ['completed', 'failed', 'cancelled'].includes(j.status)
          ? j
          : undefined;
      },
      300_000,
      50,
    );
    assert.equal(running.status, 'running', 'the scan finished before the delete');
    const t0 = performance.now();
    const res = await api('DELETE', `/api/v1/library/${libraryId}`);
    const answeredMs = performance.now() - t0;
    assert.equal(res.status, 202, res.text);
    const film = (await new DynamoCatalogStore(() => db).index(libraryId))[0]!;
    await assertGoneForClients(libraryId, 'Busy', film.id);
    const job = await waitForJob(jobId, instance.url, 120_000, new Set(['cancelled', 'completed', 'failed']));
    assert.equal(job.status, 'cancelled');
    const t1 = performance.now();
    await gone(libraryId);
    t.diagnostic(
      `answered in ${Math.round(answeredMs)} ms with ${job.counts.added} films written; gone from the table ${Math.round((performance.now() - t1) / 1000)} s after the scan stopped`,
    );
    // A late write of the scan would show here.
    await new Promise((r) => setTimeout(r, 1_500));
    assert.deepEqual(await leftOf(libraryId), { items: 0, library: false, withdrawn: false });
    assert.deepEqual((await api('GET', `/api/v1/search?query=${encodeURIComponent('Busy Film')}`)).json.data, []);
  });
});
