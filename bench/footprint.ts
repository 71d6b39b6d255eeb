// The footprint of the service on a small box, as a user starts it (`npm start`, the folder
// monitor on): the RSS of every process of the service (the npm launcher and everything below
// it) right after start, after a scan of BENCH_ITEMS (10,000) files and after BENCH_IDLE_S (60) s
// idle; the time from `npm start` to a healthy `/api/v1/health` with a new DATA_DIR and again with
// the same code and data; health and a counted request under load against a bare node:http
// server answering the same JSON; and the folder monitor's cost: the CPU of each process while
// it watches the scanned library idle, and the time from a new film's last write to its
// library:updated event on /ws (the monitor section).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../infra/runner/ports';
import { BUILD_ROOT, buildKey } from '../infra/build.mjs';
import { PROJECT_DIR } from '../infra/project';
import { startInstance, waitFor } from '../test/support/instance';
import { WsClient } from '../test/support/ws';
import { cpuSeconds, fmt, load, machineLine, median, RUNS, sayer, scanPath, sleep, table, writeDoc, type LoadResult } from './support';
import { generateMovies, writeTree } from './tree';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
const TRIALS = 5;
const say = sayer('footprint');

interface Proc {
  pid: number;
  ppid: number;
  rssMiB: number;
  args: string;
}

/** Every process below `root` (itself included), from ps. */
const tree = (root: number): Proc[] => {
  const all = execFileSync('ps', ['-eo', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [pid, ppid, rss, ...args] = line.trim().split(/\s+/);
      return { pid: Number(pid), ppid: Number(ppid), rssMiB: Math.round(Number(rss) / 1024), args: args.join(' ') };
    });
  const out: Proc[] = [];
  const visit = (pid: number) => {
    const p = all.find((x) => x.pid === pid);
    if (p) out.push(p);
    for (const child of all.filter((x) => x.ppid === pid)) visit(child.pid);
  };
  visit(root);
  return out;
};

/** A short name for a process of the service. */
const roleOf = (p: Proc) => {
  if (/npm/.test(p.args) && !/node_modules/.test(p.args.split(' ')[1] ?? '')) return 'npm start';
  if (/^sh -c|^\/bin\/sh/.test(p.args)) return 'sh';
  if (/esbuild/.test(p.args)) return 'esbuild (build tool)';
  if (/java/.test(p.args)) return 'DynamoDB Local (java)';
  if (/serverless\.js offline/.test(p.args)) return 'serverless-offline';
  if (/infra\/run\.ts/.test(p.args) && /tsx\/dist\/cli|\/tsx /.test(p.args)) return 'tsx launcher';
  if (/infra\/(run|start)/.test(p.args)) return 'runner + front door';
  return p.args.slice(0, 40);
};

const snapshot = (root: number) => {
  const procs = tree(root);
  const byRole = new Map<string, number>();
  for (const p of procs) byRole.set(roleOf(p), (byRole.get(roleOf(p)) ?? 0) + p.rssMiB);
  return { total: procs.reduce((n, p) => n + p.rssMiB, 0), byRole, buildTool: procs.some((p) => /esbuild/.test(p.args)) };
};

/** `npm start` as a user runs it (in a process group of its own), timed until health answers 200. */
const npmStart = async (dataDir: string) => {
  const t0 = performance.now();
  const instance = await startInstance({
    viaNpm: true,
    dataDir,
    env: { RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: '', LIBRARY_MONITOR: 'on' },
  });
  await waitFor('health', async () => (await fetch(`${instance.url}/api/v1/health`)).status === 200 || undefined, 180_000, 50);
  return { pid: instance.child.pid!, url: instance.url, ms: performance.now() - t0, stop: () => instance.stop() };
};
type Started = Awaited<ReturnType<typeof npmStart>>;

/** A node:http server answering health's JSON with its headers: the ceiling of this machine. */
const bareLoad = async (): Promise<LoadResult> => {
  const body = JSON.stringify({ data: { status: 'ok', database: 'ok', version: '0.1.0', uptimeSeconds: 1 } });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'X-Request-Id': 'x' });
    res.end(body);
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  try {
    return await load(`http://127.0.0.1:${port}/api/v1/health`);
  } finally {
    server.close();
  }
};

/** CPU seconds of each role of the service so far. */
const cpuByRole = (root: number) => {
  const by: Record<string, number> = {};
  for (const p of tree(root))
    by[roleOf(p)] =
      (by[roleOf(p)] ?? 0) +
      (() => {
        try {
          return cpuSeconds(p.pid);
        } catch {
          return 0;
        }
      })();
  return by;
};

/** Writes a new film into the watched library, TRIALS times: ms from its last write to its library:updated event. */
const monitorLatency = async (url: string, library: string) => {
  const ws = await WsClient.open(`${url.replace('http', 'ws')}/ws`);
  try {
    const latencies: number[] = [];
    for (let i = 0; i < TRIALS; i++) {
      const dir = join(library, `New Film ${i} (2020)`);
      mkdirSync(dir);
      const from = ws.messages.length;
      writeFileSync(join(dir, `New Film ${i} (2020).mkv`), Buffer.alloc(1024 * 1024, 1));
      const written = Date.now();
      await waitFor(
        'library:updated',
        async () => ws.messages.slice(from).find((m) => m.type === 'library:updated' && m.changes.added === 1),
        60_000,
        20,
      );
      latencies.push(Date.now() - written);
      await sleep(2_000);
    }
    return latencies;
  } finally {
    await ws.close();
  }
};

const rolesLine = (s: ReturnType<typeof snapshot>) => [...s.byRole.entries()].map(([role, mib]) => `${role} ${mib}`).join(', ');

