// The browse part of `npm run bench` (`tsx bench/run.ts browse` alone): what browsing the whole
// library costs (lib/browse/). In process, at 10,000 and 100,000 films (the search part's
// generated catalogue, every title a film, with genres, ratings and release dates drawn from a
// fixed seed): the index's build in one go and in steps (the longest turn of the event loop it
// holds), the heap it keeps beside the items, and the p50 / p99 of a sorted and filtered page
// (`sort=title&genre=Drama&letter=M`), of the facets with and without a filter, and of a plain
// sort. Then through the whole stack at 10,000 and at 100,000 films written to DynamoDB Local: each request
// one at a time right after health measured the same way (as the watching part does), and what
// the DynamoDB way would cost for the same answers (counting the filtered films with a Query
// and a filter, reading every film's genres, year and title for the facets), timed from this
// process straight at DynamoDB Local. Writes the browse section of docs/benchmarks.md.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { PROJECT_DIR } from '../infra/project';
import { buildBrowseIndex } from '../lib/browse/build';
import type { BrowseIndex } from '../lib/browse/index';
import type { Filters, PageRequest } from '../lib/browse/model';
import type { MovieItem } from '../lib/catalog/model';
import { DynamoCatalogStore } from '../lib/catalog/store';
import { config, LOCAL_CREDENTIALS } from '../lib/config';
import { createDb, type Db } from '../lib/db/client';
import { keys } from '../lib/db/table';
import { titleColors } from '../lib/media/mesh-gradient';
import { Pacer } from '../lib/util/pace';
import { searchCatalogue } from '../test/support/search-quality';
import { startInstance } from '../test/support/instance';
import { machineLine, median, percentile, rssMiB, table, writeDoc } from './support';

const SIZES = [10_000, 100_000];
/** Through the stack: the DynamoDB way is compared at the first size only (at the second it reads ten times as much). */
const HTTP_SIZES = [10_000, 100_000];
const REPEATS = 50; // timed runs of each in-process query, after five not counted
const SEQUENTIAL = 200; // requests one at a time through the stack, after WARM_UP not counted
const WARM_UP = 10;
const DYNAMO_RUNS = 5;
/** The first page after the catalogue changed is asked again (504, 503) for this long at most. */
const FIRST_PAGE_GIVE_UP_MS = 10 * 60_000;
const PAGE = 30; // the web client's page of a list
const IDLE_MS = 60_000; // before the stack's RSS is read, as the footprint part waits
/** The targets: a page and the facets at most twice health's p50. */
const FACTOR = 2;

// A full collection before and after a build tells what the index keeps, not what it made on the way.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const say = (line: string) => process.stdout.write(`[browse] ${line}\n`);
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** TMDB's film genres, with a film's chance of each: Drama in about four films of ten, as in TMDB's catalogue. */
const GENRES: ReadonlyArray<readonly [string, number]> = [
  ['Drama', 0.4], ['Comedy', 0.28], ['Thriller', 0.18], ['Action', 0.16], ['Romance', 0.14], ['Horror', 0.1], ['Crime', 0.1],
  ['Documentary', 0.08], ['Adventure', 0.07], ['Science Fiction', 0.06], ['Family', 0.05], ['Mystery', 0.05], ['Fantasy', 0.05],
  ['Animation', 0.04], ['Music', 0.04], ['History', 0.03], ['War', 0.02], ['Western', 0.02], ['TV Movie', 0.02],
];

/** mulberry32: the same films every run. */
const seeded = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** `count` films as the catalogue stores them: the search part's titles and years, every one a film. */
const films = (count: number, libraryId: string): MovieItem[] => {
  const rand = seeded(31);
  return searchCatalogue(count).map((s, i) => {
    const genres = GENRES.filter(([, share]) => rand() < share).map(([name]) => name);
    const day = 1 + Math.floor(rand() * 28);
    const month = 1 + Math.floor(rand() * 12);
    const released = s.year !== null && rand() < 0.9 ? `${s.year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` : null;
    return {
      id: `b${String(i).padStart(6, '0')}`, entity: 'movie', libraryId, addedAt: s.addedAt, updatedAt: s.addedAt, lastJob: 'bench', lastChange: 'added',
      files: [{ relPath: `${s.id}.mkv`, size: 1, mtimeMs: 0, part: null }],
      title: s.title, originalTitle: s.originalTitle, year: s.year, overview: null, genres, rating: rand() < 0.95 ? Math.round(10 + rand() * 80) / 10 : null,
      meshGradientColors: titleColors(s.title), tmdbId: null, enrich: 'done',
      metadata: {
        source: 'provider', matched: rand() < 0.8, confidence: 1, tagline: null, runtimeMinutes: null, releaseDate: released, certification: null,
        cast: [], directors: [], creators: [], alternativeTitles: [], imdbId: null, tvdbId: null,
      },
    } satisfies MovieItem;
  });
};

