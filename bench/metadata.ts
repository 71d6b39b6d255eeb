// The metadata part of `npm run bench` (`tsx bench/run.ts metadata` alone): a scan's metadata
// phase over 1,000 movies against the fake TMDB (test/support/fake-tmdb.ts) answering after
// 40 ms and refusing more than 40 requests/s, as TMDB does; artwork is off for that scan so
// the phase runs alone. A second scan of 100 other movies with artwork on gives the artwork
// phase's pace, and one of its posters the artwork route's latency for a stored variant,
// against health's in the same run. Then, in the bench process with the instance stopped:
// poster colours, a WebP and an AVIF variant, and a media probe. Writes the metadata section
// of docs/benchmarks.md.
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeTmdb, type FakeRequest } from '../test/support/fake-tmdb';
import { makeTree, waitForJob } from '../test/support/media';
import { call, jsonBody } from '../test/support/stack';
import { measurePosterColors, measureVariant } from './posters';
import { measureProbe } from './probe';
import { machineLine, startWithFakeTmdb, writeDoc } from './support';
import { generateMovies, type Movie } from './tree';

const MOVIES = 1000;
const ART_MOVIES = 100;
const LATENCY_MS = 40;
const CAP = 40; // requests/s, the fake's limit and the client's default pace (TMDB_REQUESTS_PER_SECOND)
const SEQUENTIAL = 200;
const WARM_UP = 10;
const SCAN_TIMEOUT_MS = 20 * 60_000;
const KEY = 'b3nchk3y0123456789abcdef01234567';

// Targets from the issue.
const RATE_SHARE = 0.9;
const POSTER_MAX_MS = 20;

const say = (line: string) => process.stdout.write(`[metadata] ${line}\n`);
const fmt = (n: number, digits = 1) => n.toFixed(digits);
const yes = (ok: boolean) => (ok ? 'yes' : 'no');

/** One API call; anything but the expected status throws with the answer. */
const api = async (base: string, method: string, path: string, expect: number, body?: unknown) => {
  const res = await call(method, path, { base, ...(body === undefined ? {} : jsonBody(body)) });
  if (res.status !== expect) throw new Error(`${method} ${path} -> ${res.status} (expected ${expect}): ${res.text.slice(0, 1000)}`);
  return res.json.data;
};

/** A library of `Title (Year).mkv` files (sparse), and the same titles at the fake with a flat poster and no backdrop, cheap to draw. */
const seedLibrary = (fake: FakeTmdb, movies: Movie[], firstId: number) => {
  const root = mkdtempSync(join(tmpdir(), 'mls-bench-metadata-'));
  movies.forEach((m, i) => {
    const color = `#${(((firstId + i) * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)}`;
    fake.addMovie({ id: firstId + i, title: m.title, releaseDate: `${m.year}-06-15`, overview: `About ${m.title}.`, poster: { color }, backdrop: null });
  });
  makeTree(root, movies.map((m) => `${m.title} (${m.year}).mkv`));
  return root;
};

/** A new library over root, scanned to completion: the job, and the wall time from POST /scan/path. */
const scanLibrary = async (base: string, root: string, name: string) => {
  const library = await api(base, 'POST', '/api/v1/library', 201, { name, path: root, mediaType: 'movie' });
  const started = performance.now();
  const queued = await api(base, 'POST', '/api/v1/scan/path', 202, { path: root, mediaType: 'movie', libraryId: library.id });
  const job = await waitForJob(queued.jobId, base, SCAN_TIMEOUT_MS);
  const wallMs = performance.now() - started;
  if (job.status !== 'completed') throw new Error(`${name}: job ${job.status}: ${JSON.stringify(job)}`);
  say(`${name}: completed in ${fmt(wallMs / 1000)} s, counts ${JSON.stringify(job.counts)}`);
  return { job, wallMs };
};

/** Arrivals at the fake: how many, first to last, at what rate, and the pauses longer than two of the client's 26 ms slots (what keeps the rate below the cap). */
const arrivals = (log: FakeRequest[]) => {
  const spanMs = log.length > 1 ? log.at(-1)!.at - log[0]!.at : 0;
  const slot = (1000 / CAP) * 1.05; // lib/metadata/tmdb/rate-limiter.ts: SPACING_MARGIN
  const gaps = log.slice(1).map((r, i) => r.at - log[i]!.at).filter((g) => g > 2 * slot);
  return {
    count: log.length,
    spanMs,
    perSecond: spanMs > 0 ? (log.length - 1) / (spanMs / 1000) : 0,
    pauses: gaps.length,
    pausedMs: gaps.reduce((sum, g) => sum + g - slot, 0),
  };
};

