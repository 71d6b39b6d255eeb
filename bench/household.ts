// The household part of `npm run bench` (`tsx bench/run.ts household` alone): the first scan of
// BENCH_ITEMS (10,000) sparse movie files while a household uses the box, as a client sees
// it: 20 browsing clients (the recent list, a sorted page, a search as typed, a film's
// details and health, one after another with no pause), 4 players reading 2 MiB ranges of
// films at random places, and 20 WebSocket listeners. The same load runs for 15 s with the
// library idle first. Reported: each request kind's p50/p99, every range's time (the slowest),
// errors, the events each listener got, and, measured on the same instance just before the
// scan, the database's bare batch-write rate (the scan's own items in its own steps, as the
// catalogue part measures it).
//
// The database calls of each kind of request: the handlers' DynamoDB client is pointed at a
// counting proxy (bench/ddb-proxy-process.ts, a process of its own) in front of the instance's
// own DynamoDB Local for the whole run (bench/handlers-dynamodb.cjs; BENCH_HOUSEHOLD_PROXY=off
// runs without it and counts nothing). Once the scan has finished and the catalogue is quiet,
// each kind is sent alone, BENCH_HOUSEHOLD_COUNT (50) requests one after another, and the calls
// that reached the database meanwhile are counted by operation. Then the same while a second
// scan of BENCH_ITEMS other films writes (BENCH_HOUSEHOLD_COUNT_IN_SCAN=off skips it): the calls
// seen less the scan's own, from its rate in a quiet second before and after each kind.
// Writes the household section of docs/benchmarks.md (not with BENCH_DOC=off).
//
// Smaller runs: BENCH_ITEMS=2000 BENCH_HOUSEHOLD_IDLE_S=5 BENCH_HOUSEHOLD_COUNT=20.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { PROJECT_DIR } from '../infra/project';
import { config } from '../lib/config';
import { WRITE_CHUNK } from '../lib/scan/phases/write';
import { discover } from '../lib/storage/discover';
import { startInstance } from '../test/support/instance';
import { measureBatchWrite } from './catalog';
import { operationOf, type DdbCall } from './ddb-calls';
import { proxyProcess, type ProxyProcess } from './ddb-proxy-process';
import { cpuSeconds, machineLine, percentile, table, writeDoc } from './support';
import { foldWords, generateMovies, searchQueries, writeTree } from './tree';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const BROWSERS = 20;
const PLAYERS = 4;
const LISTENERS = 20;
const RANGE_BYTES = 2 * 1024 * 1024;
const IDLE_S = Number(process.env.BENCH_HOUSEHOLD_IDLE_S ?? 15);
/** Requests of each kind, one after another, for the database's calls. */
const COUNT_REQUESTS = Number(process.env.BENCH_HOUSEHOLD_COUNT ?? 50);
const PROXY = process.env.BENCH_HOUSEHOLD_PROXY !== 'off';
const COUNT_IN_SCAN = PROXY && process.env.BENCH_HOUSEHOLD_COUNT_IN_SCAN !== 'off';
/** Bounds: a scan, the quiet after it, one kind's count, the scan's own rate around it. */
const SCAN_TIMEOUT_MS = 20 * 60_000;
const QUIET_MS = 1_000;
const QUIET_TIMEOUT_MS = 60_000;
const KIND_MAX_MS = 60_000;
const SCAN_RATE_WINDOW_MS = 1_000;
/** After the last answer of a kind, for what follows an answer (a write behind it) to land. */
const AFTER_MS = 200;
// Targets from the issue.
const BROWSE_P99_MAX_MS = 500;
const RANGE_MAX_MS = 1000;

const say = (line: string) => process.stdout.write(`[household] ${line}\n`);
const fmt = (n: number, digits = 0) => n.toFixed(digits);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Sample {
  kind: string;
  ms: number;
  ok: boolean;
}

const timed = async (kind: string, url: string, samples: Sample[], init?: RequestInit) => {
  const t0 = performance.now();
  try {
    const res = await fetch(url, init);
    await res.arrayBuffer();
    samples.push({ kind, ms: performance.now() - t0, ok: res.ok });
  } catch {
    samples.push({ kind, ms: performance.now() - t0, ok: false });
  }
};

interface Film {
  id: string;
  size: number;
}

/** A kind of request: its name and the request it makes the n-th time. */
interface Kind {
  kind: string;
  request: (n: number) => { path: string; init?: RequestInit };
}