const THE_PAGE: { request: PageRequest; filters: Filters } = { request: { sort: 'title', order: 'asc', limit: PAGE }, filters: { genres: ['Drama'], letter: 'M' } };
const QUERIES: ReadonlyArray<{ what: string; run: (index: BrowseIndex) => unknown }> = [
  { what: `a page: sort=title&genre=Drama&letter=M (limit ${PAGE})`, run: (index) => index.page(THE_PAGE.request, THE_PAGE.filters) },
  { what: 'facets, no filter (counted once per index, then kept)', run: (index) => index.facets({}) },
  { what: 'facets: genre=Drama', run: (index) => index.facets({ genres: ['Drama'] }) },
  { what: `a page: sort=rating&order=asc, no filter (limit ${PAGE})`, run: (index) => index.page({ sort: 'rating', order: 'asc', limit: PAGE }, {}) },
  { what: `a page: sort=added&yearFrom=1990&yearTo=1999&matched=false (limit ${PAGE})`, run: (index) => index.page({ sort: 'added', order: 'desc', limit: PAGE }, { yearFrom: 1990, yearTo: 1999, matched: false }) },
];

/**
 * What a value keeps: the heap and array buffers (the index's typed arrays live outside the
 * heap) with it and after it is dropped, each after two full collections. Measured this way
 * round because what the items' generation left behind is only collected later.
 */