/** p50 and p99 of SEQUENTIAL requests, one at a time, body read, after a warm-up. */
const sequentialLatency = async (url: string, headers: Record<string, string> = {}) => {
  const times: number[] = [];
  for (let i = 0; i < WARM_UP + SEQUENTIAL; i++) {
    const started = performance.now();
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`GET ${url} -> ${res.status}`);
    if (i >= WARM_UP) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  return { p50: at(0.5), p99: at(0.99) };
};

/** Everything that needs the instance and the fake. */
const measureService = async () => {
  // Distinct titles (a remake has another year), split between the two scans.
  const movies = generateMovies(MOVIES + ART_MOVIES);
  const fake = new FakeTmdb({ keys: [KEY], latencyMs: LATENCY_MS, rateLimit: CAP });
  const roots = [seedLibrary(fake, movies.slice(0, MOVIES), 100_001), seedLibrary(fake, movies.slice(MOVIES), 200_001)];
  const tmdb = await fake.start();
  say(`starting an instance; the fake TMDB at ${tmdb.url}, ${LATENCY_MS} ms per answer, ${CAP} requests/s`);
  const { instance, dataDir } = await startWithFakeTmdb(tmdb, KEY);
  const base = instance.url;
  try {
    // 1. The metadata phase alone: artwork off, so no image is fetched or decoded meanwhile.
    await api(base, 'PATCH', '/api/v1/settings', 200, { features: { artwork: false } });
    const metadataScan = await scanLibrary(base, roots[0]!, `${MOVIES} movies, artwork off`);
    const phase = arrivals(fake.stats.log.filter((r) => r.path.startsWith('/3/')));
    const limits = { rateLimited: fake.stats.rateLimited, maxPerSecond: fake.stats.maxPerSecond };
    say(`metadata phase: ${phase.count} API requests in ${fmt(phase.spanMs / 1000)} s, ${fmt(phase.perSecond)}/s; ${limits.rateLimited} 429s, at most ${limits.maxPerSecond} in a second; ${phase.pauses} pauses over two slots, ${fmt(phase.pausedMs / 1000)} s idle in all`);

    // 2. Artwork on: a smaller library, then its images' pace. reset() clears the knobs too.
    fake.reset();
    Object.assign(fake, { latencyMs: LATENCY_MS, rateLimit: CAP });
    await api(base, 'PATCH', '/api/v1/settings', 200, { features: { artwork: true } });
    const artworkScan = await scanLibrary(base, roots[1]!, `${ART_MOVIES} movies, artwork on`);
    const images = arrivals(fake.stats.log.filter((r) => r.path.startsWith('/t/p/')));
    say(`artwork phase: ${images.count} images in ${fmt(images.spanMs / 1000)} s, ${fmt(images.perSecond)}/s`);

    // 3. A stored variant through the artwork route, against health on the same connection pool.
    const [recent] = await api(base, 'GET', '/api/v1/movies?limit=1', 200);
    const details = await api(base, 'GET', `/api/v1/movies/${encodeURIComponent(recent.id)}`, 200);
    const posterUrl: string | null = details.media.posterUrl;
    if (!posterUrl) throw new Error(`${recent.title} has no posterUrl after a scan with artwork on`);
    const poster = new URL(posterUrl);
    const variantUrl = `${base}${poster.pathname}${poster.search}&w=320`;
    const first = await fetch(variantUrl, { headers: { Accept: 'image/webp' } }); // renders and stores the variant
    await first.arrayBuffer();
    if (first.headers.get('content-type') !== 'image/webp') throw new Error(`${variantUrl}: ${first.status} ${first.headers.get('content-type')}`);
    const artworkRoute = await sequentialLatency(variantUrl, { Accept: 'image/webp' });
    const health = await sequentialLatency(`${base}/api/v1/health`);
    say(`artwork route p50 ${fmt(artworkRoute.p50)} ms, p99 ${fmt(artworkRoute.p99)} ms; health p50 ${fmt(health.p50)} ms, p99 ${fmt(health.p99)} ms`);
    return { metadataScan, phase, limits, artworkScan, images, artworkRoute, health };
  } catch (err) {
    process.stderr.write(`\n[metadata] the instance's output, last 4000 characters:\n${instance.output().slice(-4000)}\n`);
    throw err;
  } finally {
    await instance.stop();
    await tmdb.close();
    for (const dir of [...roots, dataDir]) await rm(dir, { recursive: true, force: true });
  }
};

