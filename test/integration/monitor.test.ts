// The library looks after itself, on an instance of its own with the folder monitor on (short
// tick and quiet period, as MONITOR_TICK_MS and MONITOR_QUIET_MS allow): a film copied in shows
// up without any request, a subtitle dropped into its Subs/ folder is listed, a file still being
// written is indexed once it is complete, a burst of files is one job, a change that a scan
// started since has seen is not scanned again, a disk that goes away makes the library offline
// and its return brings it back, and a schedule with a short interval fires.
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';
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
    // The monitor reads the libraries to watch at its next tick.
    await new Promise((r) => setTimeout(r, 2_500));
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