const kept = async (make: () => Promise<unknown>): Promise<number> => {
  const used = () => {
    collect();
    collect();
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  // Made and held from a function of its own that has returned: an async function's frame keeps
  // the value it awaited last, which kept the index alive after it was dropped here (0.0 MiB).
  const held: { value?: unknown } = {};
  await (async () => {
    held.value = await make();
  })();
  const withIt = used();
  held.value = undefined;
  return (withIt - used()) / 2 ** 20;
};

interface SizeResult {
  size: number;
  buildMs: number;
  heapMiB: number;
  stepped: { totalMs: number; longestMs: number };
  latency: Array<{ what: string; p50: number; p99: number }>;
}

const measureSize = async (size: number): Promise<SizeResult> => {
  const items = films(size, 'bench-browse');
  let t = performance.now();
  const index = await buildBrowseIndex(items, 'movie', new Pacer(Number.MAX_SAFE_INTEGER)); // one run, no pause
  const buildMs = performance.now() - t;
  const heapMiB = await kept(() => buildBrowseIndex(items, 'movie'));
  say(`${size} films: built in ${Math.round(buildMs)} ms in one go; it keeps ${fmt(heapMiB, 1)} MiB beside the items`);
  // In steps, as the service builds it: the event loop's longest wait is the longest step.
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  t = performance.now();
  await buildBrowseIndex(items, 'movie');
  const stepped = { totalMs: performance.now() - t, longestMs: delay.max / 1e6 };
  delay.disable();
  say(`built in steps in ${Math.round(stepped.totalMs)} ms, the event loop held ${fmt(stepped.longestMs, 1)} ms at most`);
  const latency = QUERIES.map(({ what, run }) => {
    for (let i = 0; i < 5; i++) run(index);
    const times: number[] = [];
    for (let i = 0; i < REPEATS; i++) {
      const start = performance.now();
      run(index);
      times.push(performance.now() - start);
    }
    const row = { what, p50: percentile(times, 50), p99: percentile(times, 99) };
    say(`${what}: p50 ${fmt(row.p50, 3)} ms, p99 ${fmt(row.p99, 3)} ms`);
    return row;
  });
  const found = index.page(THE_PAGE.request, THE_PAGE.filters);
  say(`the page: ${found.items.length} of ${found.total} Drama films under M`);
  return { size, buildMs, heapMiB, stepped, latency };
};

// ---- Through the stack --------------------------------------------------------------------

interface Sequential {
  p50: number;
  p99: number;
}

/** SEQUENTIAL requests one at a time after WARM_UP, each from the call to its body read. */
const sequential = async (url: string): Promise<Sequential> => {
  const send = async () => {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${url} -> ${res.status}`);
  };
  for (let i = 0; i < WARM_UP; i++) await send();
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL; i++) {
    const t0 = performance.now();
    await send();
    times.push(performance.now() - t0);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
};

interface HttpRow {
  what: string;
  seq: Sequential;
  health: Sequential;
}

const HTTP_TARGETS: ReadonlyArray<readonly [what: string, path: string, target: boolean]> = [
  [`GET /api/v1/movies?limit=${PAGE} (the recent list, as before)`, `/api/v1/movies?limit=${PAGE}`, false],
  [`GET /api/v1/movies?sort=title&genre=Drama&letter=M&limit=${PAGE}`, `/api/v1/movies?sort=title&genre=Drama&letter=M&limit=${PAGE}`, true],
  ['GET /api/v1/movies?sort=title&genre=Drama&letter=M (the default limit, 10)', '/api/v1/movies?sort=title&genre=Drama&letter=M', true],
  ['GET /api/v1/movies/facets', '/api/v1/movies/facets', true],
  ['GET /api/v1/movies/facets?genre=Drama', '/api/v1/movies/facets?genre=Drama', true],
];

/** Every page of a Query, timed: what a DynamoDB design reads to count or facet the films. */
const queryAll = async (db: Db, input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) => {
  const began = performance.now();
  let from: Record<string, unknown> | undefined;
  let count = 0;
  let pages = 0;
  do {
    const out = await db.doc.send(new QueryCommand({ ...input, TableName: db.tableName, ExclusiveStartKey: from }));
    count += out.Count ?? 0;
    pages++;
    from = out.LastEvaluatedKey;
  } while (from);
  return { ms: performance.now() - began, count, pages };
};

const measureHttp = async (size: number, compareDynamo: boolean) => {
  const instance = await startInstance({ env: { RATE_LIMIT_MAX: '1000000000' } });
  try {
    const db = createDb({ ...config.db, endpoint: instance.state().dynamodbEndpoint, localCredentials: LOCAL_CREDENTIALS });
    const store = new DynamoCatalogStore(() => db);
    let t = performance.now();
    const items = films(size, 'bench-browse');
    for (let i = 0; i < items.length; i += 500) await store.put(items.slice(i, i + 500));
    await store.bumpVersion();
    say(`${items.length} films written to DynamoDB Local in ${Math.round((performance.now() - t) / 1000)} s`);
    t = performance.now();
    // A request that outlasts the function's timeout is answered 504 while the catalogue goes
    // on loading behind it, and a database slow to answer gives 503: asked again until it is there.
    const answers: string[] = [];
    let first = await fetch(`${instance.url}${HTTP_TARGETS[1]![1]}`);
    while ((first.status === 504 || first.status === 503) && performance.now() - t < FIRST_PAGE_GIVE_UP_MS) {
      answers.push(`${first.status} after ${Math.round((performance.now() - t) / 1000)} s`);
      await first.arrayBuffer();
      first = await fetch(`${instance.url}${HTTP_TARGETS[1]![1]}`);
    }
    const body = (await first.json()) as { meta?: { total: number }; detail?: string };
    const firstMs = performance.now() - t;
    if (first.status !== 200) {
      say(`the first page did not come: ${first.status} ${body.detail ?? ''}; before it: ${answers.join(', ')}`);
      return { rows: [], firstMs, dynamoRows: [], rss: { runner: 0, offline: 0, dynamodb: 0 }, failed: `${first.status} (${body.detail ?? ''}) after ${Math.round(firstMs / 1000)} s of asking (${answers.length} answers before it: ${[...new Set(answers.map((a) => a.split(' ')[0]))].join(', ')})` };
    }
    say(`the first page after the catalogue changed (the index built on the way): ${Math.round(firstMs)} ms, ${body.meta?.total} films in all`);

    const rows: HttpRow[] = [];
    for (const [what, path] of HTTP_TARGETS) {
      const health = await sequential(`${instance.url}/api/v1/health`);
      const seq = await sequential(`${instance.url}${path}`);
      rows.push({ what, seq, health });
      say(`${what}: p50 ${fmt(seq.p50, 1)} ms, p99 ${fmt(seq.p99, 1)} ms; health just before p50 ${fmt(health.p50, 1)} ms; ${fmt(seq.p50 / health.p50)}× health's`);
    }

    // The DynamoDB way, for the same answers: the whole recent index read (or counted) with a filter.
    const { index, pk } = keys.recentIndex('movie');
    const dynamo = async (what: string, input: Omit<ConstructorParameters<typeof QueryCommand>[0], 'TableName'>) => {
      const runs = [];
      for (let i = 0; i < DYNAMO_RUNS; i++) runs.push(await queryAll(db, input));
      const row = { what, ms: median(runs.map((r) => r.ms)), pages: runs[0]!.pages, count: runs[0]!.count };
      say(`the DynamoDB way: ${what}: ${fmt(row.ms, 0)} ms (median of ${DYNAMO_RUNS}), ${row.pages} pages, ${row.count} items`);
      return row;
    };
    const byIndex = { IndexName: index, KeyConditionExpression: 'gsi1pk = :pk' };
    const dynamoRows = !compareDynamo ? [] : [
      await dynamo('count the Drama films: Query gsi1 with FilterExpression contains(genres, Drama), Select COUNT', {
        ...byIndex, FilterExpression: 'contains(genres, :g)', ExpressionAttributeValues: { ':pk': pk, ':g': 'Drama' }, Select: 'COUNT',
      }),
      await dynamo("the facets' input: Query gsi1 projecting genres, year, title", {
        ...byIndex, ProjectionExpression: 'genres, #y, title', ExpressionAttributeNames: { '#y': 'year' }, ExpressionAttributeValues: { ':pk': pk },
      }),
    ];

    say(`idle ${IDLE_MS / 1000} s`);
    await sleep(IDLE_MS);
    const { pid, processes } = instance.state();
    const rss = { runner: rssMiB(pid), offline: rssMiB(processes.offline!), dynamodb: rssMiB(processes.dynamodb!) };
    return { rows, firstMs, dynamoRows, rss, failed: undefined as string | undefined };
  } finally {
    await instance.stop();
  }
};

