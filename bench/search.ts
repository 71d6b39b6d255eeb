// The search part of `npm run bench` (`tsx bench/run.ts search` alone): how often the film a user
// means comes first, and how long a search takes, over the generated catalogue of
// test/support/search-quality.ts (remakes, sequels, accents, original and alternative titles,
// people) at 10,000 and 100,000 titles, in process; then GET /api/v1/search on the shared
// library (bench/library.ts) through the whole stack, each query against health's p50.
import { performance } from 'node:perf_hooks';
import { SearchIndex, type Searchable } from '../lib/search';
import { qualityQueries, scoreQueries, searchCatalogue, type KindScore, type QualityQuery } from '../test/support/search-quality';
import { sharedLibrary } from './library';
import { collect, load, machineLine, percentile, sayer, writeDoc, type LoadResult } from './support';
import { searchQueries } from './tree';

const SIZES = [10_000, 100_000];
const REPEATS = 20; // timed runs of each query, after one untimed
const LATENCY_MAX_FACTOR = 2; // search p50 at most twice health's, at 10,000 titles

const say = sayer('search');
const pct = (fraction: number) => `${(fraction * 100).toFixed(1)}%`;
const ms = (n: number) => n.toFixed(2);

interface SizeResult {
  size: number;
  buildMs: number;
  heapMiB: number;
  /** The build in steps, as the service does it: its whole time and its longest step, ms. */
  stepped: { totalMs: number; longestMs: number; steps: number };
  scores: KindScore[];
  /** By kind: p50 and p99 of one search (default limit), ms. */
  latency: Map<string, { p50: number; p99: number }>;
}

/** SearchIndex.build with its pauses timed: what one turn of the serving process's event loop may cost. */
const steppedBuild = async (catalogue: Searchable[]) => {
  const spans: number[] = [];
  const start = performance.now();
  let from = start;
  await SearchIndex.build(catalogue, async () => {
    spans.push(performance.now() - from);
    await new Promise((resolve) => setImmediate(resolve));
    from = performance.now();
  });
  const end = performance.now();
  spans.push(end - from);
  return { totalMs: end - start, longestMs: Math.max(...spans), steps: spans.length };
};

const measureSize = async (size: number): Promise<SizeResult> => {
  let t = performance.now();
  const catalogue = searchCatalogue(size);
  say(`${size} titles generated in ${Math.round(performance.now() - t)} ms`);
  const queries = qualityQueries(catalogue);
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  t = performance.now();
  const index = new SearchIndex(catalogue);
  const buildMs = performance.now() - t;
  collect();
  const heapMiB = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  say(`index built in ${Math.round(buildMs)} ms; it keeps ${Math.round(heapMiB)} MiB of heap beside the items`);
  const stepped = await steppedBuild(catalogue);
  say(`built in ${stepped.steps} steps: ${Math.round(stepped.totalMs)} ms, the longest ${Math.round(stepped.longestMs)} ms`);

  const scores = scoreQueries(queries, (q) => index.search(q, { limit: 5 }).map((hit) => hit.item.id));
  const timings = new Map<string, number[]>();
  const time = (kind: string, query: QualityQuery) => {
    index.search(query.query);
    for (let i = 0; i < REPEATS; i++) {
      const start = performance.now();
      index.search(query.query);
      const took = performance.now() - start;
      for (const key of [kind, 'all']) {
        const list = timings.get(key) ?? [];
        list.push(took);
        timings.set(key, list);
      }
    }
  };
  for (const query of queries) time(query.kind, query);
  // The four kinds of typo together, as their scores are.
  timings.set(
    'typo (all)',
    [...timings].filter(([kind]) => kind.startsWith('typo-')).flatMap(([, values]) => values),
  );
  const latency = new Map([...timings].map(([kind, values]) => [kind, { p50: percentile(values, 50), p99: percentile(values, 99) }]));
  for (const s of scores)
    say(`${s.kind}: ${s.queries} queries, top-1 ${pct(s.top1)}, top-5 ${pct(s.top5)}, p50 ${ms(latency.get(s.kind)?.p50 ?? 0)} ms`);
  return { size, buildMs, heapMiB, stepped, scores, latency };
};

/** A load through the stack, with health's p50 in the load just before it and this p50 over it. */
type HttpRow = LoadResult & { what: string; healthP50: number | null; factor: number | null };

/** A typo of a word: its third and fourth letters swapped. */
const transposed = (text: string) => text.replace(/\p{L}{5,}/u, (w) => `${w.slice(0, 2)}${w[3]}${w[2]}${w.slice(4)}`);

