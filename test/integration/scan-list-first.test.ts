// A scan lists first: every film is in the list, named from its file, before a single file
// header is read; the technical info follows in a second pass that no list waits for, or,
// with a provider, beside its answers in the same write. The worker runs in this process on a
// table of this file's own, on real files (and the fake TMDB); the storage's header reads are
// held back until the test has seen the whole list, so the order is checked, not timed; each
// film's writes are counted at the store.
import assert from 'node:assert/strict';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CatalogItem } from '../../lib/catalog/model';
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
import { createTmdbClient } from '../../lib/metadata/tmdb/client';
import type { Enrichment } from '../../lib/scan/context';
import { runWorker, type WorkerDeps } from '../../lib/scan/worker';
import { localMediaStorage } from '../../lib/storage/local';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
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

  /** A scan of `root` by a worker in this process whose header reads wait for `headersAllowed`; each film's puts counted. */
  const scanHeld = async (root: string, jobId: string, enrichment?: () => Promise<Enrichment>) => {
    const storage = localMediaStorage({
      dataDir: tempDir('list-first-data'),
      limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth },
    });
    let release!: () => void;
    const headersAllowed = new Promise<void>((r) => (release = r));
    const reads = { count: 0 };
    const puts = new Map<string, number>();
    const held: typeof storage = {
      ...storage,
      byteSource: async (...args) => {
        await headersAllowed;
        reads.count++;
        return storage.byteSource(...args);
      },
    };
    const counted: typeof catalog = Object.assign(Object.create(catalog) as typeof catalog, {
      put: async (items: CatalogItem[]) => {
        for (const i of items) puts.set(i.id, (puts.get(i.id) ?? 0) + 1);
        return catalog.put(items);
      },
    });
    const events: OutgoingEvent[] = [];
    const deps: WorkerDeps = {
      catalog: counted,
      jobs,
      libraries,
      storage: held,
      locks: new DynamoMatchLockStore(table.db),
      collections: new DynamoCollectionStore(table.db),
      manifests: new DynamoManifestStore(table.db),
      events: { emit: async (e) => void events.push(e) },
      invoker: { invoke: async () => assert.fail('one run finishes this scan') },
      log: rootLogger.child({ test: 'list-first' }),
      ...(enrichment ? { enrichment } : {}),
    };
    const library = aLibrary(new Date().toISOString(), { path: root });
    await libraries.create(library);
    const job = newJob({ jobId, libraryId: library.id, path: root, mediaType: 'movie' }, Date.now());
    await jobs.create(job);
    const worker = runWorker(deps, { jobId, run: 0 }, Date.now() + 600_000);
    return { worker, release, reads, puts, events, library };
  };

  /** A 2 s clip ffmpeg made, under each of `names` in `root`. */
  const filmsIn = (root: string, names: string[]) => {
    const clip = makeMp4(join(tempDir('list-first-source'), 'clip.mp4'), { seconds: 2 });
    for (const name of names) copyFileSync(clip, join(root, name));
  };

  it('lists every film before any header is read, then reads each once and keeps what it read', async () => {
    const root = tempDir('list-first');
    filmsIn(
      root,
      Array.from({ length: FILMS }, (_, i) => `List First ${String(i).padStart(2, '0')} (${1990 + (i % 30)}).mp4`),
    );
    writeFileSync(join(root, 'List First Broken (2001).mkv'), 'not a video at all');
    const job = { jobId: 'job_listfirst' };
    const { worker, release, reads, puts, events, library } = await scanHeld(root, job.jobId);
    try {
      const listed = await waitFor(
        'the whole list',
        async () => {
          const page = await catalog.recent('movie', 100);
          return page.items.length === FILMS + 1 ? page.items : undefined;
        },
        60_000,
        50,
      );
      assert.equal(reads.count, 0);
      for (const item of listed)
        assert.ok(
          item.entity === 'movie' && item.files.every((f) => f.tech === undefined),
          `${item.title} is listed without its technical info`,
        );
      assert.ok(
        listed.some((m) => m.title === 'List First 07'),
        'named from the file',
      );
      // (The job is saved just after its chunk's items are written.)
      const during = await waitFor(
        'the job to count them',
        async () => {
          const j = (await jobs.get(job.jobId))!.value;
          return j.counts.added === FILMS + 1 ? j : undefined;
        },
        60_000,
        50,
      );
      assert.equal(during.phase, 'analyzing');
      assert.equal(during.counts.probed + during.counts.probeFailed, 0);
      // The library counts them already (the lists' totals are its counts).
      const counted = (await libraries.get(library.id))!.counts;
      assert.deepEqual({ movies: counted.movies, duration: counted.totalDurationSeconds }, { movies: FILMS + 1, duration: 0 });
      assert.equal(reads.count, 0);
    } finally {
      release();
    }
    await worker;

    const done = (await jobs.get(job.jobId))!.value;
    assert.equal(done.status, 'completed', JSON.stringify(done.error));
    assert.deepEqual(
      { probed: done.counts.probed, probeFailed: done.counts.probeFailed, failed: done.counts.failed },
      { probed: FILMS, probeFailed: 1, failed: 0 },
    );
    assert.ok(Math.abs((await libraries.get(library.id))!.counts.totalDurationSeconds! - 2 * FILMS) < FILMS * 0.2);
    assert.equal(reads.count, FILMS + 1, 'each header read once');
    assert.deepEqual(new Set(puts.values()), new Set([2]), 'each film written twice: listed, then its technical info');
    const all = (await catalog.recent('movie', 100)).items;
    for (const m of all) {
      assert.ok(m.entity === 'movie');
      const tech = m.files[0]!.tech;
      if (m.title === 'List First Broken') assert.equal(tech, null);
      else assert.ok(tech && Math.abs((tech.durationSeconds ?? 0) - 2) < 0.2, `${m.title}: ${JSON.stringify(tech)}`);
    }
    // The bar never went back across the two passes of the phase.
    const bar = events.filter((e) => e.type === 'scan:progress').map((e) => (e as { progress: number }).progress);
    assert.deepEqual(
      bar,
      [...bar].sort((a, b) => a - b),
    );
    assert.equal(bar.at(-1), 100);
  });

  describe('with a provider', () => {
    const KEY = 'list-first-key';
    const fake = new FakeTmdb({ keys: [KEY] });
    let server: FakeTmdbServer | undefined;
    before(async () => {
      for (let i = 0; i < 6; i++)
        fake.addMovie({
          id: 9100 + i,
          title: `Described Film ${i}`,
          releaseDate: `${2000 + i}-05-01`,
          overview: `Film ${i}.`,
          genres: ['Drama'],
        });
      server = await fake.start();
    });
    after(() => server?.close());

    it("lists first, then reads the headers beside the provider's answers and writes both at once", async () => {
      const root = tempDir('list-first-provider');
      filmsIn(
        root,
        Array.from({ length: 6 }, (_, i) => `Described Film ${i} (${2000 + i}).mp4`),
      );
      const provider = createTmdbClient({ apiKey: KEY, baseUrl: server!.apiBaseUrl, requestsPerSecond: 1000 });
      const { worker, release, reads, puts } = await scanHeld(root, 'job_listfirst_provider', async () => ({
        provider,
        artwork: false,
        meshGradients: false,
      }));
      try {
        await waitFor(
          'the list',
          async () =>
            (await catalog.recent('movie', 100)).items.filter((m) => m.title.startsWith('Described Film')).length === 6 ? true : undefined,
          60_000,
          50,
        );
        assert.equal(reads.count, 0);
      } finally {
        release();
      }
      await worker;
      const done = (await jobs.get('job_listfirst_provider'))!.value;
      assert.equal(done.status, 'completed', JSON.stringify(done.error));
      assert.deepEqual({ probed: done.counts.probed, matched: done.counts.matched }, { probed: 6, matched: 6 });
      assert.equal(reads.count, 6, 'each header read once');
      assert.deepEqual(
        new Set(puts.values()),
        new Set([3]),
        'each film written three times: listed, described from its search hit with its technical info, then its details',
      );
      for (const m of (await catalog.recent('movie', 100)).items.filter((i) => i.title.startsWith('Described Film'))) {
        assert.ok(m.entity === 'movie' && m.metadata?.matched && m.overview, m.title);
        assert.ok(
          m.entity === 'movie' && !m.metadata?.brief && m.enrich === 'artwork',
          `${m.title}: its details are in, its pictures wait for a scan that fetches them`,
        );
        assert.ok(Math.abs((m.files[0]!.tech?.durationSeconds ?? 0) - 2) < 0.2, `${m.title} has its technical info`);
      }
    });
  });
});
