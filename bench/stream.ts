// The streaming part of `npm run bench` (`tsx bench/run.ts stream` alone): a 1 GiB file, scanned
// into the shared stack (bench/library.ts) as a library of its own, read through the product's
// stream URL in 4 MiB ranges (one reader, then four at once) against nginx serving the same file
// in the same run, the time to first byte of a seek, and the RSS of every process while the
// bytes flow. Needs Debian's nginx (`apt-get install nginx-light`).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, openSync, closeSync, writeSync, writeFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { freePort } from '../infra/runner/ports';
import { stopGroup } from '../infra/runner/managed-process';
import { addLibrary, sharedLibrary } from './library';
import { machineLine, median, sampleRss, sayer, table, writeDoc } from './support';

const FILE_BYTES = Number(process.env.BENCH_STREAM_BYTES ?? 1024 ** 3);
const RANGE_BYTES = 4 * 1024 * 1024;
const SEEKS = 200;
const RUNS = 3;
const TARGET_RATIO = 0.5;
const TTFB_TARGET_MS = 50;

const say = sayer('stream');
const mbps = (bytes: number, ms: number) => bytes / 1e6 / (ms / 1000);

/** One ranged GET on a keep-alive agent: bytes received and time to the first byte. */
const get = (agent: Agent, url: string, range: string) =>
  new Promise<{ bytes: number; ttfbMs: number }>((resolve, reject) => {
    const t0 = performance.now();
    let ttfbMs = -1;
    let bytes = 0;
    const req = request(url, { agent, headers: { Range: range } }, (res) => {
      if (res.statusCode !== 206) reject(new Error(`${url} ${range}: ${res.statusCode}`));
      res.on('data', (chunk: Buffer) => {
        if (ttfbMs < 0) ttfbMs = performance.now() - t0;
        bytes += chunk.length;
      });
      res.on('end', () => resolve({ bytes, ttfbMs }));
    });
    req.on('error', reject);
    req.end();
  });

/** The whole file in RANGE_BYTES ranges, one after the other on one connection. */
const sequential = async (url: string) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  let bytes = 0;
  for (let start = 0; start < FILE_BYTES; start += RANGE_BYTES) {
    bytes += (await get(agent, url, `bytes=${start}-${Math.min(FILE_BYTES, start + RANGE_BYTES) - 1}`)).bytes;
  }
  agent.destroy();
  if (bytes !== FILE_BYTES) throw new Error(`${url}: read ${bytes} of ${FILE_BYTES} bytes`);
  return bytes;
};

/** MB/s of `readers` reading the whole file at once. */
const throughput = async (url: string, readers: number) => {
  const t0 = performance.now();
  const bytes = (await Promise.all(Array.from({ length: readers }, () => sequential(url)))).reduce((a, b) => a + b, 0);
  return mbps(bytes, performance.now() - t0);
};

/**
 * The kernel here reclaims page cache eagerly (a good part of a 1 GiB file is often gone a few
 * seconds after it was read), so every run starts from a file just read whole, and the two
 * servers take turns: neither profits from the other's reads, and both see the same machine.
 */
const warm = (path: string) => execFileSync('cat', [path], { stdio: ['ignore', 'ignore', 'ignore'] });

const compare = async (path: string, urls: { ours: string; theirs: string }, readers: number) => {
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    warm(path);
    ours.push(await throughput(urls.ours, readers));
    warm(path);
    theirs.push(await throughput(urls.theirs, readers));
  }
  return { ours: median(ours), theirs: median(theirs), runs: { ours, theirs } };
};

const seeks = async (url: string) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  for (let i = 0; i < SEEKS; i++) {
    const start = Math.floor(Math.random() * (FILE_BYTES - 65_536));
    times.push((await get(agent, url, `bytes=${start}-${start + 65_535}`)).ttfbMs);
  }
  agent.destroy();
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(SEEKS * 0.5)]!, p99: times[Math.floor(SEEKS * 0.99)]! };
};

const writeFile = (path: string) => {
  const block = randomBytes(RANGE_BYTES);
  const fd = openSync(path, 'w');
  for (let written = 0; written < FILE_BYTES; written += RANGE_BYTES) writeSync(fd, block, 0, Math.min(RANGE_BYTES, FILE_BYTES - written));
  closeSync(fd);
};

