// The watch-state part of `npm run bench` (`tsx bench/run.ts watching` alone): what a player's
// progress reports and home's watch rows cost (lib/watching/), against health in the same run.
// On the shared library (bench/library.ts) with 200 shows of 2 seasons of 5 episodes scanned in
// as a library of their own; the household profile then has 1,000 films in progress (a report
// at 50 % each) and S01E01-E03 of every show played, so every show has a next episode.
// Measured, each right after health: GET /continue and GET /next-up (limit 20), PUT /progress
// (another film each time, a film being played, the same film again: coalesced), one request
// at a time; home's four requests at once, as the web client makes them; the handlers' own
// durations from the instance's log; and the DynamoDB calls of each kind of request (five of
// each) at the shared counting proxy.
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTree } from '../test/support/media';
import type { DdbCall } from './ddb-proxy';
import { addLibrary, sharedLibrary } from './library';
import {
  api,
  besideHealth,
  fmt,
  getter,
  machineLine,
  median,
  percentile,
  sayer,
  SEQUENTIAL,
  sleep,
  table,
  WARM_UP,
  writeDoc,
} from './support';
import { pool } from './tree';

const SHOWS = 200;
const SEASONS = 2;
const EPISODES = 5;
const PLAYED_PER_SHOW = 3;
const DURATION = 6_000;
const IN_FLIGHT = 8;
const HOME_LOADS = 20;
const HOME_WARM_UP = 2;
const COUNT_REPS = 5;
/** What the web client asks for: ui/watch-rows.tsx (LIMIT) and ui/shelf.tsx (PAGE), with the device's profile. */
const ROW_LIMIT = 20;
const SHELF_PAGE = 30;
const PROFILE = 'default';
// Targets from the issue.
const PROGRESS_FACTOR = 1.5;
const LIST_FACTOR = 2;
const HOME_MAX_MS = 1_000;

const say = sayer('watching');
const met = (ok: boolean) => (ok ? 'met' : 'not met');

const progressBody = { positionSeconds: DURATION / 2, durationSeconds: DURATION };
const progressPath = (id: string) => `/api/v1/progress/${encodeURIComponent(id)}?profileId=${PROFILE}`;
const CONTINUE = `/api/v1/continue?profileId=${PROFILE}&limit=${ROW_LIMIT}`;
const NEXT_UP = `/api/v1/next-up?profileId=${PROFILE}&limit=${ROW_LIMIT}`;
const HOME = [
  CONTINUE,
  NEXT_UP,
  `/api/v1/movies?profileId=${PROFILE}&limit=${SHELF_PAGE}`,
  `/api/v1/tvshows?profileId=${PROFILE}&limit=${SHELF_PAGE}`,
];
const shown = (path: string) => path.replace(`profileId=${PROFILE}&`, '');

