// What the parts of `npm run bench` share: the API calls and scans they make, their timing
// (autocannon loads, requests one at a time), the process counters read from /proc, and
// rewriting one part's marked section of docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import autocannon from 'autocannon';
import { PROJECT_DIR } from '../infra/project';
import { waitForJob } from '../test/support/media';

export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
export const RUNS = 3;
export const CONNECTIONS = 16;
/** Requests one at a time, after WARM_UP not counted. */
export const SEQUENTIAL = Number(process.env.BENCH_SEQUENTIAL ?? 200);
export const WARM_UP = 10;
export const SCAN_TIMEOUT_MS = 30 * 60_000;

export const sayer = (part: string) => (line: string) => process.stdout.write(`[${part}] ${line}\n`);
export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
/** A full collection: before and after a build it tells what an index keeps, not what it made on the way. */
setFlagsFromString('--expose-gc');
export const collect = runInNewContext('gc') as () => void;
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The value below which a share `p` (0-100) of the values lie, nearest rank. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};
export const median = (values: number[]) => percentile(values, 50);

/** One API call; anything but the expected status throws with the request and the answer. */
export const api = async (base: string, method: string, path: string, expect: number, body?: unknown): Promise<any> => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expect)
    throw new Error(
      `${method} ${path}${body === undefined ? '' : ` ${JSON.stringify(body)}`} -> ${res.status} (expected ${expect}): ${text.slice(0, 1000)}`,
    );
  return text ? JSON.parse(text) : undefined;
};

/** POST /scan/path, then the job until it ends: the job (which must complete) and the wall time. */
export const scanPath = async (base: string, body: { path: string; mediaType: 'movie' | 'tvshow'; libraryId?: string }) => {
  const t0 = performance.now();
  const queued = await api(base, 'POST', '/api/v1/scan/path', 202, body);
  const job = await waitForJob(queued.data.jobId, base, SCAN_TIMEOUT_MS);
  if (job.status !== 'completed') throw new Error(`scan of ${body.path}: job ${job.status}: ${JSON.stringify(job)}`);
  return { job, ms: performance.now() - t0 };
};

export interface LoadResult {
  reqPerSec: number;
  p50: number;
  p99: number;
  errors: number;
}

/** A warm-up (cold handlers, connection setup), then the median of a few runs: runs on this machine vary by tens of percent. */
export const load = async (url: string): Promise<LoadResult> => {
  await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S }));
  return {
    reqPerSec: Math.round(median(runs.map((r) => r.requests.average))),
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
    errors: runs.reduce((n, r) => n + r.errors + r.non2xx, 0),
  };
};

export interface Sequential {
  p50: number;
  p99: number;
  /** Requests per second one at a time. */
  perSecond: number;
  /** Wall-clock window of the counted requests (to find them in the instance's log). */
  from: number;
  to: number;
}

/** SEQUENTIAL requests one at a time after WARM_UP, each timed from the call to its body read. */
export const sequential = async (send: (i: number) => Promise<unknown>): Promise<Sequential> => {
  for (let i = 0; i < WARM_UP; i++) await send(i);
  const times: number[] = [];
  const from = Date.now();
  for (let i = WARM_UP; i < WARM_UP + SEQUENTIAL; i++) {
    const t0 = performance.now();
    await send(i);
    times.push(performance.now() - t0);
  }
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: SEQUENTIAL / (times.reduce((a, b) => a + b, 0) / 1000),
    from,
    to: Date.now(),
  };
};

