// The described part of `npm run bench` (`tsx bench/run.ts described` alone): the first scan of
// BENCH_DESCRIBED_FILMS (10,000) films with a provider, as a user sees it: when every film is
// listed, when every one has its poster, when every one is fully described (the job
// completed), and the provider API requests per film spent by the time the last poster came,
// counted at the fake TMDB (test/support/fake-tmdb.ts), which answers after 40 ms and refuses
// more than 40 requests/s, as TMDB does. Artwork on; each film has a flat poster, no backdrop.
// Writes the described section of docs/benchmarks.md.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeTmdb, type FakeRequest } from '../test/support/fake-tmdb';
import { makeTree } from '../test/support/media';
import { call, jsonBody } from '../test/support/stack';
import { machineLine, startWithFakeTmdb, table, writeDoc } from './support';
import { generateMovies } from './tree';

const FILMS = Number(process.env.BENCH_DESCRIBED_FILMS ?? 10_000);
const LATENCY_MS = 40;
const CAP = 40; // requests/s, the fake's limit and the client's default pace
const POLL_MS = 500;
const SAMPLE = 20;
const KEY = 'd35cr1b3dk3y0123456789abcdef0123';
// Target from the issue.
const REQUESTS_PER_FILM_MAX = 1.1;

const say = (line: string) => process.stdout.write(`[described] ${line}\n`);
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const load1 = () => fmt(loadavg()[0] ?? 0, 2);

const api = async (base: string, method: string, path: string, expect: number, body?: unknown) => {
  const res = await call(method, path, { base, ...(body === undefined ? {} : jsonBody(body)) });
  if (res.status !== expect) throw new Error(`${method} ${path} -> ${res.status} (expected ${expect}): ${res.text.slice(0, 1000)}`);
  return res.json;
};

const kindOf = (r: FakeRequest) =>
  r.path.startsWith('/t/p/') ? 'image'
    : r.path.startsWith('/3/search/') ? 'search'
      : /^\/3\/(movie|tv)\/\d+$/.test(r.path) ? 'details'
        : 'other';

