// The search part of `npm run bench`: how often the film a user means comes first, and how long
// a search takes, over the generated catalogue of test/support/search-quality.ts (remakes,
// sequels, accents, original and alternative titles, people) at 10,000 and 100,000 titles; then
// GET /api/v1/search through the whole stack at 10,000 titles against health's p50.
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { config, LOCAL_CREDENTIALS } from '../lib/config';
import type { MovieItem, ShowItem, TitledItem } from '../lib/catalog/model';
import { DynamoCatalogStore } from '../lib/catalog/store';
import { createDb } from '../lib/db/client';
import { titleColors } from '../lib/media/mesh-gradient';
import { SearchIndex, type Searchable } from '../lib/search';
import { qualityQueries, scoreQueries, searchCatalogue, type KindScore, type QualityQuery } from '../test/support/search-quality';
import { startInstance } from '../test/support/instance';
import { load, machineLine, percentile, rssMiB, writeDoc } from './support';

const SIZES = [10_000, 100_000];
const REPEATS = 20; // timed runs of each query, after one untimed
const LATENCY_MAX_FACTOR = 2; // search p50 at most twice health's, at 10,000 titles
const HTTP_SIZE = 10_000;

const IDLE_MS = 60_000; // before the stack's RSS is read, as the footprint part waits

// A full collection before and after a build tells what the index keeps, not what it made on the way.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

const say = (line: string) => process.stdout.write(`[search] ${line}\n`);
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
  timings.set('typo (all)', [...timings].filter(([kind]) => kind.startsWith('typo-')).flatMap(([, values]) => values));
  const latency = new Map([...timings].map(([kind, values]) => [kind, { p50: percentile(values, 50), p99: percentile(values, 99) }]));
  for (const s of scores) say(`${s.kind}: ${s.queries} queries, top-1 ${pct(s.top1)}, top-5 ${pct(s.top5)}, p50 ${ms(latency.get(s.kind)?.p50 ?? 0)} ms`);
  return { size, buildMs, heapMiB, stepped, scores, latency };
};

/** A generated title as the catalogue stores it: people as its director (or creator) and cast. */
const asItem = (s: Searchable, libraryId: string): TitledItem => {
  const [first = null, ...rest] = s.people ?? [];
  const common = {
    id: s.id, libraryId, addedAt: s.addedAt, updatedAt: s.addedAt, lastJob: 'bench', lastChange: 'added' as const,
    title: s.title, originalTitle: s.originalTitle, year: s.year, overview: null, genres: [], rating: null,
    meshGradientColors: titleColors(s.title), tmdbId: null, enrich: 'done' as const,
    metadata: {
      source: 'provider' as const, matched: true, confidence: 1, tagline: null, runtimeMinutes: null, releaseDate: null, certification: null,
      cast: rest.map((name, order) => ({ name, character: '', order })),
      directors: s.type === 'movie' && first ? [first] : [],
      creators: s.type === 'tvshow' && first ? [first] : [],
      alternativeTitles: [...(s.alternativeTitles ?? [])],
      imdbId: null, tvdbId: null,
    },
  };
  return s.type === 'movie'
    ? ({ ...common, entity: 'movie', files: [{ relPath: `${s.id}.mkv`, size: 1, mtimeMs: 0, part: null }] } satisfies MovieItem)
    : ({ ...common, entity: 'tvshow' } satisfies ShowItem);
};

interface HttpRow {
  what: string;
  p50: number;
  p99: number;
  reqPerSec: number;
  errors: number;
  /** Health's p50 in the load just before this one, and this p50 over it. */
  healthP50: number | null;
  factor: number | null;
}

/** RSS of the stack's processes, MiB, once every query has been loaded. */
let stackRss: Record<string, number> = {};

const measureHttp = async (): Promise<HttpRow[]> => {
  const catalogue = searchCatalogue(HTTP_SIZE);
  const queries = qualityQueries(catalogue);
  const instance = await startInstance({ env: { RATE_LIMIT_MAX: '1000000000' } });
  try {
    const store = new DynamoCatalogStore(() => createDb({ ...config.db, endpoint: instance.state().dynamodbEndpoint, localCredentials: LOCAL_CREDENTIALS }));
    const t = performance.now();
    const items = catalogue.map((s) => asItem(s, 'bench-search'));
    for (let i = 0; i < items.length; i += 500) await store.put(items.slice(i, i + 500));
    await store.bumpVersion();
    say(`${items.length} titles written to DynamoDB Local in ${Math.round((performance.now() - t) / 1000)} s`);
    const pick = (kind: QualityQuery['kind']) => queries.find((q) => q.kind === kind)!.query;
    const targets: [string, string][] = [
      ['GET /api/v1/health', '/api/v1/health'],
      ...(['exact', 'prefix', 'typo-transposition', 'year', 'original-title', 'person'] as const).map((kind): [string, string] => [
        `GET /api/v1/search?query=${pick(kind)} (${kind})`,
        `/api/v1/search?query=${encodeURIComponent(pick(kind))}`,
      ]),
    ];
    // Health is loaded again right before each query: its p50 drifts by a third between loads on
    // this machine, so each query is compared with the health load next to it.
    const rows: HttpRow[] = [];
    let health: number | null = null;
    for (const [what, path] of targets) {
      const first = await fetch(`${instance.url}${path}`); // builds the index
      if (first.status !== 200) throw new Error(`${path}: ${first.status} ${await first.text()}`);
      if (health !== null) health = (await load(`${instance.url}/api/v1/health`)).p50;
      say(`load: ${what}`);
      const r = await load(`${instance.url}${path}`);
      rows.push({ what, ...r, reqPerSec: Math.round(r.reqPerSec), healthP50: health, factor: health === null ? null : r.p50 / Math.max(health, 1) });
      health ??= r.p50;
      say(`  ${Math.round(r.reqPerSec)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, errors ${r.errors}${health === r.p50 ? '' : `, health just before ${health} ms`}`);
    }
    say(`idle ${IDLE_MS / 1000} s`);
    await sleep(IDLE_MS);
    const { pid, processes } = instance.state();
    stackRss = { runner: rssMiB(pid), offline: rssMiB(processes.offline!), dynamodb: rssMiB(processes.dynamodb!) };
    return rows;
  } finally {
    await instance.stop();
  }
};

const KINDS = ['exact', 'prefix', 'typo (all)', 'typo-deletion', 'typo-insertion', 'typo-substitution', 'typo-transposition', 'year', 'original-title', 'alternative-title', 'person', 'all'];
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
    .flatMap((s) => s.misses.slice(0, 3).map((m) => `- ${s.kind}: "${m.query}" → ${m.got.slice(0, 3).join(', ') || 'nothing'} (expected ${m.expected.slice(0, 3).join(', ')})`));

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
  const misses = missesList(results[0]!);
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
    `Through the stack (${HTTP_SIZE.toLocaleString('en-US')} titles with their people and alternative titles in DynamoDB Local; median of runs as in the catalogue part; each query against a health load run just before it):`,
    '',
    ...httpLines,
    '',
    `RSS after the loads and ${IDLE_MS / 1000} s idle: runner ${stackRss.runner} MiB, offline ${stackRss.offline} MiB (the handlers, and the search index with its 10,000 items), DynamoDB Local ${stackRss.dynamodb} MiB.`,
    ...(misses.length ? ['', `Some misses at ${results[0]!.size.toLocaleString('en-US')} titles (first hits, then what was expected):`, '', ...misses] : []),
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  writeDoc('search', section);
};
