// A full disk, for real: DATA_DIR on a 96 MiB tmpfs of its own, filled to its last 200 KiB as a
// household's downloads would fill it, then a scan. The service answers throughout (health
// degraded, lists read), writes get 507 problems, the scan pauses with `disk-full` (in the job,
// on /ws, in the log), and once the space is freed it goes on by itself and ends with every
// film exactly once; a restart finds them all. Mounting needs root, as CI runs; elsewhere the
// test is skipped, and with MLS_REQUIRE_DISK_FULL=1 (CI) a refused mount fails it instead.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { diskSpace } from '../../lib/util/disk-space';
import { startInstance, tempDir, waitFor, type Instance } from '../support/instance';
import { allPages, getJob, makeTree } from '../support/media';
import { call, jsonBody, type Reply } from '../support/stack';
import { WsClient } from '../support/ws';
import { browserSkip, launchChromium } from '../support/browser';
import type { Browser, Page } from 'playwright-core';

const DISK_MIB = 96;
const FIRST = 200;
const MORE = 1_000;
const LEFT_KIB = 200;

const films = (name: string, count: number) =>
  Array.from({ length: count }, (_, i) => `${name} ${i} (${1950 + (i % 70)})/${name} ${i} (${1950 + (i % 70)}).mkv`);

/** A tmpfs of its own, or why there cannot be one here. */
const mountTmpfs = (at: string): string | undefined => {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  mkdirSync(at, { recursive: true });
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_MIB}m,mode=0755`, 'tmpfs', at], { stdio: 'pipe' });
    return undefined;
  } catch (err) {
    return `mount refused: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  }
};

/**
 * Fills the disk to its last `leftKiB` with files of its own, as downloads would. The service
 * writes meanwhile (its log, a paused job), so what was free a moment ago may not fit: measure
 * again and take what is left, a few times.
 */
const fill = (dir: string, name: string, leftKiB: number) => {
  for (let part = 0; part < 20; part++) {
    const bytes = diskSpace(dir)!.freeBytes - leftKiB * 1024;
    if (bytes < 4096) return;
    try {
      execFileSync('fallocate', ['-l', String(bytes), join(dir, `${name}.${part}`)], { stdio: 'pipe' });
    } catch {
      // Taken meanwhile: measure again.
    }
  }
};

const downloads = (dir: string) => readdirSync(dir).filter((f) => f.startsWith('downloads-'));

const cannotMount = (() => {
  const probe = tempDir('mount-probe');
  const why = mountTmpfs(probe);
  if (!why) execFileSync('umount', [probe]);
  if (why && process.env.MLS_REQUIRE_DISK_FULL === '1') throw new Error(`the full-disk test cannot run: ${why}`);
  return why;
})();