export const runDescribed = async () => {
  const loadBefore = load1();
  const movies = generateMovies(FILMS);
  const fake = new FakeTmdb({ keys: [KEY], latencyMs: LATENCY_MS, rateLimit: CAP });
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-described-'));
  movies.forEach((m, i) => {
    const id = 300_001 + i;
    const color = `#${((id * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)}`;
    fake.addMovie({
      id, title: m.title, releaseDate: `${m.year}-06-15`, overview: `About ${m.title}.`, genres: ['Drama'], voteAverage: 7.1, runtime: 104,
      tagline: `${m.title}, at last.`, cast: [{ name: `Lead ${i}`, character: 'Lead' }], poster: { color }, backdrop: null,
    });
  });
  // Names the fake's titles match: what is measured is the provider's part, not the naming's.
  makeTree(root, movies.map((m) => `${m.title} (${m.year})/${m.title} (${m.year}).mkv`));
  const tmdb = await fake.start();
  say(`${FILMS} films written; the fake TMDB at ${tmdb.url}, ${LATENCY_MS} ms per answer, ${CAP} requests/s`);
  const { instance, dataDir } = await startWithFakeTmdb(tmdb, KEY);
  const base = instance.url;
  try {
    const library = (await api(base, 'POST', '/api/v1/library', 201, { name: 'Films', path: root, mediaType: 'movie' })).data;
    fake.reset();
    Object.assign(fake, { latencyMs: LATENCY_MS, rateLimit: CAP });
    const t0 = performance.now();
    const jobId: string = (await api(base, 'POST', '/api/v1/scan/path', 202, { path: root, mediaType: 'movie', libraryId: library.id })).data.jobId;
    const at: { listed?: number; posters?: number; done?: number } = {};
    let job: { status: string; counts: Record<string, number> } | undefined;
    let apiAtPosters = 0;
    while (!at.done) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      const seconds = (performance.now() - t0) / 1000;
      const [listed, current] = await Promise.all([api(base, 'GET', '/api/v1/movies?limit=1', 200), api(base, 'GET', `/api/v1/scan/jobs/${jobId}`, 200)]);
      job = current.data;
      if (at.listed === undefined && listed.meta.total >= FILMS) at.listed = seconds;
      if (at.posters === undefined && job!.counts.artwork! >= FILMS) {
        at.posters = seconds;
        apiAtPosters = fake.stats.apiRequests;
      }
      if (job!.status !== 'running' && job!.status !== 'queued') at.done = seconds;
      if (seconds > 3600) throw new Error(`the scan ran past an hour: ${JSON.stringify(job)}`);
    }
    if (job!.status !== 'completed') throw new Error(`the scan ended ${job!.status}: ${JSON.stringify(job)}`);
    say(`listed after ${fmt(at.listed ?? NaN)} s, posters after ${fmt(at.posters ?? NaN)} s, described after ${fmt(at.done)} s; counts ${JSON.stringify(job!.counts)}`);

    // Counted at the fake: what was asked before the last poster, and in all.
    const log = fake.stats.log;
    const lastPoster = log.findLastIndex((r) => kindOf(r) === 'image');
    const before = log.slice(0, lastPoster + 1).filter((r) => r.path.startsWith('/3/'));
    const all = log.filter((r) => r.path.startsWith('/3/'));
    const count = (rs: FakeRequest[], kind: string) => rs.filter((r) => kindOf(r) === kind).length;
    const perFilmAtPosters = before.length / FILMS;
    // What the films say now: a sample, each with its poster and its details.
    const sample = await Promise.all(
      ((await api(base, 'GET', `/api/v1/movies?limit=${SAMPLE}&sort=title`, 200)).data as Array<{ id: string }>).map(async (m) => (await api(base, 'GET', `/api/v1/movies/${m.id}`, 200)).data),
    );
    const complete = sample.filter((m) => m.media.posterUrl && m.metadata.cast.length === 1 && m.metadata.runtime === 104 && m.media.genres[0] === 'Drama').length;
    const rows = [
      ['every film listed (GET /movies total)', `${fmt(at.listed ?? NaN)} s`, '-', '-'],
      ['every film with its poster (the job\'s artwork count)', `${fmt(at.posters ?? NaN)} s`, '-', '-'],
      ['every film fully described (the job completed)', `${fmt(at.done)} s`, '-', '-'],
      ['provider API requests by the last poster: search / details / other', `${count(before, 'search')} / ${count(before, 'details')} / ${count(before, 'other')}`, '-', '-'],
      ['provider API requests per film by the last poster', fmt(perFilmAtPosters, 3), `≤ ${REQUESTS_PER_FILM_MAX}`, perFilmAtPosters <= REQUESTS_PER_FILM_MAX ? 'yes' : 'no'],
      [`provider API requests in all (${apiAtPosters} when the poll saw every poster)`, `${all.length} (${fmt(all.length / FILMS, 3)} per film): ${count(all, 'search')} searches, ${count(all, 'details')} details, ${count(all, 'other')} other`, '-', '-'],
      ['poster downloads', String(count(log, 'image')), '-', '-'],
      ['429s provoked; most API requests in any 1 s', `${fake.stats.rateLimited}; ${fake.stats.maxPerSecond}`, `0; ≤ ${CAP}`, fake.stats.rateLimited === 0 && fake.stats.maxPerSecond <= CAP ? 'yes' : 'no'],
      [`films of a sample of ${SAMPLE} (by title) with poster, genres, cast and runtime`, `${complete} of ${sample.length}`, 'all', complete === sample.length ? 'yes' : 'no'],
    ];
    const section = [
      `${machineLine()}, 1-minute load average ${loadBefore} before and ${load1()} after the run. ${FILMS} films (small files, a folder each, named \`Title (Year)\`) scanned for the first time with artwork on; the fake TMDB in the bench process knows each (a flat poster, no backdrop), answers after ${LATENCY_MS} ms and refuses more than ${CAP} API requests/s; the instance at its default pace (TMDB_REQUESTS_PER_SECOND ${CAP}) with an empty provider cache. Times from POST /scan/path, seen by polling every ${POLL_MS} ms.`,
      '',
      table(['measure', 'value', 'target', 'met?'], rows),
    ].join('\n');
    process.stdout.write(`\n${section}\n`);
    writeDoc('described', section);
  } catch (err) {
    process.stderr.write(`\n[described] the instance's output, last 4000 characters:\n${instance.output().slice(-4000)}\n`);
    throw err;
  } finally {
    await instance.stop();
    await tmdb.close();
    for (const dir of [root, dataDir]) await rm(dir, { recursive: true, force: true });
  }
};
