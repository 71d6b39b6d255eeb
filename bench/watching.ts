// The watch-state part of `npm run bench` (`tsx bench/run.ts watching` alone): what a player's
// progress reports and home's watch rows cost (lib/watching/), against health in the same run.
// One instance, a library of BENCH_ITEMS (10,000) sparse films as the catalogue part makes them
// and one of 200 shows of 2 seasons of 5 episodes; the household profile then has 1,000 films
// in progress (a report at 50 % each) and S01E01-E03 of every show played, so every show is
// being watched and has a next episode. Measured, each right after health in the same way:
// PUT /progress (a different film each time: every report written; and the same film again
// and again: coalesced), GET /continue and GET /next-up (limit 20), one request at a time for
// the p50 comparisons (with BENCH_WATCHING_LOAD=1 also autocannon for throughput); then home's
// four requests at once, as the web client makes them. Where the time goes: the handlers' own
// durations from the instance's log, and the DynamoDB calls of each kind of request (five of
// each), counted by a proxy of ours in front of the database for a second instance on the same
// table. Writes the watching section of docs/benchmarks.md.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startInstance, type Instance } from '../test/support/instance';
import { makeTree, waitForJob } from '../test/support/media';
import { countingProxy, type DdbCall } from './ddb-calls';
import { CONNECTIONS, DURATION_S, idleShare, load, machineLine, median, percentile, RUNS, table, writeDoc, type LoadResult } from './support';
import { generateMovies, pool, writeTree } from './tree';

const FILMS = Number(process.env.BENCH_ITEMS ?? 10_000);
const SHOWS = 200;
const SEASONS = 2;
const EPISODES = 5;
const IN_PROGRESS = 1_000;
const PLAYED_PER_SHOW = 3;
const DURATION = 6_000;
const IN_FLIGHT = 8;
const SEQUENTIAL = 200;
const WARM_UP = 10;
const HOME_LOADS = 20;
const HOME_WARM_UP = 2;
/** What the web client asks for: ui/watch-rows.tsx (LIMIT) and ui/shelf.tsx (PAGE), with the device's profile first. */
const ROW_LIMIT = 20;
const SHELF_PAGE = 30;
const PROFILE = 'default';
const SCAN_TIMEOUT_MS = 20 * 60_000;
/** Throughput under autocannon too: a minute and a half more, so not by default. */
const LOADED = process.env.BENCH_WATCHING_LOAD === '1';

// Targets from the issue.
const PROGRESS_FACTOR = 1.5;
const LIST_FACTOR = 2;
const HOME_MAX_MS = 1_000;

const say = (line: string) => process.stdout.write(`[watching] ${line}\n`);
const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const met = (ok: boolean) => (ok ? 'met' : 'not met');

class ApiError extends Error {}

/** One request; anything but the expected status throws with the request and the answer. */
const api = async (base: string, method: string, path: string, expect: number, body?: unknown): Promise<any> => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expect) throw new ApiError(`${method} ${path} -> ${res.status} (expected ${expect}): ${text.slice(0, 2000)}`);
  return text ? JSON.parse(text) : undefined;
};

const progressBody = { positionSeconds: DURATION / 2, durationSeconds: DURATION };
const progressPath = (id: string) => `/api/v1/progress/${encodeURIComponent(id)}?profileId=${PROFILE}`;
const CONTINUE = `/api/v1/continue?profileId=${PROFILE}&limit=${ROW_LIMIT}`;
const NEXT_UP = `/api/v1/next-up?profileId=${PROFILE}&limit=${ROW_LIMIT}`;
const HOME = [CONTINUE, NEXT_UP, `/api/v1/movies?profileId=${PROFILE}&limit=${SHELF_PAGE}`, `/api/v1/tvshows?profileId=${PROFILE}&limit=${SHELF_PAGE}`];

// ---- The library ----------------------------------------------------------------------