describe('a full disk', { skip: cannotMount }, () => {
  const disk = tempDir('disk');
  const dataDir = join(disk, 'data');
  const media = tempDir('disk-media');
  let instance: Instance;
  let ws: WsClient;
  let browser: Browser | undefined;
  /** The web client, open from before the disk fills: its banner follows system:status. */
  let page: Page | undefined;
  /** Every answer over the period, printed at the end. */
  const timeline: string[] = [];

  const line = (label: string, res: Reply) =>
    `${label} ${res.status} ${res.status === 200 ? JSON.stringify(res.json.data?.status ?? res.json.data?.length ?? '') : (res.json?.type ?? res.text.slice(0, 80))}`;
  const look = async () => {
    const health = await call('GET', '/api/v1/health', { base: instance.url });
    const list = await call('GET', '/api/v1/movies?limit=5', { base: instance.url });
    const free = diskSpace(dataDir)?.freeBytes ?? 0;
    timeline.push(
      `${new Date().toISOString().slice(11, 23)} free ${(free / 1024).toFixed(0)} KiB | ${line('health', health)} ${health.json?.data?.disk?.state ?? ''} | ${line('movies', list)}`,
    );
    return { health, list };
  };

  before(async () => {
    makeTree(join(media, 'first'), films('Kept Film', FIRST), 1);
    makeTree(join(media, 'more'), films('Late Film', MORE), 1);
    mkdirSync(join(media, 'elsewhere'));
    assert.equal(mountTmpfs(disk), undefined);
    instance = await startInstance({ dataDir, env: { LOG_LEVEL: 'info', DISK_CHECK_MS: '200' } });
    ws = await WsClient.open(instance.url.replace('http', 'ws') + '/ws');
    if (!browserSkip) {
      browser = await launchChromium();
      page = await browser.newPage();
      await page.goto(`${instance.url}/`);
      await page.waitForSelector('.shelf');
    }
  });

  after(async () => {
    await browser?.close();
    process.stdout.write(`# health and list answers while the disk was full:\n${timeline.map((l) => `#   ${l}`).join('\n')}\n`);
    await ws?.close();
    await instance?.stop();
    execFileSync('umount', ['-l', disk]);
    rmSync(media, { recursive: true, force: true });
  });

  it('keeps answering, refuses writes with 507, pauses the scan, and goes on when space is back', async () => {
    const base = instance.url;
    const first = await call('POST', '/api/v1/scan/path', { ...jsonBody({ path: join(media, 'first'), mediaType: 'movie' }), base });
    assert.equal(first.status, 202, first.text);
    await waitFor(
      'the first scan',
      async () => ((await getJob(first.json.data.jobId, base)).status === 'completed' ? true : undefined),
      120_000,
    );

    // The downloads land: 200 KiB left. Health says so, and reads go on.
    fill(disk, 'downloads-1', LEFT_KIB);
    const low = await waitFor(
      'health to say the disk is low',
      async () => {
        const { health } = await look();
        return health.json.data.disk?.state === 'low' ? health : undefined;
      },
      20_000,
      250,
    );
    assert.equal(low.status, 200, 'a low disk is degraded, not down: the database answers');
    assert.equal(low.json.data.status, 'degraded');
    assert.deepEqual(
      low.json.data.reasons.map((r: { code: string }) => r.code),
      ['disk-low'],
    );
    assert.match(low.json.data.reasons[0].message, /free on the disk holding/);
    await ws.next((m) => m.type === 'system:status' && m.status === 'degraded' && m.disk?.state === 'low', 20_000);
    if (page) {
      await page.waitForSelector('.status-banner', { timeout: 20_000 });
      assert.match(await page.locator('.status-banner').innerText(), /free on the disk holding .* scans pause/s);
    }

    // A scan started now cannot write its items: it pauses (a start refused for space is a 507 first).
    let started = await call('POST', '/api/v1/scan/path', { ...jsonBody({ path: join(media, 'more'), mediaType: 'movie' }), base });
    if (started.status === 507)
      started = await call('POST', '/api/v1/scan/path', { ...jsonBody({ path: join(media, 'more'), mediaType: 'movie' }), base });
    assert.equal(started.status, 202, started.text);
    const jobId = started.json.data.jobId as string;
    const paused = await waitFor(
      'the scan to pause',
      async () => {
        await look();
        const job = await getJob(jobId, base);
        assert.notEqual(job.status, 'completed', 'the scan found room for every film on a full disk');
        return job.status === 'interrupted' ? job : undefined;
      },
      60_000,
      250,
    );
    assert.equal(paused.error.code, 'disk-full', JSON.stringify(paused));
    assert.match(paused.error.message, /is full: the scan is paused/);
    await ws.next((m) => m.type === 'scan:error' && m.jobId === jobId && m.error.code === 'disk-full');

    // More downloads take what the pause freed: every write is refused, every read answered.
    fill(disk, 'downloads-2', 0);
    for (const [method, path, body] of [
      ['PATCH', '/api/v1/settings', { preferences: { theme: 'dark' } }],
      ['POST', '/api/v1/library', { name: 'Elsewhere', path: join(media, 'elsewhere'), mediaType: 'movie' }],
    ] as const) {
      const res = await call(method, path, { ...jsonBody(body), base });
      assert.equal(res.status, 507, `${method} ${path}: ${res.text}`);
      assert.equal(res.json.type, '/problems/disk-full');
      assert.match(res.json.detail, new RegExp(`The disk holding ${dataDir} is full`));
      assert.ok(Number(res.headers['retry-after']) > 0, 'Retry-After says when to try again');
      timeline.push(`${method} ${path} ${res.status} ${res.json.type}`);
    }
    for (let i = 0; i < 8; i++) {
      const { health, list } = await look();
      assert.equal(health.status, 200);
      assert.equal(health.json.data.status, 'degraded');
      assert.equal(list.status, 200, list.text);
      await new Promise((r) => setTimeout(r, 250));
    }
    assert.equal((await getJob(jobId, base)).status, 'interrupted', 'a paused scan waits for space');

    // Space back: the scan goes on by itself and ends with every film exactly once.
    for (const file of downloads(disk)) rmSync(join(disk, file));
    const done = await waitFor(
      'the scan to complete',
      async () => {
        await look();
        const job = await getJob(jobId, base);
        return job.status === 'completed' ? job : undefined;
      },
      120_000,
      250,
    );
    assert.equal(done.counts.added, MORE, JSON.stringify(done.counts));
    await ws.next((m) => m.type === 'system:status' && m.status === 'ok' && m.disk?.state === 'ok', 20_000);
    const healthy = await call('GET', '/api/v1/health', { base });
    assert.equal(healthy.json.data.status, 'ok');
    await page?.waitForSelector('.status-banner', { state: 'detached', timeout: 20_000 });

    const titles = (await allPages('/api/v1/movies', base)).map((m) => m.title as string);
    assert.equal(titles.length, FIRST + MORE);
    assert.equal(new Set(titles).size, FIRST + MORE, 'no film twice');
    assert.equal(titles.filter((t) => t.startsWith('Late Film ')).length, MORE);

    const log = readFileSync(join(dataDir, 'logs', 'service.log'), 'utf8');
    assert.match(log, /scan paused: the disk is full/);
  });

  it('finds every film again after a restart', async () => {
    await ws.close();
    await instance.stop();
    instance = await startInstance({ dataDir, env: { LOG_LEVEL: 'info', DISK_CHECK_MS: '200' } });
    ws = await WsClient.open(instance.url.replace('http', 'ws') + '/ws');
    const titles = (await allPages('/api/v1/movies', instance.url)).map((m) => m.title as string);
    assert.equal(new Set(titles).size, FIRST + MORE);
    assert.equal(titles.length, FIRST + MORE);
  });
});