export const runFootprint = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-footprint-'));
  const media = mkdtempSync(join(tmpdir(), 'mls-bench-footprint-media-'));
  try {
    // The very first start of this code: no bundles of it kept yet.
    await rm(join(PROJECT_DIR, BUILD_ROOT, buildKey(PROJECT_DIR)), { recursive: true, force: true });
    const first = await npmStart(dataDir);
    await first.stop();
    say(`first start: ${Math.round(first.ms)} ms`);
    const again: number[] = [];
    let service: Started | undefined;
    for (let i = 0; i < RUNS; i++) {
      await service?.stop();
      service = await npmStart(dataDir);
      again.push(service.ms);
    }
    say(`starts with the same code and data: ${again.map((m) => Math.round(m)).join(', ')} ms`);
    await sleep(5_000);
    const atStart = snapshot(service!.pid);
    say(`right after start: ${atStart.total} MiB (${rolesLine(atStart)})`);

    const bare = await bareLoad();
    const health = await load(`${service!.url}/api/v1/health`);
    const counted = await load(`${service!.url}/api/v1/settings`);
    say(`bare ${bare.reqPerSec} req/s; health ${health.reqPerSec} req/s, p50 ${health.p50} ms; settings p50 ${counted.p50} ms`);

    await writeTree(media, generateMovies(ITEMS));
    const { job } = await scanPath(service!.url, { path: media, mediaType: 'movie' });
    const afterScan = snapshot(service!.pid);
    say(`after the scan (${job.counts.added} added): ${afterScan.total} MiB (${rolesLine(afterScan)})`);
    // Idle, the monitor watching the library: its ticks read the libraries and look at the root.
    const cpu0 = cpuByRole(service!.pid);
    await sleep(IDLE_S * 1000);
    const cpu1 = cpuByRole(service!.pid);
    const idle = snapshot(service!.pid);
    say(`after ${IDLE_S} s idle: ${idle.total} MiB (${rolesLine(idle)})`);
    const latencies = await monitorLatency(service!.url, media);
    await service!.stop();

    const roles = [...new Set([...atStart.byRole.keys(), ...afterScan.byRole.keys(), ...idle.byRole.keys()])];
    const yes = (ok: boolean) => (ok ? 'yes' : 'no');
    writeDoc(
      'footprint',
      [
        `${machineLine()}. \`npm start\` with NODE_ENV=production and the folder monitor on, RSS from \`ps\` of the npm process and everything below it; ${ITEMS} sparse movie files scanned with no TMDB key${ITEMS === 10_000 ? '' : ' (BENCH_ITEMS; the full size is 10,000)'}; load: autocannon, median of ${RUNS} runs.`,
        '',
        table(
          ['process', 'RSS MiB right after start', `after the scan of ${ITEMS} files`, `after ${IDLE_S} s idle`],
          [
            ...roles.map((r) => [r, atStart.byRole.get(r) ?? '-', afterScan.byRole.get(r) ?? '-', idle.byRole.get(r) ?? '-']),
            ['**sum**', `**${atStart.total}**`, `**${afterScan.total}**`, `**${idle.total}**`],
          ],
        ),
        '',
        table(
          ['measure', 'value', 'target', 'met?'],
          [
            ['sum of RSS right after start', `${atStart.total} MiB`, '≤ 500 MiB', yes(atStart.total <= 500)],
            [`sum of RSS after the scan and ${IDLE_S} s idle`, `${idle.total} MiB`, '≤ 700 MiB', yes(idle.total <= 700)],
            [
              'a build tool running after start',
              yes(atStart.buildTool || idle.buildTool),
              'no',
              yes(!atStart.buildTool && !idle.buildTool),
            ],
            [
              'start to healthy, new DATA_DIR, the first start of this code (bundles built)',
              `${fmt(first.ms / 1000)} s`,
              '≤ 20 s',
              yes(first.ms <= 20_000),
            ],
            [
              `start to healthy, same code and data (median of ${RUNS})`,
              `${fmt(median(again) / 1000)} s`,
              '≤ 5 s',
              yes(median(again) <= 5_000),
            ],
          ],
        ),
        '',
        table(
          ['request (16 connections)', 'req/s', 'p50 ms', 'p99 ms', 'errors'],
          [
            ["a bare node:http server answering the same JSON (the machine's ceiling)", bare.reqPerSec, bare.p50, bare.p99, bare.errors],
            [
              'GET /api/v1/health (not counted by the rate limit, its database probe kept a second)',
              health.reqPerSec,
              health.p50,
              health.p99,
              health.errors,
            ],
            [
              'GET /api/v1/settings (counted by the rate limit in memory, one GetItem)',
              counted.reqPerSec,
              counted.p50,
              counted.p99,
              counted.errors,
            ],
          ],
        ),
      ].join('\n'),
    );
    writeDoc(
      'monitor',
      [
        `${machineLine()}. The footprint part's \`npm start\` with its defaults (MONITOR_QUIET_MS 3000, MONITOR_TICK_MS 10000), the ${ITEMS} films it scanned watched.`,
        '',
        table(
          ['measure', 'value'],
          [
            [
              `CPU while idle and watching, ${IDLE_S} s after the scan, % of one core`,
              Object.keys(cpu1)
                .map((r) => `${r} ${fmt((100 * (cpu1[r]! - (cpu0[r] ?? 0))) / IDLE_S, 2)}`)
                .join(', '),
            ],
            [
              `a new film's last write to \`library:updated\` on /ws, p50 (max) of ${TRIALS}`,
              `${fmt(median(latencies) / 1000)} s (${fmt(Math.max(...latencies) / 1000)} s)`,
            ],
          ],
        ),
      ].join('\n'),
    );
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(media, { recursive: true, force: true });
  }
};