/** writeDoc throws at the end when the markers are missing: better to know before the measuring. */
const checkMarkers = () => {
  const doc = readFileSync(join(PROJECT_DIR, 'docs/benchmarks.md'), 'utf8');
  if (!doc.includes('<!-- bench:browse:start -->') || !doc.includes('<!-- bench:browse:end -->')) {
    throw new Error('docs/benchmarks.md lacks the <!-- bench:browse:start --> ... <!-- bench:browse:end --> markers');
  }
};

export const runBrowse = async () => {
  checkMarkers();
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await measureSize(size));
  const https = [];
  for (const [i, size] of HTTP_SIZES.entries()) https.push({ size, ...(await measureHttp(size, i === 0)) });
  const http = https[0]!;
  const sizes = results.map((r) => r.size.toLocaleString('en-US'));
  const ratio = (r: HttpRow) => r.seq.p50 / r.health.p50;
  const section = [
    `${machineLine()}. In process: the search part's generated titles as films, with genres (Drama in about 4 in 10), ratings and release dates from a fixed seed; each query run 5 times, then ${REPEATS} times timed.`,
    '',
    table(
      ['query', ...results.map((r) => `p50 / p99 ms at ${r.size.toLocaleString('en-US')}`)],
      QUERIES.map((q, i) => [q.what, ...results.map((r) => `${fmt(r.latency[i]!.p50, 3)} / ${fmt(r.latency[i]!.p99, 3)}`)]),
    ),
    '',
    table(
      ['index', ...sizes],
      [
        ['built in one go, ms', ...results.map((r) => Math.round(r.buildMs))],
        ['built in steps as the service does, ms (the longest turn of the event loop it held)', ...results.map((r) => `${Math.round(r.stepped.totalMs)} (${fmt(r.stepped.longestMs, 1)})`)],
        ['memory kept beside the items (heap and array buffers), MiB', ...results.map((r) => fmt(r.heapMiB, 1))],
      ],
    ),
    '',
    ...https.flatMap((h) => h.failed !== undefined ? [`Through the stack (${h.size.toLocaleString('en-US')} films in DynamoDB Local, an instance of their own): the first page after the catalogue changed never came: ${h.failed}.`, ''] : [
      `Through the stack (${h.size.toLocaleString('en-US')} films in DynamoDB Local, an instance of their own): ${SEQUENTIAL} requests one at a time after ${WARM_UP} not counted, from the call to the body read, each row right after ${SEQUENTIAL} of health measured the same way. The first page after the catalogue changed, its index built on the way: ${Math.round(h.firstMs)} ms. RSS after the loads and ${IDLE_MS / 1000} s idle: runner ${h.rss.runner} MiB, offline ${h.rss.offline} MiB, DynamoDB Local ${h.rss.dynamodb} MiB.`,
      '',
      table(
        ['request', 'p50 ms', 'p99 ms', 'p50 ÷ health p50 (health p50 ms just before)', `target ≤ ${FACTOR}×`],
        h.rows.map((r, i) => [r.what, fmt(r.seq.p50, 1), fmt(r.seq.p99, 1), `${fmt(ratio(r))}× (${fmt(r.health.p50, 1)})`, HTTP_TARGETS[i]![2] ? (ratio(r) <= FACTOR ? 'met' : 'not met') : '-']),
      ),
      '',
    ]),
    `The DynamoDB way, for comparison: what a design on DynamoDB indexes reads for the same answers (the total of a filtered list, the facets), timed from the bench process straight at DynamoDB Local (no handler, no front door), median of ${DYNAMO_RUNS}:`,
    '',
    table(['read', 'ms', 'pages', 'items'], http.dynamoRows.map((r) => [r.what, fmt(r.ms, 0), r.pages, r.count])),
    '',
    `The offline process's RSS holds the handlers, the catalogue's films kept in memory and their browse index.`,
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  writeDoc('browse', section);
};