const load1 = () => fmt(loadavg()[0] ?? 0, 2);

export const runMetadata = async () => {
  const loadBefore = load1();
  const s = await measureService();
  // In the bench process, with the instance gone: the cores are the bench's alone.
  say('poster colours, variants, probe');
  const colours = await measurePosterColors();
  const variant = await measureVariant();
  const probe = await measureProbe();

  const { phase, limits, metadataScan, artworkScan, images } = s;
  const share = phase.perSecond / CAP;
  const matched = metadataScan.job.counts.matched;
  const ms = (v: number) => `${fmt(v)} ms`;
  const rows: [string, string, string, string][] = [
    [`provider API requests, a scan of ${MOVIES} movies (a search each in the metadata phase, then each one's details as the finalizing phase begins)`, String(phase.count), '-', '-'],
    ['both passes: first to last API request at the fake', `${fmt(phase.spanMs / 1000)} s`, '-', '-'],
    ['requests/s achieved', `${fmt(phase.perSecond)} (${fmt(100 * share)}% of the ${CAP}/s cap)`, `≥ ${RATE_SHARE * 100}% of the cap`, yes(share >= RATE_SHARE)],
    ['429s provoked', String(limits.rateLimited), '0', yes(limits.rateLimited === 0)],
    ['most API requests in any 1 s window', String(limits.maxPerSecond), `≤ ${CAP}`, yes(limits.maxPerSecond <= CAP)],
    ['pauses between API requests longer than two of the client\'s slots (52 ms): count, idle time', `${phase.pauses}, ${fmt(phase.pausedMs / 1000)} s`, '-', '-'],
    ['movies matched (job counts)', `${matched} of ${MOVIES}`, 'all', yes(matched === MOVIES)],
    [`whole scan, ${MOVIES} movies, artwork off: POST /scan/path to completed`, `${fmt(metadataScan.wallMs / 1000)} s`, '-', '-'],
    [`artwork phase, ${ART_MOVIES} other movies, artwork on: poster downloads (780 wide), first to last`, `${images.count} in ${fmt(images.spanMs / 1000)} s, ${fmt(images.perSecond)}/s (${artworkScan.job.counts.artwork} stored)`, '-', '-'],
    [`whole scan, ${ART_MOVIES} movies, artwork on`, `${fmt(artworkScan.wallMs / 1000)} s`, '-', '-'],
    [`mesh-gradient colours of a 500x750 JPEG poster (median of ${colours.samples})`, ms(colours.msPerPoster), `≤ ${POSTER_MAX_MS} ms`, yes(colours.msPerPoster <= POSTER_MAX_MS)],
    [`GET artwork, stored 320-wide WebP variant: p50 / p99 (${SEQUENTIAL} sequential)`, `${ms(s.artworkRoute.p50)} / ${ms(s.artworkRoute.p99)}`, '-', '-'],
    [`GET /api/v1/health, same run: p50 / p99 (${SEQUENTIAL} sequential)`, `${ms(s.health.p50)} / ${ms(s.health.p99)}`, 'reference', '-'],
    [`media probe, per file (median of rounds over ${probe.files} small files)`, ms(probe.msPerFile), '-', '-'],
    ['780-wide variant of a 2000x3000 JPEG: WebP / AVIF', `${ms(variant.webpMs)} / ${ms(variant.avifMs)}`, '-', '-'],
  ];
  const section = [
    `${machineLine()}, 1-minute load average ${loadBefore} before and ${load1()} after the run. The fake TMDB in the bench process, ${LATENCY_MS} ms per answer, ${CAP} API requests/s over a sliding second (429 beyond); the instance at its default pace (TMDB_REQUESTS_PER_SECOND ${CAP}) with an empty provider cache. Poster colours, variants and probes in the bench process after the instance stopped.`,
    '',
    '| measure | value | target | met? |',
    '|---|---|---|---|',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  writeDoc('metadata', section);
};