/** Every prefix of a word, as a search box sends them while it is typed: "n", "ni", "nig", ... */
const typed = (word: string) => Array.from({ length: word.length }, (_, i) => word.slice(0, i + 1));

/** The word the broad search query begins: the commonest of five letters or more that starts so. */
const typedWord = (movies: ReturnType<typeof generateMovies>, broad: string) => {
  const counts = new Map<string, number>();
  for (const m of movies) for (const w of new Set(foldWords(m.title))) if (w.length >= 5 && w.startsWith(broad)) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? broad;
};

const get = (path: string) => ({ path });
const SORTED = '/api/v1/movies?sort=title&limit=30';
const FILTERED = '/api/v1/movies?sort=added&yearFrom=1990&yearTo=1999&limit=30';

/** What a browsing client asks, in turn (the details of the films given). */
const browsing = (films: Film[], prefixes: string[]): Kind[] => [
  { kind: 'recent list', request: () => get('/api/v1/movies?limit=30') },
  { kind: 'sorted page', request: () => get(SORTED) },
  { kind: 'search as typed', request: (n) => get(`/api/v1/search?query=${encodeURIComponent(prefixes[n % prefixes.length]!)}`) },
  { kind: 'details', request: (n) => get(`/api/v1/movies/${films[n % films.length]!.id}`) },
  { kind: 'health', request: () => get('/api/v1/health') },
];

/** A player's next 2 MiB at a random place of one of the films given. */
const range = (films: Film[]): Kind => ({
  kind: 'range',
  request: (n) => {
    const film = films[n % films.length]!;
    const start = Math.floor(Math.random() * (film.size - RANGE_BYTES));
    return { path: `/api/v1/stream/${film.id}`, init: { headers: { Range: `bytes=${start}-${start + RANGE_BYTES - 1}` } } };
  },
});

/** Runs the household's load until `until` settles; the samples of that time. */
const household = async (base: string, kinds: Kind[], playing: Film[], until: Promise<unknown>) => {
  const samples: Sample[] = [];
  let stop = false;
  void until.finally(() => (stop = true));
  const browser = async (n: number) => {
    for (let i = n; !stop; i++) {
      const kind = kinds[i % kinds.length]!;
      const { path, init } = kind.request(Math.floor(i / kinds.length) + n);
      await timed(kind.kind, `${base}${path}`, samples, init);
    }
  };
  const player = async (n: number) => {
    const ranges = range([playing[n % playing.length]!]);
    while (!stop) {
      const { path, init } = ranges.request(0);
      await timed(ranges.kind, `${base}${path}`, samples, init);
    }
  };
  const events: number[] = [];
  const sockets = await Promise.all(
    Array.from({ length: LISTENERS }, (_, i) =>
      new Promise<WebSocket>((resolve, reject) => {
        const ws = new WebSocket(`${base.replace('http', 'ws')}/ws`);
        events[i] = 0;
        ws.on('message', () => events[i]!++);
        ws.once('open', () => resolve(ws));
        ws.once('error', reject);
      }),
    ),
  );
  await Promise.all([...Array.from({ length: BROWSERS }, (_, i) => browser(i)), ...Array.from({ length: PLAYERS }, (_, i) => player(i)), until]);
  for (const ws of sockets) ws.close();
  return { samples, events };
};

interface Phase {
  what: string;
  seconds: number;
  samples: Sample[];
  events: number[];
  /** CPU seconds each process of the box used in the phase (the bench's own clients too). */
  cpu: Record<string, number>;
  /** The handlers' database calls in the phase, by operation. */
  calls?: DdbCall[];
}

const BENCH = 'the bench (clients)';
const PROXY_NAME = 'counting proxy';

/** CPU seconds of each process so far: the service's three, the counting proxy and this one (the clients). */
const cpuNow = (pids: Record<string, number>) => ({
  ...Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuSeconds(pid)])),
  [BENCH]: (process.cpuUsage().user + process.cpuUsage().system) / 1e6,
});

/** Where the phase's CPU went, and what the service spent per request. */
const cpuLine = (phase: Phase) => {
  const service = Object.entries(phase.cpu).filter(([name]) => name !== BENCH && name !== PROXY_NAME);
  const total = service.reduce((sum, [, s]) => sum + s, 0);
  const browsing = phase.samples.filter((s) => s.kind !== 'range').length;
  return `- ${phase.what}, CPU seconds: ${Object.entries(phase.cpu).map(([name, s]) => `${name} ${fmt(s, 1)}`).join(', ')} (2 cores: ${fmt(phase.seconds * 2, 1)} in all); the service's ${fmt(total, 1)} s over ${phase.samples.length} requests (${browsing} browsing)`;
};