const measureHttp = async (): Promise<HttpRow[]> => {
  const { base, movies } = await sharedLibrary();
  const q = searchQueries(movies);
  const targets: [string, string][] = [
    ['GET /api/v1/health', '/api/v1/health'],
    ...[
      [`${q.broad} (a prefix, ${q.broadHits} titles)`, q.broad],
      [`${q.narrow} (one title)`, q.narrow],
      [`${transposed(q.narrow)} (that title, a typo)`, transposed(q.narrow)],
    ].map(([what, query]): [string, string] => [`GET /api/v1/search?query=${what}`, `/api/v1/search?query=${encodeURIComponent(query!)}`]),
  ];
  // Health is loaded again right before each query: its p50 drifts by a third between loads on
  // this machine, so each query is compared with the health load next to it.
  const rows: HttpRow[] = [];
  let health: number | null = null;
  for (const [what, path] of targets) {
    const first = await fetch(`${base}${path}`); // builds the index
    if (first.status !== 200) throw new Error(`${path}: ${first.status} ${await first.text()}`);
    if (health !== null) health = (await load(`${base}/api/v1/health`)).p50;
    const r = await load(`${base}${path}`);
    rows.push({ what, ...r, healthP50: health, factor: health === null ? null : r.p50 / Math.max(health, 1) });
    health ??= r.p50;
    say(`${what}: ${r.reqPerSec} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}`);
  }
  return rows;
};

/** On the page: the four kinds of typo as one row (their own scores are printed). */
const KINDS = ['exact', 'prefix', 'typo (all)', 'year', 'original-title', 'alternative-title', 'person', 'all'];
const TARGET = (kind: string) => (kind === 'all' ? '-' : kind.startsWith('typo') ? '90%' : '95%');

const qualityTable = (results: SizeResult[]) => {
  const header = `| kind | queries | ${results.map((r) => `top-1 / top-5 at ${r.size.toLocaleString('en-US')}`).join(' | ')} | top-1 target | ${results.map((r) => `p50 / p99 ms at ${r.size.toLocaleString('en-US')}`).join(' | ')} |`;
  const lines = [header, `|${'---|'.repeat(3 + 2 * results.length)}`];
  for (const kind of KINDS) {
    const at = results.map((r) => r.scores.find((s) => s.kind === kind));
    if (!at[0]) continue;
    const quality = at.map((s) => (s ? `${pct(s.top1)} / ${pct(s.top5)}` : '-'));
    const speed = results.map((r) => r.latency.get(kind)).map((l) => (l ? `${ms(l.p50)} / ${ms(l.p99)}` : '-'));
    lines.push(`| ${kind} | ${at[0].queries} | ${quality.join(' | ')} | ${TARGET(kind)} | ${speed.join(' | ')} |`);
  }
  return lines.join('\n');
};

const missesList = (result: SizeResult) =>
  result.scores
    .filter((s) => !s.kind.includes('all'))
    .flatMap((s) =>
      s.misses
        .slice(0, 3)
        .map(
          (m) => `- ${s.kind}: "${m.query}" → ${m.got.slice(0, 3).join(', ') || 'nothing'} (expected ${m.expected.slice(0, 3).join(', ')})`,
        ),
    );

export const runSearch = async () => {
  const results: SizeResult[] = [];
  for (const size of SIZES) results.push(await measureSize(size));
  const http = await measureHttp();
  const httpLines = [
    '| target | req/s | p50 ms | p99 ms | errors | health p50 just before, ms | p50 / health p50 | target | met |',
    '|---|---|---|---|---|---|---|---|---|',
    ...http.map((r) =>
      r.factor === null
        ? `| ${r.what} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | - | - | baseline | - |`
        : `| ${r.what} | ${r.reqPerSec} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.healthP50} | ${r.factor.toFixed(2)}× | ≤ ${LATENCY_MAX_FACTOR}× | ${r.factor <= LATENCY_MAX_FACTOR ? 'yes' : 'no'} |`,
    ),
  ];
  // The misses are printed, not kept on the page: a few of each kind, first hits then what was expected.
  for (const line of missesList(results[0]!)) say(line);
  const section = [
    `${machineLine()}. In process: each query run once, then ${REPEATS} times timed (default limit 20); top-1 and top-5 with a limit of 5.`,
    '',
    qualityTable(results),
    '',
    ...results.map(
      (r) =>
        `- ${r.size.toLocaleString('en-US')} titles: index built in ${Math.round(r.buildMs)} ms in one go; in steps, as the service builds it, ${Math.round(r.stepped.totalMs)} ms in ${r.stepped.steps} turns of the event loop, the longest ${Math.round(r.stepped.longestMs)} ms. It keeps ${r.heapMiB.toFixed(1)} MiB of heap beside the items themselves.`,
    ),
    '',
    `Through the stack on the shared library (${(await sharedLibrary()).movies.length} films, titles only: no TMDB key); autocannon as in the catalogue part; each query against a health load run just before it:`,
    '',
    ...httpLines,
  ].join('\n');
  writeDoc('search', section);
};