/** Every entry of a recent list, a page of 100 at a time. */
const everyEntry = async (base: string, list: 'movies' | 'tvshows') => {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api(
      base,
      'GET',
      `/api/v1/${list}?profileId=${PROFILE}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      200,
    );
    entries.push(...page.data);
    cursor = page.meta.nextCursor;
  } while (cursor);
  return entries;
};

const showTree = () =>
  Array.from({ length: SHOWS }, (_, s) => `Show ${String(s + 1).padStart(3, '0')}`).flatMap((name) =>
    Array.from({ length: SEASONS * EPISODES }, (_, i) => {
      const [season, e] = [1 + Math.floor(i / EPISODES), 1 + (i % EPISODES)];
      return `${name}/Season ${season}/${name} S${String(season).padStart(2, '0')}E${String(e).padStart(2, '0')}.mkv`;
    }),
  );

/** The handlers' own time (the access log's durationMs) of the requests of a window, by path prefix. */
const handlerP50 = (dataDir: string, method: string, pathPrefix: string, window: { from: number; to: number }) => {
  const dir = join(dataDir, 'logs');
  const durations: number[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.log'))) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line.includes('"durationMs"') || !line.includes(pathPrefix)) continue;
      try {
        const r = JSON.parse(line);
        const at = Date.parse(r.time);
        if (r.method === method && String(r.path).startsWith(pathPrefix) && at >= window.from && at <= window.to + 1000)
          durations.push(Number(r.durationMs));
      } catch {
        // not a record
      }
    }
  }
  return percentile(durations, 50);
};

/** Groups of calls in flight together, one after the other (the round trips a request waits for), and the time one was in flight. */
const roundsOf = (calls: DdbCall[]) => {
  let [rounds, busyMs, start, end] = [0, 0, -Infinity, -Infinity];
  for (const c of [...calls].sort((a, b) => a.startedAt - b.startedAt)) {
    // Calls sent within a millisecond of a group's first are of the group even if one has answered.
    if (c.startedAt > end && c.startedAt - start > 1) {
      if (rounds) busyMs += end - start;
      rounds++;
      start = c.startedAt;
    }
    end = Math.max(end, c.startedAt + c.ms);
  }
  return { rounds, busyMs: rounds ? busyMs + end - start : 0 };
};

const summarize = (what: string, samples: DdbCall[][]) => {
  const counts = samples.map((calls) => calls.length);
  const shape = samples.map(roundsOf);
  const times = new Map<string, number[]>();
  for (const c of samples.flat()) times.set(c.label, [...(times.get(c.label) ?? []), c.ms]);
  const labels = [...times].map(([label, ms]) => {
    const n = ms.length / samples.length;
    return `${n === 1 ? '' : `${Number.isInteger(n) ? n : fmt(n)}× `}${label} ${fmt(median(ms))} ms`;
  });
  return [
    what,
    `${median(counts)}${Math.min(...counts) === Math.max(...counts) ? '' : ` (${Math.min(...counts)}-${Math.max(...counts)})`}`,
    median(samples.map((s) => s.reduce((n, c) => n + c.items, 0))),
    median(shape.map((x) => x.rounds)),
    fmt(median(shape.map((x) => x.busyMs))),
    labels.join(', '),
  ];
};

export const runWatching = async () => {
  const s = await sharedLibrary();
  const { base, proxy } = s;
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-shows-'));
  try {
    makeTree(root, showTree(), 700 * 2 ** 20);
    const showScan = await addLibrary(root, 'tvshow', 0);
    const films = (await everyEntry(base, 'movies')).map((e) => String(e.id));
    const inProgress = Math.min(1_000, Math.floor(films.length / 5));
    const shows = await Promise.all(
      (await everyEntry(base, 'tvshows')).map(async (entry) => {
        const detail = (await api(base, 'GET', `/api/v1/tvshows/${encodeURIComponent(entry.id)}?profileId=${PROFILE}`, 200)).data;
        return new Map<string, string>(
          detail.seasons.flatMap((season: any) => season.episodes.map((e: any) => [`${e.seasonNumber}x${e.episodeNumber}`, String(e.id)])),
        );
      }),
    );
    if (shows.length !== SHOWS || shows.some((e) => e.size !== SEASONS * EPISODES))
      throw new Error(`${shows.length} shows listed, ${SHOWS} of ${SEASONS * EPISODES} episodes expected`);

    // The household's state: films in progress, the first episodes of every show played.
    let t0 = performance.now();
    await pool(films.slice(0, inProgress), IN_FLIGHT, (id) => api(base, 'PUT', progressPath(id), 200, progressBody));
    const progressSeedMs = performance.now() - t0;
    const toPlay = shows.flatMap((e) => Array.from({ length: PLAYED_PER_SHOW }, (_, i) => e.get(`1x${i + 1}`)!));
    t0 = performance.now();
    await pool(toPlay, IN_FLIGHT, (id) => api(base, 'POST', `/api/v1/played/${encodeURIComponent(id)}?profileId=${PROFILE}`, 200));
    const playedSeedMs = performance.now() - t0;
    const nextEpisodes = new Set(shows.map((e) => e.get(`1x${PLAYED_PER_SHOW + 1}`)!));
    const checkRows = async () => {
      const resume = (await api(base, 'GET', CONTINUE, 200)).data as any[];
      if (resume.length !== ROW_LIMIT || resume.some((e) => e.type !== 'movie' || e.userData.progress !== 0.5))
        throw new Error(`continue: ${JSON.stringify(resume.map((e) => [e.type, e.userData.progress]))}`);
      const next = (await api(base, 'GET', NEXT_UP, 200)).data as any[];
      if (next.length !== ROW_LIMIT || next.some((e) => !nextEpisodes.has(e.id)))
        throw new Error(`next-up: ${next.length} entries, not each a show's next episode`);
    };
    await checkRows();

    // One at a time, each right after health.
    const rows: Array<{ what: string; r: Awaited<ReturnType<typeof besideHealth>>; handler: number; healthHandler: number }> = [];
    const row = async (what: string, method: string, prefix: string, send: (i: number) => Promise<unknown>) => {
      const r = await besideHealth(base, send);
      const handler = handlerP50(s.instance.dataDir, method, prefix, r.seq);
      rows.push({ what, r, handler, healthHandler: handlerP50(s.instance.dataDir, 'GET', '/api/v1/health', r.health) });
      say(`${what}: p50 ${fmt(r.seq.p50)} ms, ${fmt(r.ratio, 2)}× health's; handler p50 ${fmt(handler)} ms`);
    };
    const put = (path: (i: number) => string) => (i: number) => api(base, 'PUT', path(i), 200, progressBody);
    await row(`GET /api/v1/continue?limit=${ROW_LIMIT}`, 'GET', '/api/v1/continue', getter(`${base}${CONTINUE}`));
    await row(`GET /api/v1/next-up?limit=${ROW_LIMIT}`, 'GET', '/api/v1/next-up', getter(`${base}${NEXT_UP}`));

    // Home: the four requests at once, until all four bodies are read.
    const loads: Array<{ wall: number; each: number[] }> = [];
    for (let i = 0; i < HOME_WARM_UP + HOME_LOADS; i++) {
      const start = performance.now();
      const each = await Promise.all(
        HOME.map(async (path) => {
          const body = await api(base, 'GET', path, 200);
          if (body.data.length !== (path.includes(`limit=${ROW_LIMIT}`) ? ROW_LIMIT : SHELF_PAGE))
            throw new Error(`GET ${path}: ${body.data.length} entries`);
          return performance.now() - start;
        }),
      );
      if (i >= HOME_WARM_UP) loads.push({ wall: performance.now() - start, each });
    }
    const home = {
      median: median(loads.map((l) => l.wall)),
      max: Math.max(...loads.map((l) => l.wall)),
      each: HOME.map((_, j) => median(loads.map((l) => l.each[j]!))),
    };

    // Progress reports (these put more films in progress: after the rows above).
    let next = inProgress;
    await row(
      'PUT /api/v1/progress, another film each time (every report written)',
      'PUT',
      '/api/v1/progress',
      put(() => progressPath(films[next++ % films.length]!)),
    );
    await row(
      'PUT /api/v1/progress, a film being played (reported long before, each written)',
      'PUT',
      '/api/v1/progress',
      put((i) => progressPath(films[i % inProgress]!)),
    );
    await row(
      'PUT /api/v1/progress, the same film each time (coalesced, about one write a second)',
      'PUT',
      '/api/v1/progress',
      put(() => progressPath(films.at(-1)!)),
    );
    await checkRows();

    // Where the time goes: the DynamoDB calls of each, at the shared proxy.
    const counted: Array<Array<string | number>> = [];
    const one = async (
      what: string,
      send: (rep: number) => Promise<unknown>,
      prepare?: (rep: number) => Promise<unknown>,
      quietMs = 100,
    ) => {
      const samples: DdbCall[][] = [];
      for (let rep = 0; rep < COUNT_REPS; rep++) {
        await sleep(quietMs); // anything still in flight lands first
        await prepare?.(rep);
        await proxy.take();
        await send(rep);
        await sleep(50);
        samples.push(await proxy.take());
      }
      counted.push(summarize(what, samples));
    };
    // Films no request has reported yet, four for each repetition.
    const film = (rep: number, k: number) => films[films.length - 2 - 4 * COUNT_REPS + 4 * rep + k]!;
    const report = (id: string) => api(base, 'PUT', progressPath(id), 200, progressBody);
    await one('GET /api/v1/health', getter(`${base}/api/v1/health`));
    await one('PUT /api/v1/progress, a film not reported before', (rep) => report(film(rep, 0)));
    await one(
      'PUT /api/v1/progress, a film reported more than a second before (a player every 10 s)',
      (rep) => report(film(rep, 3)),
      async (rep) => {
        await report(film(rep, 3));
        await sleep(1_100);
      },
    );
    await one(
      'PUT /api/v1/progress, the same film again within the second (coalesced)',
      (rep) => report(film(rep, 1)),
      (rep) => report(film(rep, 1)),
      1_200,
    );
    await one(
      'the coalesced report, written by its timer a second after the last write',
      () => sleep(1_100),
      async (rep) => {
        await report(film(rep, 2));
        await report(film(rep, 2));
      },
      1_200,
    );
    for (const path of HOME) await one(`GET ${shown(path)}`, getter(`${base}${path}`));

    const by = (prefix: string) => rows.find((x) => x.what.startsWith(prefix))!;
    const target = (prefix: string, factor: number) =>
      `p50 ${fmt(by(prefix).r.seq.p50)} ms, ${fmt(by(prefix).r.ratio, 2)}× health's (${met(by(prefix).r.ratio <= factor)})`;
    writeDoc(
      'watching',
      [
        `${machineLine()}. The shared library's ${films.length} films and ${SHOWS} shows of ${SEASONS} seasons of ${EPISODES} episodes (scanned in ${fmt(showScan.ms / 1000)} s). The household profile: ${inProgress} films in progress (a report at 50 % each, ${fmt(progressSeedMs / 1000)} s) and S01E01-E0${PLAYED_PER_SHOW} of every show played (${toPlay.length} POST /played, ${fmt(playedSeedMs / 1000)} s), ${IN_FLIGHT} requests in flight.`,
        `p50 and p99: ${SEQUENTIAL} requests one at a time (after ${WARM_UP} not counted), each row right after ${SEQUENTIAL} of health measured the same way. Handler: the median durationMs of the instance's access log for the same requests.`,
        '',
        table(
          ['request', 'p50 ms', 'p99 ms', 'req/s one at a time', 'p50 ÷ health p50 (health p50 ms)', 'handler p50 ms (health)'],
          rows.map(({ what, r, handler, healthHandler }) => [
            what,
            fmt(r.seq.p50),
            fmt(r.seq.p99),
            fmt(r.seq.perSecond, 0),
            `${fmt(r.ratio, 2)}× (${fmt(r.health.p50)})`,
            `${fmt(handler)} (${fmt(healthHandler)})`,
          ]),
        ),
        '',
        `Home: the web client's four requests at once (${HOME.map((p) => `\`${shown(p)}\``).join(', ')}), until all four bodies are read; ${HOME_LOADS} loads after ${HOME_WARM_UP} not counted: median ${fmt(home.median)} ms, slowest ${fmt(home.max)} ms; each request's median within a load ${home.each.map((v) => fmt(v)).join(' / ')} ms.`,
        '',
        `The DynamoDB calls of each kind of request (median of ${COUNT_REPS}), at the counting proxy. Rounds: groups of calls in flight together, one after the other, which a request waits for in turn; times at the proxy, its hop included. At home a report's write and the \`userdata:changed\` fan-out (Query ws) follow its answer; in a Lambda both come before it.`,
        '',
        table(['request', 'calls', 'items', 'rounds', 'ms with a call in flight', 'calls per request, median time of each'], counted),
        '',
        `Against the targets: a progress report ≤ ${PROGRESS_FACTOR}× health's p50: another film each time ${target('PUT /api/v1/progress, another', PROGRESS_FACTOR)}; a film being played ${target('PUT /api/v1/progress, a film', PROGRESS_FACTOR)}; coalesced ${target('PUT /api/v1/progress, the same', PROGRESS_FACTOR)}. Continue and next-up ≤ ${LIST_FACTOR}×: ${target('GET /api/v1/continue', LIST_FACTOR)}; ${target('GET /api/v1/next-up', LIST_FACTOR)}. Home under ${HOME_MAX_MS / 1000} s: ${met(home.median < HOME_MAX_MS)}.`,
      ].join('\n'),
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
};