/** `GetItem 1234, Query 56`: calls by operation, most first; per request when `per` is given. */
const byOperation = (calls: DdbCall[], per?: number, key: (c: DdbCall) => string = operationOf) => {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length ? entries.map(([k, n]) => `${k} ${per ? fmt(n / per, 2) : n}`).join(', ') : 'none';
};

const callsLine = (phase: Phase) =>
  phase.calls ? `- ${phase.what}, the handlers' database calls: ${phase.calls.length} (${fmt(phase.calls.length / phase.seconds, 0)}/s; ${byOperation(phase.calls)})` : undefined;

const rows = (phase: Phase) => {
  const kinds = [...new Set(phase.samples.map((s) => s.kind))];
  return kinds.map((kind) => {
    const of = phase.samples.filter((s) => s.kind === kind);
    const ms = of.map((s) => s.ms);
    const browse = kind !== 'range';
    const p99 = percentile(ms, 99);
    const max = Math.max(...ms);
    const met = browse ? p99 <= BROWSE_P99_MAX_MS : max <= RANGE_MAX_MS;
    return [phase.what, kind, of.length, fmt(percentile(ms, 50)), fmt(p99), fmt(max), of.filter((s) => !s.ok).length, browse ? `p99 ≤ ${BROWSE_P99_MAX_MS} ms` : `none over ${RANGE_MAX_MS} ms`, met ? 'yes' : 'no'];
  });
};

// ---- The database's calls per kind of request ---------------------------------------------

interface Count {
  kind: string;
  example: string;
  requests: number;
  errors: number;
  ms: number;
  calls: DdbCall[];
  /** While a scan writes: the calls the scan makes by itself in that time, by operation and key (its rate around the kind's requests). */
  scanOwn?: Map<string, number>;
}

/** Until no call has reached the database for QUIET_MS (at most QUIET_TIMEOUT_MS); false if it never went quiet. */
const settle = async (proxy: ProxyProcess) => {
  const deadline = performance.now() + QUIET_TIMEOUT_MS;
  while (performance.now() < deadline) {
    await proxy.take();
    await sleep(QUIET_MS);
    if ((await proxy.take()).length === 0) return true;
  }
  return false;
};

/** The calls a scan makes in SCAN_RATE_WINDOW_MS with nothing sent, by operation. */
const scanWindow = async (proxy: ProxyProcess) => {
  await proxy.take();
  const t0 = performance.now();
  await sleep(SCAN_RATE_WINDOW_MS);
  const calls = await proxy.take();
  return { calls, ms: performance.now() - t0 };
};

/**
 * Each kind alone, COUNT_REQUESTS requests one after another (after one not counted), and the
 * database calls meanwhile. Quiet: each kind once the database has had no call for a second.
 * While a scan writes (`scanning` says whether it still does): the scan's own calls, from a
 * quiet second before and after each kind, are taken out by their rate.
 */
