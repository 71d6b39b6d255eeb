// A scan lists first: every film is in the list, named from its file, before a single file
// header is read; the technical info follows in a second pass that no list waits for. The
// worker runs in this process on a table of this file's own, on real files; the storage's
// header reads are held back until the test has seen the whole list, so the order is
// checked, not timed.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { DynamoCollectionStore } from '../../lib/catalog/collections';
import { DynamoManifestStore } from '../../lib/catalog/manifest';
import { DynamoMatchLockStore } from '../../lib/catalog/match-lock';
import { config } from '../../lib/config';
import type { OutgoingEvent } from '../../lib/events/sink';
import { DynamoLibraryStore } from '../../lib/library/store';
import { rootLogger } from '../../lib/log';
import { DynamoScanJobStore } from '../../lib/scan/job-store';
import { newJob } from '../../lib/scan/transitions';
import { runWorker, type WorkerDeps } from '../../lib/scan/worker';
import { localMediaStorage } from '../../lib/storage/local';
import { aLibrary } from '../support/library-fixture';
import { tempDir, waitFor } from '../support/instance';
import { ownTable } from '../support/own-table';
import { hasFfmpeg, makeMp4 } from '../support/videos';

const FILMS = 40;
const skip = !hasFfmpeg() && !process.env.MLS_REQUIRE_BROWSER ? 'needs ffmpeg (apt-get install ffmpeg)' : false;

describe('a scan lists first', { skip }, () => {
  const table = ownTable('list-first');
  const catalog = new DynamoCatalogStore(table.db);
  const jobs = new DynamoScanJobStore(table.db);
  const libraries = new DynamoLibraryStore(table.db);

  it('lists every film before any header is read, then reads each once and keeps what it read', async () => {
    const root = tempDir('list-first');
    const clip = makeMp4(join(tempDir('list-first-source'), 'clip.mp4'), { seconds: 2 });
    for (let i = 0; i < FILMS; i++) copyFileSync(clip, join(root, `List First ${String(i).padStart(2, '0')} (${1990 + (i % 30)}).mp4`));
    writeFileSync(join(root, 'List First Broken (2001).mkv'), 'not a video at all');

    const storage = localMediaStorage({ dataDir: tempDir('list-first-data'), limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth } });
    let release!: () => void;
    const headersAllowed = new Promise<void>((r) => (release = r));
    let headerReads = 0;
    const held: typeof storage = {
      ...storage,
      byteSource: async (...args) => {
        await headersAllowed;
        headerReads++;
        return storage.byteSource(...args);
      },
    };
    const events: OutgoingEvent[] = [];
    const deps: WorkerDeps = {
      catalog, jobs, libraries, storage: held,
      locks: new DynamoMatchLockStore(table.db), collections: new DynamoCollectionStore(table.db), manifests: new DynamoManifestStore(table.db),
      events: { emit: async (e) => void events.push(e) },
      invoker: { invoke: async () => assert.fail('one run finishes this scan') },
      log: rootLogger.child({ test: 'list-first' }),
    };
    const library = aLibrary(new Date().toISOString(), { path: root });
    await libraries.create(library);
    const job = newJob({ jobId: 'job_listfirst', libraryId: library.id, path: root, mediaType: 'movie' }, Date.now());
    await jobs.create(job);

    const worker = runWorker(deps, { jobId: job.jobId, run: 0 }, Date.now() + 600_000);
    try {
      const listed = await waitFor('the whole list', async () => {
        const page = await catalog.recent('movie', 100);
        return page.items.length === FILMS + 1 ? page.items : undefined;
      }, 60_000, 50);
      assert.equal(headerReads, 0);
      for (const item of listed) assert.ok(item.entity === 'movie' && item.files.every((f) => f.tech === undefined), `${item.title} is listed without its technical info`);
      assert.ok(listed.some((m) => m.title === 'List First 07'), 'named from the file');
      // (The job is saved just after its chunk's items are written.)
      const during = await waitFor('the job to count them', async () => {
        const j = (await jobs.get(job.jobId))!.value;
        return j.counts.added === FILMS + 1 ? j : undefined;
      }, 60_000, 50);
      assert.equal(during.phase, 'analyzing');
      assert.equal(during.counts.probed + during.counts.probeFailed, 0);
      assert.equal(headerReads, 0);
    } finally {
      release();
    }
    await worker;

    const done = (await jobs.get(job.jobId))!.value;
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.deepEqual({ probed: done.counts.probed, probeFailed: done.counts.probeFailed, failed: done.counts.failed }, { probed: FILMS, probeFailed: 1, failed: 0 });
    assert.equal(headerReads, FILMS + 1, 'each header read once');
    const all = (await catalog.recent('movie', 100)).items;
    for (const m of all) {
      assert.ok(m.entity === 'movie');
      const tech = m.files[0]!.tech;
      if (m.title === 'List First Broken') assert.equal(tech, null);
      else assert.ok(tech && Math.abs((tech.durationSeconds ?? 0) - 2) < 0.2, `${m.title}: ${JSON.stringify(tech)}`);
    }
    // The bar never went back across the two passes of the phase.
    const bar = events.filter((e) => e.type === 'scan:progress').map((e) => (e as { progress: number }).progress);
    assert.deepEqual(bar, [...bar].sort((a, b) => a - b));
    assert.equal(bar.at(-1), 100);
  });
});