const startNginx = async (root: string) => {
  const port = await freePort();
  const prefix = mkdtempSync(join(tmpdir(), 'mls-bench-nginx-'));
  writeFileSync(
    join(prefix, 'nginx.conf'),
    `user root; worker_processes 1; daemon off; pid ${prefix}/nginx.pid; error_log ${prefix}/error.log;
events { worker_connections 256; }
http { access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000;
  server { listen 127.0.0.1:${port}; root ${root}; location / { } } }
`,
  );
  const child = spawn('nginx', ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: 'ignore', detached: true });
  await new Promise((r) => setTimeout(r, 500));
  return { port, child, prefix };
};

export const runStream = async () => {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
  } catch {
    throw new Error('the streaming bench compares with nginx: apt-get install nginx-light');
  }
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-stream-'));
  chmodSync(root, 0o755);
  const name = 'Bench Stream (2020).mkv';
  say(`writing a ${FILE_BYTES} byte file`);
  writeFile(join(root, name));
  const shared = await sharedLibrary();
  const nginx = await startNginx(root);
  try {
    const { entries } = await addLibrary(root, 'movie', 1);
    const stream = `${shared.base}/api/v1/stream/${entries[0].id}`;
    const direct = `http://127.0.0.1:${nginx.port}/${encodeURIComponent(name)}`;
    const pids = { ...shared.pids, nginx: nginx.child.pid!, bench: process.pid };

    const path = join(root, name);
    const urls = { ours: stream, theirs: direct };
    say('1 reader, then 4 readers, then seeks; the stream URL and nginx take turns');
    const sampled = await sampleRss(pids, async () => {
      const one = await compare(path, urls, 1);
      const four = await compare(path, urls, 4);
      warm(path);
      return { one, four, seek: { ours: await seeks(stream), theirs: await seeks(direct) } };
    });
    const { one, four, seek } = sampled.result;
    const runs = (r: { ours: number[]; theirs: number[] }) =>
      `${r.ours.map(Math.round).join(', ')} / ${r.theirs.map(Math.round).join(', ')}`;
    const row = (label: string, r: typeof one) => [
      label,
      Math.round(r.ours),
      Math.round(r.theirs),
      runs(r.runs),
      (r.ours / r.theirs).toFixed(2),
      `≥ ${TARGET_RATIO}`,
      r.ours / r.theirs >= TARGET_RATIO ? 'yes' : 'no',
    ];
    writeDoc(
      'stream',
      [
        `${machineLine()}. A ${(FILE_BYTES / 1024 ** 3).toFixed(2)} GiB file, read whole (\`cat\`) before each run so it starts in the page cache; ${RUNS} runs per row with the two servers taking turns (median), ${SEEKS} seeks; about ${Math.round((FILE_BYTES * RUNS * 5) / 1024 ** 3)} GiB went through the stream URL while the RSS was sampled.`,
        '',
        table(
          ['reader', 'stream URL MB/s', 'nginx MB/s', 'runs: stream URL / nginx', 'ratio', 'target', 'met?'],
          [row(`1 connection, ${RANGE_BYTES / 1048576} MiB ranges`, one), row('4 readers at once (total)', four)],
        ),
        '',
        `A seek, the time to the first byte of a 64 KiB range at a random offset: stream URL p50 ${seek.ours.p50.toFixed(1)} ms, p99 ${seek.ours.p99.toFixed(1)} ms (target p50 < ${TTFB_TARGET_MS} ms: ${seek.ours.p50 < TTFB_TARGET_MS ? 'met' : 'not met'}); nginx p50 ${seek.theirs.p50.toFixed(1)} ms, p99 ${seek.theirs.p99.toFixed(1)} ms.`,
        '',
        `RSS MiB at the start / at the end / peak: ${Object.keys(pids)
          .map((k) => `${k} ${sampled.first[k] ?? '-'} / ${sampled.last[k] ?? '-'} / ${sampled.peak[k] ?? '-'}`)
          .join('; ')}.`,
      ].join('\n'),
    );
  } finally {
    await stopGroup(nginx.child.pid!, 2_000);
    rmSync(root, { recursive: true, force: true });
    rmSync(nginx.prefix, { recursive: true, force: true });
  }
};