const countCalls = async (base: string, proxy: ProxyProcess, kinds: Kind[], scanning?: () => boolean): Promise<Count[]> => {
  const counts: Count[] = [];
  for (const kind of kinds) {
    if (scanning && !scanning()) break;
    const send = async (n: number) => {
      const { path, init } = kind.request(n);
      const res = await fetch(`${base}${path}`, init);
      await res.arrayBuffer();
      return res.ok;
    };
    await send(COUNT_REQUESTS);
    if (!scanning && !(await settle(proxy))) say(`NOTE: ${kind.kind}: the database never went a second without a call in ${QUIET_TIMEOUT_MS / 1000} s`);
    const before = scanning ? await scanWindow(proxy) : undefined;
    await proxy.take();
    const t0 = performance.now();
    let requests = 0;
    let errors = 0;
    while (requests < COUNT_REQUESTS && performance.now() - t0 < KIND_MAX_MS && (!scanning || scanning())) {
      if (!(await send(requests).catch(() => false))) errors++;
      requests++;
    }
    await sleep(AFTER_MS);
    const calls = await proxy.take();
    const ms = performance.now() - t0;
    const count: Count = { kind: kind.kind, example: kind.request(0).path, requests, errors, ms, calls };
    if (before) {
      const after = await scanWindow(proxy);
      const ownMs = before.ms + after.ms;
      const own = new Map<string, number>();
      for (const c of [...before.calls, ...after.calls]) own.set(c.label, (own.get(c.label) ?? 0) + ms / ownMs);
      count.scanOwn = own;
    }
    say(`database calls, ${scanning ? 'while a scan writes' : 'quiet'}: ${kind.kind}: ${requests} requests, ${calls.length} calls (${byOperation(calls, requests)})${count.scanOwn ? `; the scan's own in that time ≈ ${fmt([...count.scanOwn.values()].reduce((a, b) => a + b, 0))}` : ''}`);
    counts.push(count);
  }
  return counts;
};

const quietTable = (counts: Count[], background: { calls: DdbCall[]; ms: number } | undefined) =>
  table(
    ['request (sent alone, one after another)', 'requests', 'errors', 'database calls', 'calls per request', 'by operation, per request', 'by operation and key, per request'],
    [
      ...(background ? [[`nothing sent, ${fmt(background.ms / 1000, 1)} s (calls the box makes by itself)`, 0, 0, background.calls.length, '-', byOperation(background.calls), byOperation(background.calls, undefined, (c) => c.label)]] : []),
      ...counts.map((c) => [`${c.kind}: \`GET ${c.example}\``, c.requests, c.errors, c.calls.length, fmt(c.calls.length / Math.max(c.requests, 1), 2), byOperation(c.calls, c.requests), byOperation(c.calls, c.requests, (x) => x.label)]),
    ],
  );

const scanTable = (counts: Count[]) =>
  table(
    ['request (sent alone while the scan writes)', 'requests', 'errors', 'seconds', 'database calls seen', "the scan's own in that time (its rate in a quiet second before and after)", 'calls per request, less the scan\'s own', 'by operation and key, per request, less the scan\'s own (calls seen / the scan\'s own)'],
    counts.map((c) => {
      const seen = new Map<string, number>();
      for (const x of c.calls) seen.set(x.label, (seen.get(x.label) ?? 0) + 1);
      const own = c.scanOwn ?? new Map<string, number>();
      const ownTotal = [...own.values()].reduce((a, b) => a + b, 0);
      const ops = [...new Set([...seen.keys(), ...own.keys()])].sort((a, b) => (seen.get(b) ?? 0) - (seen.get(a) ?? 0) || a.localeCompare(b));
      const per = (n: number) => fmt(n / Math.max(c.requests, 1), 2);
      return [
        `${c.kind}: \`GET ${c.example}\``, c.requests, c.errors, fmt(c.ms / 1000, 1), c.calls.length, fmt(ownTotal), per(c.calls.length - ownTotal),
        ops.map((op) => `${op} ${per((seen.get(op) ?? 0) - (own.get(op) ?? 0))} (${seen.get(op) ?? 0} / ${fmt(own.get(op) ?? 0)})`).join(', ') || 'none',
      ];
    }),
  );

// ---- The run ------------------------------------------------------------------------------

export const runHousehold = async () => {
  const loadBefore = fmt(loadavg()[0] ?? 0, 2);
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-household-'));
  const second = mkdtempSync(join(tmpdir(), 'mls-bench-household-second-'));
  const home = mkdtempSync(join(tmpdir(), 'mls-bench-household-films-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-household-data-'));
  const phases: Phase[] = [];
  const lines: string[] = [];
  let quiet: Count[] = [];
  let background: { calls: DdbCall[]; ms: number } | undefined;
  let inScan: Count[] = [];
  let batchWrite: { items: number; ms: number } | undefined;
  let words: string;
  let proxy: ProxyProcess | undefined;
  try {
    const movies = generateMovies(ITEMS);
    await writeTree(root, movies);
    if (COUNT_IN_SCAN) await writeTree(second, generateMovies(ITEMS, 20261201));
    // The files the batch writes below put, found as the scan finds them.
    const found = await discover(root, { limits: { maxEntries: config.scan.maxEntries, maxDepth: config.scan.maxDepth } });
    // The films the household already has (what the players play), in a library of their own.
    const playingMovies = generateMovies(PLAYERS, 7);
    await writeTree(home, playingMovies);
    proxy = PROXY ? await proxyProcess(dataDir) : undefined;
    const env: Record<string, string> = { RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: '' };
    if (proxy) Object.assign(env, { BENCH_HANDLERS_DYNAMODB_ENDPOINT: proxy.url, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --require ${join(PROJECT_DIR, 'bench/handlers-dynamodb.cjs')}`.trim() });
    const instance = await startInstance({ env, dataDir });
    try {
      const base = instance.url;
      const post = (path: string, body: unknown) => fetch(`${base}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then((r) => r.json() as Promise<any>);
      const job = async (jobId: string) => ((await (await fetch(`${base}/api/v1/scan/jobs/${jobId}`)).json()) as any).data;
      const waitJob = async (jobId: string) => {
        const deadline = performance.now() + SCAN_TIMEOUT_MS;
        for (;;) {
          const j = await job(jobId);
          if (j.status === 'completed') return j;
          if (j.status === 'failed' || j.status === 'interrupted') throw new Error(`scan ${j.status}: ${JSON.stringify(j.error)}`);
          if (performance.now() > deadline) throw new Error(`scan not completed after ${SCAN_TIMEOUT_MS / 60_000} min: ${JSON.stringify(j)}`);
          await sleep(200);
        }
      };
      const own = (await post('/api/v1/library', { name: 'Home', path: home, mediaType: 'movie' })).data;
      await waitJob((await post('/api/v1/scan/path', { path: home, mediaType: 'movie', libraryId: own.id })).data.jobId);
      const listed = ((await (await fetch(`${base}/api/v1/movies?limit=100`)).json()) as { data: { id: string }[] }).data;
      const details = async (ids: { id: string }[]) =>
        Promise.all(ids.map(async ({ id }) => {
          const d = ((await (await fetch(`${base}/api/v1/movies/${id}`)).json()) as { data: { file: { size: number } } }).data;
          return { id, size: d.file.size };
        }));
      const playing = await details(listed);
      if (playing.length !== PLAYERS) throw new Error(`the players' library lists ${playing.length} films of ${PLAYERS}`);
      const word = typedWord(movies, searchQueries(movies).broad);
      const prefixes = typed(word);
      words = `"${prefixes.join('", "')}"`;
      const kinds = browsing(playing, prefixes);
      // Each function's first request loads its bundle: not what the household waits for.
      for (const kind of [...kinds, range(playing)]) {
        const { path, init } = kind.request(0);
        await fetch(`${base}${path}`, init).then((r) => r.arrayBuffer());
      }

      const { processes } = instance.state();
      const pids: Record<string, number> = { 'runner (front door)': instance.child.pid!, 'serverless-offline (handlers)': processes.offline!, 'DynamoDB Local': processes.dynamodb! };
      if (proxy) pids[PROXY_NAME] = proxy.pid;
      const cpuSince = (before: Record<string, number>) => Object.fromEntries(Object.entries(cpuNow(pids)).map(([name, s]) => [name, s - before[name]!]));

      say(`idle: the household's load for ${IDLE_S} s`);
      let t0 = performance.now();
      let cpu0 = cpuNow(pids);
      await proxy?.take();
      const idle = await household(base, kinds, playing, sleep(IDLE_S * 1000));
      phases.push({ what: 'library idle', seconds: (performance.now() - t0) / 1000, ...idle, cpu: cpuSince(cpu0), calls: await proxy?.take() });

      // The database's own rate for this scan's writes, on this DynamoDB Local, just before the scan.
      await sleep(1000);
      batchWrite = await measureBatchWrite(instance, root, found);
      say(`the database's batch writes: ${batchWrite.items} items in ${fmt(batchWrite.ms / 1000, 2)} s, ${fmt(batchWrite.items / (batchWrite.ms / 1000))} items/s`);

      say(`the first scan of ${movies.length} films under the household's load`);
      const library = (await post('/api/v1/library', { name: 'Big', path: root, mediaType: 'movie' })).data;
      t0 = performance.now();
      cpu0 = cpuNow(pids);
      await proxy?.take();
      const first = (await post('/api/v1/scan/path', { path: root, mediaType: 'movie', libraryId: library.id })).data;
      const during = await household(base, kinds, playing, waitJob(first.jobId));
      phases.push({ what: `first scan of ${movies.length} films`, seconds: (performance.now() - t0) / 1000, ...during, cpu: cpuSince(cpu0), calls: await proxy?.take() });

      if (proxy) {
        // The big library's films for the details, and a sorted and filtered page beside the household's own.
        const big = ((await (await fetch(`${base}/api/v1/movies?limit=100`)).json()) as { data: { id: string }[] }).data.filter((m) => !playing.some((p) => p.id === m.id));
        const counted: Kind[] = [
          ...kinds.map((k) => (k.kind === 'details' ? { kind: 'details', request: (n: number) => get(`/api/v1/movies/${big[n % big.length]!.id}`) } : k)),
          { kind: 'sorted and filtered page', request: () => get(FILTERED) },
          range(playing),
        ];
        say('the database calls of each kind of request, the catalogue quiet');
        for (const kind of counted) await fetch(`${base}${kind.request(0).path}`, kind.request(0).init).then((r) => r.arrayBuffer());
        if (!(await settle(proxy))) say('NOTE: the database never went a second without a call after the scan');
        const b0 = performance.now();
        await sleep(2_000);
        background = { calls: await proxy.take(), ms: performance.now() - b0 };
        quiet = await countCalls(base, proxy, counted);

        if (COUNT_IN_SCAN) {
          say(`the same while a scan of ${ITEMS} other films writes`);
          const other = (await post('/api/v1/library', { name: 'Second', path: second, mediaType: 'movie' })).data;
          const scan = (await post('/api/v1/scan/path', { path: second, mediaType: 'movie', libraryId: other.id })).data;
          let done = false;
          const finished = waitJob(scan.jobId).finally(() => (done = true));
          finished.catch(() => undefined);
          // Counted once the job runs: queued, it writes nothing yet.
          const deadline = performance.now() + 30_000;
          while (!done && performance.now() < deadline && (await job(scan.jobId)).status === 'queued') await sleep(50);
          inScan = await countCalls(base, proxy, counted, () => !done);
          const left = counted.length - inScan.length;
          if (left) say(`NOTE: the scan finished before ${left} kinds were counted while it wrote`);
          await finished;
        }
      }
    } finally {
      await instance.stop();
    }
  } finally {
    await proxy?.close();
    await Promise.all([root, second, home, dataDir].map((d) => rm(d, { recursive: true, force: true })));
  }
  const scanPhase = phases[1];
  if (batchWrite && scanPhase) {
    const rate = batchWrite.items / (batchWrite.ms / 1000);
    const scanRate = ITEMS / scanPhase.seconds;
    lines.push(
      `- the database's bare batch writes, just before the scan: the scan's ${batchWrite.items} items put by the service's batch writer (25 a call, 4 calls in flight, ${WRITE_CHUNK} a step) into a table of the same shape on the instance's DynamoDB Local, nothing else running: ${fmt(batchWrite.ms / 1000, 1)} s, **${fmt(rate)} items/s**; the scan under the household's load: ${ITEMS} films in ${fmt(scanPhase.seconds, 1)} s, ${fmt(scanRate)} films/s (${fmt((100 * scanRate) / rate)}% of it)`,
    );
  }
  const proxyNote = PROXY
    ? ` The handlers' DynamoDB calls go through a counting proxy of ours (a process of its own, its hop in every call's time) in front of the instance's DynamoDB Local for the whole run.`
    : ' No counting proxy (BENCH_HOUSEHOLD_PROXY=off).';
  const section = [
    `${machineLine()}, 1-minute load average ${loadBefore} before and ${fmt(loadavg()[0] ?? 0, 2)} after the run. ${BROWSERS} browsing clients (each asks the recent list, a sorted page of 30, a search as typed (${words}, one after another), a film's details and health in turn, with no pause), ${PLAYERS} players (2 MiB ranges of sparse films at random places, one after another) and ${LISTENERS} WebSocket listeners, all in the bench process; no TMDB key.${proxyNote}`,
    '',
    ...phases.map((p) => `- ${p.what}: ${fmt(p.seconds, 1)} s; events per listener ${Math.min(...p.events)}-${Math.max(...p.events)}`),
    ...lines,
    ...phases.map(cpuLine),
    ...phases.map(callsLine).filter((l): l is string => l !== undefined),
    '',
    table(['while', 'request', 'requests', 'p50 ms', 'p99 ms', 'slowest ms', 'errors', 'target', 'met?'], phases.flatMap(rows)),
    ...(quiet.length
      ? [
          '',
          `The database calls of each kind of request, after the scan, the catalogue quiet (no call for a second before each kind): ${COUNT_REQUESTS} requests of each kind one after another (after one not counted), every DynamoDB call the handlers made meanwhile (and ${AFTER_MS} ms after the last answer), counted at the proxy. Keys: the partition key's entity.`,
          '',
          quietTable(quiet, background),
        ]
      : []),
    ...(inScan.length
      ? [
          '',
          `The same while a second scan (${ITEMS} other films, a library of their own, no other load) writes: an estimate. The scan's own calls in the same time, by operation and key, from its rate in a quiet second before and after each kind, are taken out; its writes come in bursts (a step of 25-item calls), so a few tenths either way per request are noise.`,
          '',
          scanTable(inScan),
        ]
      : []),
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  writeDoc('household', section);
};
