// The footprint of the service on a small box, as a user starts it (`npm start`): the RSS of
// every process of the service (the npm launcher and everything below it), right after start,
// after a scan of 10,000 files and after 60 s idle; the time from `npm start` to a healthy
// `/api/v1/health` with a new DATA_DIR and again with the same code and data; and a counted
// request's latency against health's under the same load.
// `npx tsx bench/run.ts footprint` runs this part alone (BENCH_ITEMS for a smaller tree,
// BENCH_IDLE_S for a shorter idle).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../infra/runner/ports';
import { PROJECT_DIR } from '../infra/project';
import { instanceEnv } from '../test/support/instance';
import { load, machineLine, median, RUNS, writeDoc } from './support';
import { generateMovies, writeTree } from './tree';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 60);
const say = (s: string) => process.stdout.write(`footprint: ${s}\n`);

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

interface Started {
  pid: number;
  url: string;
  ms: number;
  stop: () => Promise<void>;
}

/** `npm start` as a user runs it, timed until health answers 200. */
const npmStart = async (dataDir: string): Promise<Started> => {
  const port = await freePort();
  const t0 = performance.now();
  const child = spawn('npm', ['start', '--silent'], {
    cwd: PROJECT_DIR,
    env: instanceEnv({ RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: '', LIBRARY_MONITOR: 'on' }, port, dataDir),
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  for (;;) {
    if (child.exitCode !== null) throw new Error('npm start exited while starting');
    const ok = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status === 200, () => false);
    if (ok) break;
    if (performance.now() - t0 > 180_000) throw new Error('npm start did not become healthy in 180 s');
    await new Promise((r) => setTimeout(r, 50));
  }
  const ms = performance.now() - t0;
  return {
    pid: child.pid!,
    url,
    ms,
    stop: async () => {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    },
  };
};

const api = async (url: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${url}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: any }).data;
};

const scanAll = async (url: string, root: string) => {
  const job = await api(url, 'POST', '/api/v1/scan/path', { path: root, mediaType: 'movie' });
  for (;;) {
    const now = await api(url, 'GET', `/api/v1/scan/jobs/${job.jobId}`);
    if (!['queued', 'running'].includes(now.status)) return now;
    await new Promise((r) => setTimeout(r, 500));
  }
};

const rolesLine = (s: ReturnType<typeof snapshot>) => [...s.byRole.entries()].map(([role, mib]) => `${role} ${mib}`).join(', ');

export const runFootprint = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-footprint-'));
  const media = mkdtempSync(join(tmpdir(), 'mls-bench-footprint-media-'));
  try {
    // The very first start of this code: no bundles of it kept yet.
    await rm(join(PROJECT_DIR, '.build', 'handlers'), { recursive: true, force: true });
    say('first start, new DATA_DIR');
    const first = await npmStart(dataDir);
    await first.stop();
    say(`first start: ${Math.round(first.ms)} ms`);

    const again: number[] = [];
    let running: Started | undefined;
    for (let i = 0; i < RUNS; i++) {
      running = await npmStart(dataDir);
      again.push(running.ms);
      if (i < RUNS - 1) await running.stop();
    }
    const service = running!;
    say(`starts with the same code and data: ${again.map((m) => Math.round(m)).join(', ')} ms`);
    await new Promise((r) => setTimeout(r, 5_000));
    const atStart = snapshot(service.pid);
    say(`right after start: ${atStart.total} MiB (${rolesLine(atStart)})`);

    const health = await load(`${service.url}/api/v1/health`);
    const counted = await load(`${service.url}/api/v1/settings`);
    say(`health p50 ${health.p50} ms, settings (counted) p50 ${counted.p50} ms`);

    say(`writing ${ITEMS} files`);
    await writeTree(media, generateMovies(ITEMS));
    const job = await scanAll(service.url, media);
    const afterScan = snapshot(service.pid);
    say(`after the scan (${job.status}, ${job.counts.added} added): ${afterScan.total} MiB (${rolesLine(afterScan)})`);
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const idle = snapshot(service.pid);
    say(`after ${IDLE_S} s idle: ${idle.total} MiB (${rolesLine(idle)})`);
    await service.stop();

    const roles = [...new Set([...atStart.byRole.keys(), ...afterScan.byRole.keys(), ...idle.byRole.keys()])];
    const rssRows = roles.map((r) => `| ${r} | ${atStart.byRole.get(r) ?? '-'} | ${afterScan.byRole.get(r) ?? '-'} | ${idle.byRole.get(r) ?? '-'} |`);
    const section = [
      `${machineLine()}. \`npm start\` with NODE_ENV=production, RSS from \`ps\` of the npm process and everything below it; ${ITEMS} sparse movie files scanned with no TMDB key; latency: autocannon, median of ${RUNS} runs.`,
      '',
      '| process | RSS MiB right after start | after the scan of ' + ITEMS + ' files | after ' + IDLE_S + ' s idle |',
      '|---|---|---|---|',
      ...rssRows,
      `| **sum** | **${atStart.total}** | **${afterScan.total}** | **${idle.total}** |`,
      '',
      '| measure | value | target | met? |',
      '|---|---|---|---|',
      `| sum of RSS right after start | ${atStart.total} MiB | ≤ 500 MiB | ${atStart.total <= 500 ? 'yes' : 'no'} |`,
      `| sum of RSS after the scan and ${IDLE_S} s idle | ${idle.total} MiB | ≤ 700 MiB | ${idle.total <= 700 ? 'yes' : 'no'} |`,
      `| a build tool running after start | ${atStart.buildTool || idle.buildTool ? 'yes' : 'no'} | no | ${atStart.buildTool || idle.buildTool ? 'no' : 'yes'} |`,
      `| start to healthy, new DATA_DIR (first start of this code) | ${(first.ms / 1000).toFixed(1)} s | ≤ 20 s | ${first.ms <= 20_000 ? 'yes' : 'no'} |`,
      `| start to healthy, same code and data (median of ${RUNS}) | ${(median(again) / 1000).toFixed(1)} s | ≤ 5 s | ${median(again) <= 5_000 ? 'yes' : 'no'} |`,
      `| counted request p50 / health p50 (GET /api/v1/settings vs health) | ${counted.p50} / ${health.p50} ms = ${(counted.p50 / Math.max(health.p50, 1)).toFixed(2)}× | ≤ 1.3× | ${counted.p50 <= 1.3 * Math.max(health.p50, 1) ? 'yes' : 'no'} |`,
    ].join('\n');
    process.stdout.write(`\n${section}\n`);
    writeDoc('footprint', section);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
    await rm(media, { recursive: true, force: true });
  }
};