/** A GET whose body is read; anything but 200 throws. */
export const getter =
  (url: string, headers: Record<string, string> = {}) =>
  async () => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${url} -> ${res.status}`);
  };

/** A request one at a time, right after health measured the same way: health's p50 drifts by a third between loads here. */
export const besideHealth = async (base: string, send: (i: number) => Promise<unknown>) => {
  const health = await sequential(getter(`${base}/api/v1/health`));
  const seq = await sequential(send);
  return { seq, health, ratio: seq.p50 / Math.max(health.p50, 0.1) };
};

const commit = () => {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: PROJECT_DIR, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
};

/** "Measured <date> at <commit> on <cores> (<cpu>), Node <version>, 1-minute load average <n>" */
export const machineLine = () =>
  `Measured ${new Date().toISOString().slice(0, 10)} at ${commit()} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, 1-minute load average ${fmt(loadavg()[0] ?? 0, 2)} at the end`;

/** Replaces what lies between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`; BENCH_DOC=off leaves the file as it is. */
export const writeDoc = (name: string, section: string) => {
  process.stdout.write(`\n${section}\n`);
  if (process.env.BENCH_DOC === 'off') return;
  const file = join(PROJECT_DIR, 'docs/benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`docs/benchmarks.md lacks the ${start} ... ${end} markers`);
  writeFileSync(file, `${doc.slice(0, i + start.length)}\n${section}\n${doc.slice(j)}`);
};

/** Fields of /proc/<pid>/stat after the command's name (which may hold spaces): index 0 is field 3; undefined when it is gone. */
const procStat = (pid: number) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), rest: text.slice(text.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return undefined;
  }
};

/** CPU seconds (user + system) a process has used so far, or (`children`) its reaped children; clock ticks of 1/100 s, as Linux counts them. */
export const cpuSeconds = (pid: number, children = false) => {
  const rest = procStat(pid)?.rest;
  if (!rest) throw new Error(`process ${pid} is gone`);
  return (Number(rest[children ? 13 : 11]) + Number(rest[children ? 14 : 12])) / 100;
};

/** The ffmpeg processes `pid` started (any of its threads may have spawned them), with their command lines. */
export const ffmpegChildren = (pid: number) => {
  const found: Array<{ pid: number; cmdline: string }> = [];
  const read = (path: string) => {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      return '';
    }
  };
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    for (const child of read(`/proc/${pid}/task/${task}/children`).trim().split(/\s+/).filter(Boolean).map(Number)) {
      if (procStat(child)?.comm === 'ffmpeg') found.push({ pid: child, cmdline: read(`/proc/${child}/cmdline`).replaceAll('\0', ' ') });
    }
  }
  return found;
};

/** The peak RSS of any ffmpeg child of `pid` while `work` runs, every 50 ms (`also` sampled with it). */
export const ffmpegPeak = async <T>(pid: number, work: () => Promise<T>, also?: () => void) => {
  let peakRss = 0;
  const sample = () => {
    for (const child of ffmpegChildren(pid)) peakRss = Math.max(peakRss, rssMiB(child.pid));
    also?.();
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peakRss };
  } finally {
    clearInterval(timer);
  }
};

export const rssMiB = (pid: number) => {
  try {
    const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    return Math.round(kb / 1024);
  } catch {
    return 0;
  }
};

/** Peak RSS of each named process while `work` runs (and the first and last samples, to see growth). */
export const sampleRss = async <T>(pids: Record<string, number>, work: () => Promise<T>) => {
  const peak: Record<string, number> = {};
  const first: Record<string, number> = {};
  const last: Record<string, number> = {};
  const sample = () => {
    for (const [name, pid] of Object.entries(pids)) {
      const now = rssMiB(pid);
      first[name] ??= now;
      last[name] = now;
      peak[name] = Math.max(peak[name] ?? 0, now);
    }
  };
  sample();
  const timer = setInterval(sample, 200);
  try {
    const result = await work();
    sample();
    return { result, peak, first, last };
  } finally {
    clearInterval(timer);
  }
};

/** A markdown table. */
export const table = (head: string[], rows: ReadonlyArray<ReadonlyArray<string | number>>) =>
  [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');

/** The share of the machine's CPU time left idle over the next `ms` (from /proc/stat: the load average lags by minutes, this does not). */
export const idleShare = async (ms = 2000) => {
  const totals = () => readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const before = totals();
  await sleep(ms);
  const delta = totals().map((v, i) => v - before[i]!);
  const all = delta.reduce((a, b) => a + b, 0);
  return all > 0 ? (delta[3]! + delta[4]!) / all : 1; // idle + iowait
};
