// The browse part of `npm run bench` (`tsx bench/run.ts browse` alone): what browsing the whole
// library costs (lib/browse/). In process, at 10,000 and 100,000 films (the search part's
// generated catalogue, every title a film, with genres, ratings and release dates drawn from a
// fixed seed): the index's build in one go and in steps (the longest turn of the event loop it
// holds), the memory it keeps beside the items, and the p50 / p99 of sorted and filtered pages
// and of the facets. Then through the whole stack on the shared library (bench/library.ts):
// each request one at a time right after health measured the same way.
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { buildBrowseIndex } from '../lib/browse/build';
import type { BrowseIndex } from '../lib/browse/index';
import type { Filters, PageRequest } from '../lib/browse/model';
import type { MovieItem } from '../lib/catalog/model';
import { titleColors } from '../lib/media/mesh-gradient';
import { Pacer } from '../lib/util/pace';
import { searchCatalogue } from '../test/support/search-quality';
import { sharedLibrary } from './library';
import { besideHealth, collect, getter, machineLine, percentile, sayer, SEQUENTIAL, table, WARM_UP, writeDoc } from './support';

const SIZES = [10_000, 100_000];
const REPEATS = 50; // timed runs of each in-process query, after five not counted
const PAGE = 30; // the web client's page of a list
/** The targets: a page and the facets at most twice health's p50. */
const FACTOR = 2;

const say = sayer('browse');
const fmt = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** TMDB's film genres, with a film's chance of each: Drama in about four films of ten, as in TMDB's catalogue. */
const GENRES: ReadonlyArray<readonly [string, number]> = [
  ['Drama', 0.4],
  ['Comedy', 0.28],
  ['Thriller', 0.18],
  ['Action', 0.16],
  ['Romance', 0.14],
  ['Horror', 0.1],
  ['Crime', 0.1],
  ['Documentary', 0.08],
  ['Adventure', 0.07],
  ['Science Fiction', 0.06],
  ['Family', 0.05],
  ['Mystery', 0.05],
  ['Fantasy', 0.05],
  ['Animation', 0.04],
  ['Music', 0.04],
  ['History', 0.03],
  ['War', 0.02],
  ['Western', 0.02],
  ['TV Movie', 0.02],
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
      id: `b${String(i).padStart(6, '0')}`,
      entity: 'movie',
      libraryId,
      addedAt: s.addedAt,
      updatedAt: s.addedAt,
      lastJob: 'bench',
      lastChange: 'added',
      files: [{ relPath: `${s.id}.mkv`, size: 1, mtimeMs: 0, part: null }],
      title: s.title,
      originalTitle: s.originalTitle,
      year: s.year,
      overview: null,
      genres,
      rating: rand() < 0.95 ? Math.round(10 + rand() * 80) / 10 : null,
      meshGradientColors: titleColors(s.title),
      tmdbId: null,
      enrich: 'done',
      metadata: {
        source: 'provider',
        matched: rand() < 0.8,
        confidence: 1,
        tagline: null,
        runtimeMinutes: null,
        releaseDate: released,
        certification: null,
        cast: [],
        directors: [],
        creators: [],
        alternativeTitles: [],
        imdbId: null,
        tvdbId: null,
      },
    } satisfies MovieItem;
  });
};

const THE_PAGE: { request: PageRequest; filters: Filters } = {
  request: { sort: 'title', order: 'asc', limit: PAGE },
  filters: { genres: ['Drama'], letter: 'M' },
};
const QUERIES: ReadonlyArray<{ what: string; run: (index: BrowseIndex) => unknown }> = [
  { what: `a page: sort=title&genre=Drama&letter=M (limit ${PAGE})`, run: (index) => index.page(THE_PAGE.request, THE_PAGE.filters) },
  { what: 'facets, no filter (counted once per index, then kept)', run: (index) => index.facets({}) },
  { what: 'facets: genre=Drama', run: (index) => index.facets({ genres: ['Drama'] }) },
  {
    what: `a page: sort=rating&order=asc, no filter (limit ${PAGE})`,
    run: (index) => index.page({ sort: 'rating', order: 'asc', limit: PAGE }, {}),
  },
  {
    what: `a page: sort=added&yearFrom=1990&yearTo=1999&matched=false (limit ${PAGE})`,
    run: (index) => index.page({ sort: 'added', order: 'desc', limit: PAGE }, { yearFrom: 1990, yearTo: 1999, matched: false }),
  },
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

/** The shared library has titles and years only (no TMDB key): its filters are by letter and year. */
const HTTP_TARGETS: ReadonlyArray<readonly [path: string, target: boolean]> = [
  [`/api/v1/movies?limit=${PAGE}`, false],
  [`/api/v1/movies?sort=title&letter=M&limit=${PAGE}`, true],
  [`/api/v1/movies?sort=added&yearFrom=1990&yearTo=1999&limit=${PAGE}`, true],
  ['/api/v1/movies/facets', true],
  ['/api/v1/movies/facets?yearFrom=1990&yearTo=1999', true],
];

export const runBrowse = async () => {
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await measureSize(size));
  const { base, movies } = await sharedLibrary();
  const http = [];
  for (const [path, target] of HTTP_TARGETS) {
    const r = await besideHealth(base, getter(`${base}${path}`));
    say(`GET ${path}: p50 ${fmt(r.seq.p50, 1)} ms, p99 ${fmt(r.seq.p99, 1)} ms, ${fmt(r.ratio)}× health's`);
    http.push({ path, target, ...r });
  }
  const sizes = results.map((r) => r.size.toLocaleString('en-US'));
  writeDoc(
    'browse',
    [
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
          [
            'built in steps as the service does, ms (the longest turn of the event loop it held)',
            ...results.map((r) => `${Math.round(r.stepped.totalMs)} (${fmt(r.stepped.longestMs, 1)})`),
          ],
          ['memory kept beside the items (heap and array buffers), MiB', ...results.map((r) => fmt(r.heapMiB, 1))],
        ],
      ),
      '',
      `Through the stack on the shared library (${movies.length} films, titles and years only): ${SEQUENTIAL} requests one at a time after ${WARM_UP} not counted, from the call to the body read, each row right after ${SEQUENTIAL} of health measured the same way.`,
      '',
      table(
        ['request', 'p50 ms', 'p99 ms', 'p50 ÷ health p50 (health p50 ms just before)', `target ≤ ${FACTOR}×`],
        http.map((r) => [
          `GET ${r.path}`,
          fmt(r.seq.p50, 1),
          fmt(r.seq.p99, 1),
          `${fmt(r.ratio)}× (${fmt(r.health.p50, 1)})`,
          r.target ? (r.ratio <= FACTOR ? 'met' : 'not met') : '-',
        ]),
      ),
    ].join('\n'),
  );
};
