// The library looks after itself, on an instance of its own with the folder monitor on (short
// tick and quiet period, as MONITOR_TICK_MS and MONITOR_QUIET_MS allow): a film copied in shows
// up without any request, a subtitle dropped into its Subs/ folder is listed, a file still being
// written is indexed once it is complete, a burst of files is one job, a change that a scan
// started since has seen is not scanned again, a disk that goes away makes the library offline
// and its return brings it back, and a schedule with a short interval fires. On a second
// instance whose tick is longer than its tests wait: what lands in a new library before its
// watch begins, and what landed while the service was stopped, is listed by the one scan each
// watch begins with, and a new library's empty folder is watched too.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';
import { WsClient } from '../support/ws';

const QUIET_MS = 1_500;

describe('the folder monitor and the schedule', () => {
  const root = tempDir('monitor');
  const films = makeTree(join(root, 'films'), ['Heat (1995)/Heat (1995).mkv', 'Alien (1979)/Alien (1979).mkv'], 64 * 1024);
  let instance: Instance;
  let ws: WsClient;
  let libraryId: string;
  const base = () => ({ base: instance.url });
  const jobs = async () => (await call('GET', '/api/v1/scan/jobs', base())).json.data as any[];
  const titles = async () => (await allPages('/api/v1/movies', instance.url)).map((m) => m.title).sort();

  before(async () => {
    instance = await startInstance({ env: { LIBRARY_MONITOR: 'on', MONITOR_TICK_MS: '1000', MONITOR_QUIET_MS: String(QUIET_MS) } });
    ws = await WsClient.open(instance.url.replace('http', 'ws') + '/ws');
    const job = await scan({ path: films, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed');
    libraryId = job.libraryId;
    // Its watch begins at once, with a scan of its folder for what landed before (here nothing
    // new: the manual scan started before the watch, so it cannot stand in for it).
    await waitFor(
      'the scan that begins its watch',
      async () => (await jobs()).find((j) => j.trigger === 'watch' && j.path === films && j.status === 'completed'),
      15_000,
      200,
    );
  });
  after(async () => {
    await ws?.close();
    await instance?.stop();
  });

  it('a film copied in appears in the lists and on /ws without any request, within 15 s of its last write', async () => {
    const path = join(films, 'Brazil (1985)', 'Brazil (1985).mkv');
    makeTree(films, ['Brazil (1985)/Brazil (1985).mkv'], 64 * 1024);
    const written = Date.now();
    const event = await ws.next((m) => m.type === 'library:updated' && m.libraryId === libraryId && m.changes.added === 1, 15_000);
    assert.ok(Date.now() - written <= 15_000, `library:updated ${Date.now() - written} ms after the write`);
    assert.equal(event.items.added.length, 1);
    assert.equal(event.items.truncated, false);
    assert.ok((await titles()).includes('Brazil'), path);
    const job = (await jobs()).find((j) => j.counts.added === 1 && j.trigger === 'watch');
    assert.ok(job, 'a job started by the monitor added it');
  });

  it("a subtitle dropped into a film's Subs/ folder is listed without any request", async () => {
    const heat = (await allPages('/api/v1/movies', instance.url)).find((m) => m.title === 'Heat');
    mkdirSync(join(films, 'Heat (1995)', 'Subs'));
    writeFileSync(join(films, 'Heat (1995)', 'Subs', 'English.srt'), '1\n00:00:01,000 --> 00:00:02,000\nHi\n');
    await ws.next((m) => m.type === 'library:updated' && m.libraryId === libraryId && m.items.updated.includes(heat.id), 15_000);
    const detail = (await call('GET', `/api/v1/movies/${heat.id}`, base())).json.data;
    assert.deepEqual(
      detail.subtitles.map((t: any) => t.label),
      ['English'],
    );
  });

  it('a file written in chunks over several seconds is indexed once, when it is complete', async () => {
    mkdirSync(join(films, 'Ran (1985)'));
    const file = join(films, 'Ran (1985)', 'Ran (1985).mkv');
    const fd = openSync(file, 'w');
    const chunk = Buffer.alloc(256 * 1024, 7);
    // Each chunk comes before the quiet period ends: a copy in progress.
    for (let i = 0; i < 8; i++) {
      writeSync(fd, chunk);
      await new Promise((r) => setTimeout(r, QUIET_MS / 2));
    }
    closeSync(fd);
    const size = 8 * chunk.length;
    const movie = await waitFor(
      'Ran to appear',
      async () => (await allPages('/api/v1/movies', instance.url)).find((m) => m.title === 'Ran'),
      15_000,
      200,
    );
    const detail = (await call('GET', `/api/v1/movies/${movie.id}`, base())).json.data;
    assert.equal(detail.file.size, size, 'indexed at its final size');
    // Listed as soon as written; told when its scan completes.
    await ws.next((m) => m.type === 'library:updated' && m.items.added.includes(movie.id), 15_000);
    const ranJobs = ws.messages.filter((m) => m.type === 'library:updated' && m.items.added.includes(movie.id));
    assert.equal(ranJobs.length, 1, `added once: ${JSON.stringify(ws.messages.filter((m) => m.type === 'library:updated'))}`);
    assert.equal(
      ws.messages.filter((m) => m.type === 'library:updated' && m.items.updated.includes(movie.id)).length,
      0,
      'never updated afterwards',
    );
  });

  it('500 files copied at once are one job', async () => {
    const before = new Set((await jobs()).map((j) => j.jobId));
    const names = Array.from(
      { length: 500 },
      (_, i) => `Batch Film ${String(i).padStart(3, '0')} (2001)/Batch Film ${String(i).padStart(3, '0')} (2001).mkv`,
    );
    makeTree(join(films, 'Batch'), names, 1024);
    const event = await ws.next((m) => m.type === 'library:updated' && m.libraryId === libraryId && m.changes.added === 500, 60_000);
    assert.equal(event.items.added.length, 100, 'at most 100 ids of a kind');
    assert.equal(event.items.truncated, true);
    const started = (await jobs()).filter((j) => !before.has(j.jobId));
    assert.equal(started.length, 1, `one job: ${JSON.stringify(started.map((j) => [j.trigger, j.path, j.counts.added]))}`);
    assert.equal(started[0].trigger, 'watch');
  });

  it('a folder moved in is scanned whole, and its subfolders are watched from then on', async () => {
    const outside = makeTree(join(root, 'outside'), ['Sci-Fi/Blade Runner (1982)/Blade Runner (1982).mkv'], 1024);
    renameSync(join(outside, 'Sci-Fi'), join(films, 'Sci-Fi'));
    await waitFor('Blade Runner to appear', async () => (await titles()).includes('Blade Runner') || undefined, 15_000, 200);
    // The watcher alone never watches the subfolders of a folder moved in.
    await new Promise((r) => setTimeout(r, QUIET_MS));
    makeTree(join(films, 'Sci-Fi', 'Blade Runner (1982)'), ['Dune (1984).mkv'], 1024);
    await waitFor('Dune to appear', async () => (await titles()).includes('Dune') || undefined, 15_000, 200).catch(async (err: Error) => {
      const log = await call('GET', '/api/v1/logs?limit=30&level=info&q=watch', base());
      throw new Error(
        `${err.message}; jobs ${JSON.stringify((await jobs()).slice(0, 4).map((j) => [j.trigger, j.status, j.path]))}; log ${log.text.slice(0, 3000)}`,
      );
    });
  });

  it('a change that a scan started since has seen is not scanned again', async () => {
    const earlier = new Set((await jobs()).map((j) => j.jobId));
    makeTree(films, ['Gattaca (1997)/Gattaca (1997).mkv'], 1024);
    // The monitor has heard of it by now (its events come within milliseconds); its quiet period still runs.
    await new Promise((r) => setTimeout(r, 300));
    const manual = await scan({ path: films, mediaType: 'movie' }, instance.url);
    assert.equal(manual.counts.added, 1);
    // Past the quiet period, and a wait behind the running scan: the monitor has asked by now.
    await new Promise((r) => setTimeout(r, QUIET_MS + 6_000));
    const started = (await jobs()).filter((j) => !earlier.has(j.jobId));
    assert.deepEqual(
      started.map((j) => j.trigger),
      ['manual'],
      JSON.stringify(started.map((j) => [j.trigger, j.path, j.counts.added])),
    );
  });

  it('a root that goes away makes the library offline, and its return brings it back with nothing lost', async () => {
    const library = () => call('GET', `/api/v1/library/${libraryId}`, base()).then((r) => r.json.data);
    const count = (await allPages('/api/v1/movies', instance.url)).length;
    const away = join(root, 'away');
    renameSync(films, away);
    mkdirSync(films); // the empty mount point an unmounted disk leaves
    const offline = await ws.next((m) => m.type === 'library:status' && m.libraryId === libraryId && m.status === 'offline', 15_000);
    assert.ok(offline.reason.length > 0);
    assert.equal((await library()).status, 'offline');
    assert.equal((await allPages('/api/v1/movies', instance.url)).length, count, 'every film still listed');
    renameSync(films, join(root, 'empty'));
    renameSync(away, films);
    await ws.next((m) => m.type === 'library:status' && m.libraryId === libraryId && m.status === 'online', 15_000);
    assert.equal((await library()).status, 'online');
    assert.equal((await allPages('/api/v1/movies', instance.url)).length, count);
  });

  it('a schedule with a short interval fires, and 0 stops it', async () => {
    const before = new Set((await jobs()).map((j) => j.jobId));
    const patched = await call('PATCH', `/api/v1/library/${libraryId}`, { ...base(), ...jsonBody({ scanIntervalHours: 0.001 }) });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.json.data.scanIntervalHours, 0.001);
    const scheduled = await waitFor(
      'a scheduled scan',
      async () => (await jobs()).find((j) => !before.has(j.jobId) && j.trigger === 'schedule'),
      20_000,
      250,
    ).catch(async (err: Error) => {
      const log = await call('GET', '/api/v1/logs?limit=40&level=info', base());
      throw new Error(
        `${err.message}; jobs ${JSON.stringify((await jobs()).slice(0, 5).map((j) => [j.trigger, j.status, j.path]))}; log ${log.text.slice(0, 4000)}`,
      );
    });
    assert.equal(scheduled.path, films);
    const off = await call('PATCH', `/api/v1/library/${libraryId}`, { ...base(), ...jsonBody({ scanIntervalHours: 0 }) });
    assert.equal(off.json.data.nextScanAt, null);
  });
});

describe('what lands before a watch begins', () => {
  const root = tempDir('monitor-new');
  const films = join(root, 'films');
  // A tick far longer than the tests allow: a new library must not wait for it. At info, the
  // runner's log says when each watch began, for a failure to show.
  const env = { LIBRARY_MONITOR: 'on', MONITOR_TICK_MS: '60000', MONITOR_QUIET_MS: String(QUIET_MS), LOG_LEVEL: 'info' };
  let instance: Instance;
  let libraryId: string;
  const base = () => ({ base: instance.url });
  const allJobs = async () => (await call('GET', '/api/v1/scan/jobs', base())).json.data as any[];
  const jobsOf = async (id: string) => (await allJobs()).filter((j) => j.libraryId === id);
  const summary = (jobs: any[]) => JSON.stringify(jobs.map((j) => [j.trigger, j.status, j.path, j.counts.added]));
  const titles = async (prefix: string) => (await allPages('/api/v1/movies', instance.url)).filter((m) => m.title.startsWith(prefix));
  const filmFolders = (prefix: string, count: number, year: number) =>
    Array.from({ length: count }, (_, i) => {
      const title = `${prefix} ${String(i).padStart(3, '0')} (${year})`;
      return `${title}/${title}.mkv`;
    });
  /** Waits for `count` films titled `prefix`, saying what the monitor did when they do not come. */
  const listed = (prefix: string, count: number, since: number) =>
    waitFor(`${count} films to be listed`, async () => ((await titles(prefix)).length === count ? true : undefined), 30_000, 250).catch(
      async (err: Error) => {
        const log = readFileSync(join(instance.dataDir, 'logs', 'service.log'), 'utf8')
          .split('\n')
          .filter((l) => /watching|scans started|upkeep/.test(l));
        throw new Error(
          `${err.message}: ${(await titles(prefix)).length} after ${Date.now() - since} ms; jobs ${summary(await allJobs())}; log ${log.join('\n').slice(-3000)}`,
        );
      },
    );

  before(async () => {
    instance = await startInstance({ env });
  });
  after(async () => {
    await instance?.stop();
  });

  it('200 film folders written into a new library within its first second are all listed within 30 s, by one scan job', async () => {
    mkdirSync(films);
    const created = await call('POST', '/api/v1/library', {
      ...base(),
      ...jsonBody({ name: 'New films', path: films, mediaType: 'movie' }),
    });
    assert.equal(created.status, 201, created.text);
    libraryId = created.json.data.id;
    const start = Date.now();
    // At once, as a copy does (the 200 folders took 33 ms): done, as a rule, before the watch begins.
    makeTree(films, filmFolders('New Film', 200, 2002), 1024);
    assert.ok(Date.now() - start < 1_000, `written in ${Date.now() - start} ms`);
    await listed('New Film', 200, start);
    const jobs = await jobsOf(libraryId);
    assert.ok(jobs.length <= 3, `at most 3 jobs: ${summary(jobs)}`);
    assert.ok(
      jobs.some((j) => j.counts.added === 200 && j.trigger === 'watch' && j.path === films),
      `one scan of its folder added all 200: ${summary(jobs)}`,
    );
    // Nothing more comes of it once that scan is over.
    await waitFor(
      'its scans to end',
      async () => ((await jobsOf(libraryId)).every((j) => j.status === 'completed') ? true : undefined),
      30_000,
      250,
    );
    await new Promise((r) => setTimeout(r, 2 * QUIET_MS));
    const settled = await jobsOf(libraryId);
    assert.ok(settled.length <= 3 && settled.every((j) => j.status === 'completed'), `at most 3 jobs, all completed: ${summary(settled)}`);
  });

  it('a new library on an empty folder is watched: films copied in later are listed', async () => {
    const later = join(root, 'later');
    mkdirSync(later);
    const created = await call('POST', '/api/v1/library', { ...base(), ...jsonBody({ name: 'Later', path: later, mediaType: 'movie' }) });
    assert.equal(created.status, 201, created.text);
    // Long after the monitor first looked at it, empty.
    await new Promise((r) => setTimeout(r, 2_000));
    const start = Date.now();
    makeTree(later, filmFolders('Later Film', 10, 2004), 1024);
    await listed('Later Film', 10, start);
    assert.ok(Date.now() - start < 15_000, `listed ${Date.now() - start} ms after the copy`);
  });

  it('films written while the service was stopped are listed once it starts again, by one scan', async () => {
    const earlier = new Set((await jobsOf(libraryId)).map((j) => j.jobId));
    await instance.stop();
    makeTree(films, filmFolders('Offline Film', 20, 2003), 1024);
    instance = await startInstance({ env, dataDir: instance.dataDir });
    await listed('Offline Film', 20, Date.now());
    const started = (await jobsOf(libraryId)).filter((j) => !earlier.has(j.jobId));
    assert.equal(started.length, 1, summary(started));
    assert.deepEqual([started[0].trigger, started[0].path, started[0].counts.added], ['watch', films, 20]);
    assert.equal((await titles('New Film')).length, 200, 'the others still listed');
  });
});
