// What both parts of `npm run bench` share: the autocannon load with its warm-up and median,
// the machine line, and rewriting one marked section of docs/benchmarks.md.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { PROJECT_DIR } from '../infra/project';
import type { FakeTmdbServer } from '../test/support/fake-tmdb';
import { startInstance } from '../test/support/instance';

export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
export const RUNS = 3;
export const CONNECTIONS = 16;

/** The value below which a share `p` (0-100) of the values lie, nearest rank. */
export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
};

export const median = (values: number[]) => percentile(values, 50);

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
    reqPerSec: median(runs.map((r) => r.requests.average)),
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
    errors: runs.reduce((n, r) => n + r.errors + r.non2xx, 0),
  };
};

/** "Measured <date> on <cores> (<cpu>), Node <version>" */
export const machineLine = () =>
  `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}`;

/** Replaces what lies between `<!-- bench:<name>:start -->` and `<!-- bench:<name>:end -->`; BENCH_DOC=off leaves the file as it is (a smoke run, or figures to paste by hand). */
export const writeDoc = (name: string, section: string) => {
  if (process.env.BENCH_DOC === 'off') {
    process.stdout.write(`(BENCH_DOC=off: the ${name} section of docs/benchmarks.md left as it is)\n`);
    return;
  }
  const file = join(PROJECT_DIR, 'docs/benchmarks.md');
  const doc = readFileSync(file, 'utf8');
  const start = `<!-- bench:${name}:start -->`;
  const end = `<!-- bench:${name}:end -->`;
  const i = doc.indexOf(start);
  const j = doc.indexOf(end);
  if (i < 0 || j < 0) throw new Error(`docs/benchmarks.md lacks the ${start} ... ${end} markers`);
  writeFileSync(file, `${doc.slice(0, i + start.length)}\n${section}\n${doc.slice(j)}`);
};

/** CPU seconds (user + system) a process has used so far (clock ticks of 1/100 s, as Linux counts them). */
export const cpuSeconds = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
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
  await new Promise((resolve) => setTimeout(resolve, ms));
  const delta = totals().map((v, i) => v - before[i]!);
  const all = delta.reduce((a, b) => a + b, 0);
  return all > 0 ? (delta[3]! + delta[4]!) / all : 1; // idle + iowait
};

/** An instance that asks a fake TMDB of ours (with a key it accepts), unlimited by the rate limit, in a data folder of its own for the caller to remove. */
export const startWithFakeTmdb = async (tmdb: FakeTmdbServer, key: string) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-data-'));
  const instance = await startInstance({
    dataDir,
    env: { RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: key, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl },
  });
  return { instance, dataDir };
};