/** POST /scan/path (a library made for the path), then the job until it ends: the job and the wall time. */
const scanPath = async (base: string, path: string, mediaType: 'movie' | 'tvshow') => {
  const t0 = performance.now();
  const queued = await api(base, 'POST', '/api/v1/scan/path', 202, { path, mediaType });
  const job = await waitForJob(queued.data.jobId, base, SCAN_TIMEOUT_MS);
  const ms = performance.now() - t0;
  if (job.status !== 'completed') throw new ApiError(`scan of ${path}: job ${job.status}: ${JSON.stringify(job)}`);
  say(`scanned ${path} in ${fmt(ms / 1000)} s: ${JSON.stringify(job.counts)}`);
  return { job, ms };
};

/** Every entry of a recent list, a page of 100 at a time. */
const everyEntry = async (base: string, list: 'movies' | 'tvshows') => {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api(base, 'GET', `/api/v1/${list}?profileId=${PROFILE}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, 200);
    entries.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return entries;
};

interface Show {
  id: string;
  title: string;
  /** By (season, episode). */
  episodes: Map<string, string>;
}

const episodeKey = (season: number, episode: number) => `${season}x${episode}`;

const showTree = () => {
  const paths: string[] = [];
  for (let s = 1; s <= SHOWS; s++) {
    const name = `Show ${String(s).padStart(3, '0')}`;
    for (let season = 1; season <= SEASONS; season++) {
      for (let e = 1; e <= EPISODES; e++) paths.push(`${name}/Season ${season}/${name} S${String(season).padStart(2, '0')}E${String(e).padStart(2, '0')}.mkv`);
    }
  }
  return paths;
};

// ---- Measuring --------------------------------------------------------------------------

interface Sequential {
  p50: number;
  p99: number;
  /** Requests per second one at a time: SEQUENTIAL over the time they took together. */
  perSecond: number;
  /** Wall-clock window of the measured requests, to find their lines in the log. */
  from: number;
  to: number;
}

/** SEQUENTIAL requests one at a time after WARM_UP, each timed from the call to its body read. */
const sequential = async (send: (i: number) => Promise<void>): Promise<Sequential> => {
  for (let i = 0; i < WARM_UP; i++) await send(i);
  const times: number[] = [];
  const from = Date.now();
  for (let i = WARM_UP; i < WARM_UP + SEQUENTIAL; i++) {
    const t0 = performance.now();
    await send(i);
    times.push(performance.now() - t0);
  }
  const to = Date.now();
  return { p50: percentile(times, 50), p99: percentile(times, 99), perSecond: SEQUENTIAL / (times.reduce((a, b) => a + b, 0) / 1000), from, to };
};

const getter = (base: string, path: string) => async () => {
  const res = await fetch(`${base}${path}`);
  await res.arrayBuffer();
  if (res.status !== 200) throw new ApiError(`GET ${path} -> ${res.status}`);
};

const putter = (base: string, path: (i: number) => string) => async (i: number) => {
  const res = await fetch(`${base}${path(i)}`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(progressBody) });
  await res.arrayBuffer();
  if (res.status !== 200) throw new ApiError(`PUT ${path(i)} -> ${res.status}`);
};

/** load() of support.ts for requests it cannot make (a PUT to another film each time): the same warm-up, runs and median. */
const loadPuts = async (base: string, nextPath: () => string): Promise<LoadResult> => {
  const options = {
    url: base,
    connections: CONNECTIONS,
    requests: [{ method: 'PUT' as const, headers: { 'content-type': 'application/json' }, body: JSON.stringify(progressBody), setupRequest: (req: any) => ({ ...req, path: nextPath() }) }],
  };
  await autocannon({ ...options, duration: 2 });
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await autocannon({ ...options, duration: DURATION_S }));
  return {
    reqPerSec: median(runs.map((r) => r.requests.average)),
    p50: median(runs.map((r) => r.latency.p50)),
    p99: median(runs.map((r) => r.latency.p99)),
    errors: runs.reduce((n, r) => n + r.errors + r.non2xx, 0),
  };
};

/** The handlers' own time (the access log's durationMs) of the requests of a window, by path prefix. */
const handlerTimes = (dataDir: string, method: string, pathPrefix: string, window: { from: number; to: number }) => {
  const dir = join(dataDir, 'logs');
  const durations: number[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('"durationMs"') || !line.includes(pathPrefix)) continue;
      let record: any;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      const at = Date.parse(record.time);
      if (record.method === method && String(record.path).startsWith(pathPrefix) && at >= window.from && at <= window.to + 1000) durations.push(Number(record.durationMs));
    }
  }
  return { count: durations.length, p50: percentile(durations, 50) };
};

// ---- DynamoDB calls, counted ------------------------------------------------------------

interface Counted {
  what: string;
  /** Median over the repetitions, and the fewest and most seen. */
  calls: number;
  callsRange: [number, number];
  items: number;
  /** Groups of calls in flight together, one after the other: the round trips a request waits for. */
  rounds: number;
  /** The time at least one call was in flight, at the proxy. */
  busyMs: number;
  /** Each kind of call: how many per request, and its median time at the proxy. */
  labels: string;
}

/** Calls sent within this long of a group's first are of the group even if one of it has answered already. */
const SAME_ROUND_MS = 1;

const roundsOf = (calls: DdbCall[]) => {
  let rounds = 0;
  let busyMs = 0;
  let start = -Infinity;
  let end = -Infinity;
  for (const c of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    if (c.startedAt > end && c.startedAt - start > SAME_ROUND_MS) {
      if (rounds) busyMs += end - start;
      rounds++;
      start = c.startedAt;
    }
    end = Math.max(end, c.startedAt + c.ms);
  }
  if (rounds) busyMs += end - start;
  return { rounds, busyMs };
};

const summarize = (what: string, samples: DdbCall[][]): Counted => {
  // The front door counts requests in the table when instances share a database: not what a box on its own does.
  const own = samples.map((calls) => calls.filter((c) => c.label !== 'UpdateItem ratelimit'));
  const counts = own.map((calls) => calls.length);
  const shape = own.map(roundsOf);
  const tally = new Map<string, number[]>();
  for (const c of own.flat()) tally.set(c.label, [...(tally.get(c.label) ?? []), c.ms]);
  const labels = [...tally]
    .map(([label, times]) => {
      const perRequest = times.length / own.length;
      const n = Number.isInteger(perRequest) ? String(perRequest) : fmt(perRequest);
      return `${n === '1' ? '' : `${n}× `}${label} ${fmt(median(times))} ms`;
    })
    .join(', ');
  return {
    what,
    calls: median(counts),
    callsRange: [Math.min(...counts), Math.max(...counts)],
    items: median(own.map((calls) => calls.reduce((n, c) => n + c.items, 0))),
    rounds: median(shape.map((x) => x.rounds)),
    busyMs: median(shape.map((x) => x.busyMs)),
    labels,
  };
};

const COUNT_REPS = 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Each kind of request COUNT_REPS times through a second instance whose DynamoDB is the first
 * one's behind the counting proxy (same table, same data), after a warm-up request of its kind.
 */
const countCalls = async (first: Instance, films: string[]) => {
  const proxy = await countingProxy(first.state().dynamodbEndpoint);
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-watching-count-'));
  const second = await startInstance({ env: { RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: '', DYNAMODB_ENDPOINT: proxy.url }, dataDir });
  try {
    const base = second.url;
    const counted: Counted[] = [];
    // A coalesced report leaves a write a second later: after one, the next repetition waits for it.
    const one = async (what: string, send: (rep: number) => Promise<unknown>, prepare?: (rep: number) => Promise<unknown>, quietMs = 100) => {
      const samples: DdbCall[][] = [];
      for (let rep = 0; rep < COUNT_REPS; rep++) {
        await sleep(quietMs); // anything still in flight lands first
        await prepare?.(rep);
        proxy.calls.length = 0;
        await send(rep);
        await sleep(50);
        samples.push([...proxy.calls]);
      }
      const c = summarize(what, samples);
      counted.push(c);
      say(`DynamoDB: ${what}: ${c.calls} calls (${c.callsRange.join('-')}) in ${c.rounds} rounds, ${fmt(c.busyMs)} ms: ${c.labels}`);
    };
    const get = (path: string) => () => api(base, 'GET', path, 200);
    const put = (film: string) => () => api(base, 'PUT', progressPath(film), 200, progressBody);
    // Films no request of this instance has reported yet, four for each repetition.
    const film = (rep: number, k: number) => films[films.length - 1 - 4 * COUNT_REPS - 1 + 4 * rep + k]!;
    await get('/api/v1/health')();
    await one('GET /api/v1/health', get('/api/v1/health'));
    await put(films[0]!)(); // warm, and the thresholds read (kept a second)
    await one('PUT /api/v1/progress, a film not reported before', (rep) => put(film(rep, 0))());
    await one('PUT /api/v1/progress, a film this process wrote more than a second before (a player every 10 s)', (rep) => put(film(rep, 3))(), async (rep) => {
      await put(film(rep, 3))();
      await sleep(1_100);
    });
    await one('PUT /api/v1/progress, the same film again within the second (coalesced)', (rep) => put(film(rep, 1))(), (rep) => put(film(rep, 1))(), 1_200);
    await one(
      'the coalesced report, written by its timer a second after the last write',
      () => sleep(1_100),
      async (rep) => {
        await put(film(rep, 2))();
        await put(film(rep, 2))();
      },
      1_200,
    );
    for (const path of HOME) {
      await get(path)();
      await one(`GET ${path.replace(`profileId=${PROFILE}&`, '')}`, get(path));
    }
    return counted;
  } finally {
    await second.stop();
    await proxy.close();
    await rm(dataDir, { recursive: true, force: true });
  }
};

// ---- The run ------------------------------------------------------------------------------

interface Row {
  what: string;
  seq: Sequential;
  health: Sequential;
  loaded?: LoadResult;
  handler: { count: number; p50: number };
  healthHandler: { count: number; p50: number };
}

const measure = async () => {
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-watching-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'mls-bench-watching-data-'));
  const filmsRoot = join(root, 'films');
  const showsRoot = join(root, 'shows');
  const movies = generateMovies(FILMS);
  say(`writing ${movies.length} sparse films and ${SHOWS} shows of ${SEASONS}x${EPISODES} episodes under ${root}`);
  await writeTree(filmsRoot, movies);
  makeTree(showsRoot, showTree(), 700 * 2 ** 20);
  const instance = await startInstance({ env: { RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: '' }, dataDir });
  const base = instance.url;
  try {
    // 1. The catalogue.
    const filmScan = await scanPath(base, filmsRoot, 'movie');
    const showScan = await scanPath(base, showsRoot, 'tvshow');
    const films = (await everyEntry(base, 'movies')).map((e) => String(e.id));
    if (films.length !== FILMS) throw new ApiError(`${films.length} films listed after the scan, ${FILMS} on disk`);
    const showEntries = await everyEntry(base, 'tvshows');
    if (showEntries.length !== SHOWS) throw new ApiError(`${showEntries.length} shows listed after the scan, ${SHOWS} on disk`);
    const shows: Show[] = [];
    await pool(showEntries, IN_FLIGHT, async (entry) => {
      const detail = (await api(base, 'GET', `/api/v1/tvshows/${encodeURIComponent(entry.id)}?profileId=${PROFILE}`, 200)).data;
      const episodes = new Map<string, string>();
      for (const season of detail.seasons) for (const e of season.episodes) episodes.set(episodeKey(e.seasonNumber, e.episodeNumber), String(e.id));
      if (episodes.size !== SEASONS * EPISODES) throw new ApiError(`${entry.media?.title ?? entry.id}: ${episodes.size} episodes, ${SEASONS * EPISODES} on disk`);
      shows.push({ id: String(entry.id), title: String(entry.media?.title), episodes });
    });

    // 2. The household's state: films in progress, the first episodes of every show played.
    const seedStarted = performance.now();
    await pool(films.slice(0, IN_PROGRESS), IN_FLIGHT, (id) => api(base, 'PUT', progressPath(id), 200, progressBody));
    const progressSeedMs = performance.now() - seedStarted;
    const playedStarted = performance.now();
    const toPlay = shows.flatMap((s) => Array.from({ length: PLAYED_PER_SHOW }, (_, i) => s.episodes.get(episodeKey(1, i + 1))!));
    await pool(toPlay, IN_FLIGHT, (id) => api(base, 'POST', `/api/v1/played/${encodeURIComponent(id)}?profileId=${PROFILE}`, 200));
    const playedSeedMs = performance.now() - playedStarted;
    say(`seeded: ${IN_PROGRESS} progress reports in ${fmt(progressSeedMs / 1000)} s, ${toPlay.length} episodes marked played in ${fmt(playedSeedMs / 1000)} s (${IN_FLIGHT} in flight)`);
    const inProgress = (await everyEntry(base, 'movies')).filter((e) => e.userData.positionSeconds > 0).length;
    if (inProgress !== IN_PROGRESS) throw new ApiError(`${inProgress} films in progress after seeding, ${IN_PROGRESS} expected`);

    // What is measured answers as it should.
    const nextEpisodes = new Set(shows.map((s) => s.episodes.get(episodeKey(1, PLAYED_PER_SHOW + 1))!));
    const checkRows = async () => {
      const resume = (await api(base, 'GET', CONTINUE, 200)).data as any[];
      if (resume.length !== ROW_LIMIT || resume.some((e) => e.type !== 'movie' || e.userData.progress !== 0.5)) {
        throw new ApiError(`continue: ${resume.length} entries (${ROW_LIMIT} films at 50 % expected): ${JSON.stringify(resume.map((e) => [e.type, e.userData.progress]))}`);
      }
      const next = (await api(base, 'GET', NEXT_UP, 200)).data as any[];
      if (next.length !== ROW_LIMIT || next.some((e) => !nextEpisodes.has(e.id))) {
        throw new ApiError(`next-up: ${next.length} entries (${ROW_LIMIT} expected, each a show's S01E0${PLAYED_PER_SHOW + 1}): ${JSON.stringify(next.map((e) => [e.media.title, e.episode?.seasonNumber, e.episode?.episodeNumber]))}`);
      }
    };
    await checkRows();

    // 3. One at a time, each right after health.
    const health = getter(base, '/api/v1/health');
    const rows: Row[] = [];
    const withHealth = async (what: string, method: string, logPath: string, send: (i: number) => Promise<void>) => {
      const h = await sequential(health);
      const seq = await sequential(send);
      const row: Row = {
        what,
        seq,
        health: h,
        handler: handlerTimes(dataDir, method, logPath, seq),
        healthHandler: handlerTimes(dataDir, 'GET', '/api/v1/health', h),
      };
      say(`${what}: p50 ${fmt(seq.p50)} ms, p99 ${fmt(seq.p99)} ms, ${fmt(seq.perSecond, 0)} req/s one at a time; health just before p50 ${fmt(h.p50)} ms; p50 ${fmt(seq.p50 / h.p50, 2)}× health's; handler p50 ${fmt(row.handler.p50)} ms (${row.handler.count} log lines), health's ${fmt(row.healthHandler.p50)} ms`);
      rows.push(row);
      return row;
    };
    await withHealth(`GET /api/v1/continue?limit=${ROW_LIMIT}`, 'GET', '/api/v1/continue', getter(base, CONTINUE));
    await withHealth(`GET /api/v1/next-up?limit=${ROW_LIMIT}`, 'GET', '/api/v1/next-up', getter(base, NEXT_UP));

    // 4. Home: the four requests at once, until all four bodies are read.
    const homeLoads: Array<{ wall: number; each: number[] }> = [];
    for (let i = 0; i < HOME_WARM_UP + HOME_LOADS; i++) {
      const t0 = performance.now();
      const each = await Promise.all(
        HOME.map(async (path) => {
          const res = await fetch(`${base}${path}`);
          const body = (await res.json()) as any;
          if (res.status !== 200) throw new ApiError(`GET ${path} -> ${res.status}: ${JSON.stringify(body).slice(0, 1000)}`);
          const want = path.includes('limit=20') ? ROW_LIMIT : SHELF_PAGE;
          if (body.data.length !== want) throw new ApiError(`GET ${path}: ${body.data.length} entries, ${want} expected`);
          return performance.now() - t0;
        }),
      );
      if (i >= HOME_WARM_UP) homeLoads.push({ wall: performance.now() - t0, each });
    }
    const home = {
      median: median(homeLoads.map((l) => l.wall)),
      max: Math.max(...homeLoads.map((l) => l.wall)),
      each: HOME.map((_, j) => median(homeLoads.map((l) => l.each[j]!))),
    };
    say(`home, ${HOME_LOADS} loads of the four at once: median ${fmt(home.median)} ms, max ${fmt(home.max)} ms; each request's median within a load ${home.each.map((v) => fmt(v)).join(' / ')} ms`);

    // 5. Progress reports (these put more films in progress: after the rows above were measured).
    let nextFilm = IN_PROGRESS;
    const distinct = () => films[nextFilm++ % films.length]!;
    await withHealth('PUT /api/v1/progress, another film each time (every report written)', 'PUT', '/api/v1/progress', putter(base, () => progressPath(distinct())));
    // The films seeded in progress above, each reported again once, long after: as a player's report every 10 s is.
    let playing = 0;
    await withHealth('PUT /api/v1/progress, a film being played (reported here before, each written)', 'PUT', '/api/v1/progress', putter(base, () => progressPath(films[playing++ % IN_PROGRESS]!)));
    const same = films[FILMS - 1]!;
    await withHealth('PUT /api/v1/progress, the same film each time (coalesced but about one a second)', 'PUT', '/api/v1/progress', putter(base, () => progressPath(same)));
    await checkRows();

    // 6. Throughput (BENCH_WATCHING_LOAD=1): autocannon, as the other parts measure it.
    const byWhat = (prefix: string) => rows.find((r) => r.what.startsWith(prefix))!;
    // A load leaves requests queued behind it (next-up's most): the next one starts once health answers as it did alone.
    const quiet = async () => {
      const calm = 2 * Math.max(h0p50(), 1);
      const deadline = Date.now() + 60_000;
      for (let fast = 0; fast < 5 && Date.now() < deadline; ) {
        const t0 = performance.now();
        await health();
        fast = performance.now() - t0 < calm ? fast + 1 : 0;
        if (!fast) await new Promise((r) => setTimeout(r, 200));
      }
    };
    const h0p50 = () => rows[0]!.health.p50;
    const throughput = async (what: string, run: () => Promise<LoadResult>) => {
      await quiet();
      const r = await run();
      say(`load, ${CONNECTIONS} connections: ${what}: ${Math.round(r.reqPerSec)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}`);
      if (r.errors) throw new ApiError(`${what}: ${r.errors} errors or non-2xx answers under load`);
      return r;
    };
    let healthLoad: LoadResult | undefined;
    if (LOADED) {
      healthLoad = await throughput('health', () => load(`${base}/api/v1/health`));
      byWhat('GET /api/v1/continue').loaded = await throughput('continue', () => load(`${base}${CONTINUE}`));
      byWhat('GET /api/v1/next-up').loaded = await throughput('next-up', () => load(`${base}${NEXT_UP}`));
      byWhat('PUT /api/v1/progress, another').loaded = await throughput('progress, another film each time', () => loadPuts(base, () => progressPath(distinct())));
      await quiet();
    }

    // 7. Where the time goes: the DynamoDB calls of each.
    const calls = await countCalls(instance, films);
    return { filmScan, showScan, progressSeedMs, playedSeedMs, toPlay: toPlay.length, rows, healthLoad, home, calls };
  } catch (err) {
    process.stderr.write(`\n[watching] the instance's output, last 4000 characters:\n${instance.output().slice(-4000)}\n`);
    throw err;
  } finally {
    await instance.stop();
    await rm(root, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
};

export const runWatching = async () => {
  const started = performance.now();
  const idleBefore = await idleShare();
  const m = await measure();
  const idleAfter = await idleShare();
  const ms = (v: number) => fmt(v);
  const loadCell = (r?: LoadResult) => (!r ? '-' : r.reqPerSec > 0 ? `${Math.round(r.reqPerSec)} (p50 ${r.p50} ms)` : `none answered within a ${DURATION_S} s run`);
  const ratio = (r: Row) => r.seq.p50 / r.health.p50;
  const h0 = m.rows[0]!.health;
  const loadColumn = (r?: LoadResult) => (LOADED ? [loadCell(r)] : []);
  const tableRows: Array<Array<string | number>> = [
    [`GET /api/v1/health (right before the first row)`, ms(h0.p50), ms(h0.p99), fmt(h0.perSecond, 0), ...loadColumn(m.healthLoad), '-', ms(m.rows[0]!.healthHandler.p50)],
    ...m.rows.map((r) => [r.what, ms(r.seq.p50), ms(r.seq.p99), fmt(r.seq.perSecond, 0), ...loadColumn(r.loaded), `${fmt(ratio(r), 2)}× (${ms(r.health.p50)})`, `${ms(r.handler.p50)} (health ${ms(r.healthHandler.p50)})`]),
  ];
  const callRows = m.calls.map((c) => [c.what, c.callsRange[0] === c.callsRange[1] ? c.calls : `${c.calls} (${c.callsRange.join('-')})`, c.items, c.rounds, ms(c.busyMs), c.labels]);
  const homeCalls = m.calls.filter((c) => HOME.some((p) => c.what === `GET ${p.replace(`profileId=${PROFILE}&`, '')}`)).reduce((n, c) => n + c.calls, 0);
  const row = (prefix: string) => m.rows.find((r) => r.what.startsWith(prefix))!;
  const progress = row('PUT /api/v1/progress, another');
  const played = row('PUT /api/v1/progress, a film being played');
  const coalesced = row('PUT /api/v1/progress, the same');
  const resume = row('GET /api/v1/continue');
  const next = row('GET /api/v1/next-up');
  const homeMet = m.home.median < HOME_MAX_MS;
  const section = [
    `${machineLine()}. The part took ${fmt((performance.now() - started) / 1000, 0)} s; the CPUs were ${Math.round(100 * idleBefore)} % idle in the 2 s before it and ${Math.round(100 * idleAfter)} % in the 2 s after it.`,
    `One instance (no TMDB key); ${FILMS} sparse films scanned in ${fmt(m.filmScan.ms / 1000)} s and ${SHOWS} shows of ${SEASONS} seasons of ${EPISODES} episodes in ${fmt(m.showScan.ms / 1000)} s. The household profile: ${IN_PROGRESS} films in progress (a report at 50 % of ${DURATION} s each, ${fmt(m.progressSeedMs / 1000)} s) and S01E01-E0${PLAYED_PER_SHOW} of every show played (${m.toPlay} POST /played, ${fmt(m.playedSeedMs / 1000)} s), ${IN_FLIGHT} requests in flight.`,
    `p50 and p99: ${SEQUENTIAL} requests one at a time (after ${WARM_UP} not counted), from the call to the body read, each row right after ${SEQUENTIAL} of health measured the same way; continue and next-up before the progress rows (which put more films in progress). ${LOADED ? `Throughput: autocannon, ${CONNECTIONS} connections, median of ${RUNS} runs of ${DURATION_S} s after a 2 s warm-up, each once health answers as fast as alone again (a PUT to another film each time for the progress row; the coalesced case not loaded). ` : ''}Handler: the median durationMs of the instance's access log for the same requests.`,
    '',
    table(['request', 'p50 ms', 'p99 ms', 'req/s one at a time', ...(LOADED ? [`req/s at ${CONNECTIONS} connections`] : []), 'p50 ÷ health p50 (health p50 ms just before)', 'handler p50 ms'], tableRows),
    '',
    `Home: the web client's four requests at once (${HOME.map((p) => `\`${p.replace(`profileId=${PROFILE}&`, '')}\``).join(', ')}), until all four bodies are read; ${HOME_LOADS} loads after ${HOME_WARM_UP} not counted.`,
    '',
    table(
      ['measure', 'value'],
      [
        ['whole home: median / max', `${ms(m.home.median)} / ${ms(m.home.max)} ms`],
        ['each request within a load, median (continue / next-up / movies / tvshows)', `${m.home.each.map(ms).join(' / ')} ms`],
        ['DynamoDB calls of the four (counted below)', String(homeCalls)],
      ],
    ),
    '',
    `Where the time goes: the DynamoDB calls of each kind of request (median of ${COUNT_REPS}), counted by a proxy of ours in front of the database for a second instance on the same table (the front door's rate-limit writes left out: a box on its own counts in memory). Rounds: groups of calls in flight together, one after the other, which a request waits for in turn; times at the proxy, its hop included. On a box like this one (offline's handlers live on after they answer) a report's write and the \`userdata:changed\` fan-out (Query ws) follow its answer: they are counted here but the player does not wait for them; in a Lambda both come before the answer.`,
    '',
    table(['request', 'calls', 'items', 'rounds', 'ms with a call in flight', 'calls per request, median time of each'], callRows),
    '',
    `Against the targets (a progress report's p50 ≤ ${PROGRESS_FACTOR}× health's; continue and next-up ≤ ${LIST_FACTOR}× health's with ${IN_PROGRESS} items in progress and ${SHOWS} shows watched; home under ${HOME_MAX_MS / 1000} s with ${FILMS} films):`,
    `- progress report, each written: a film's first report p50 ${ms(progress.seq.p50)} ms, ${fmt(ratio(progress), 2)}× health's ${ms(progress.health.p50)} ms (${met(ratio(progress) <= PROGRESS_FACTOR)}); a film being played p50 ${ms(played.seq.p50)} ms, ${fmt(ratio(played), 2)}× health's ${ms(played.health.p50)} ms (${met(ratio(played) <= PROGRESS_FACTOR)}); coalesced (the same film): ${fmt(ratio(coalesced), 2)}× (${met(ratio(coalesced) <= PROGRESS_FACTOR)}).`,
    `- continue: p50 ${ms(resume.seq.p50)} ms, ${fmt(ratio(resume), 2)}× health's ${ms(resume.health.p50)} ms (${met(ratio(resume) <= LIST_FACTOR)}).`,
    `- next-up: p50 ${ms(next.seq.p50)} ms, ${fmt(ratio(next), 2)}× health's ${ms(next.health.p50)} ms (${met(ratio(next) <= LIST_FACTOR)}).`,
    `- home: median ${ms(m.home.median)} ms (${met(homeMet)}); the slowest of ${HOME_LOADS} loads ${ms(m.home.max)} ms (${m.home.max < HOME_MAX_MS ? 'every load under 1 s' : 'not every load under 1 s'}).`,
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  writeDoc('watching', section);
};
