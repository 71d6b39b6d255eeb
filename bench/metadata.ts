// The metadata part of `npm run bench` (`tsx bench/run.ts metadata` alone): a big library
// described, as a user sees it. The first scan of BENCH_METADATA_FILMS (10,000) films, artwork
// on, against the fake TMDB (test/support/fake-tmdb.ts) answering after 40 ms and refusing more
// than 40 requests/s, as TMDB does, on an instance of its own (the shared stack has no provider):
// when every film is listed, has its poster and is fully described; the provider requests per
// film, the pace the client kept and the 429s, counted at the fake; then a stored poster variant
// through the artwork route against health.
import { rm } from 'node:fs/promises';
import { FakeTmdb, type FakeRequest } from '../test/support/fake-tmdb';
import { startInstance, tempDir } from '../test/support/instance';
import { makeTree } from '../test/support/media';
import { api, fmt, getter, machineLine, sayer, sequential, sleep, table, writeDoc } from './support';
import { generateMovies } from './tree';

const FILMS = Number(process.env.BENCH_METADATA_FILMS ?? 10_000);
const LATENCY_MS = 40;
const CAP = 40; // requests/s, the fake's limit and the client's default pace (TMDB_REQUESTS_PER_SECOND)
const POLL_MS = 500;
const SAMPLE = 20;
const KEY = 'd35cr1b3dk3y0123456789abcdef0123';
// Targets from the issues.
const REQUESTS_PER_FILM_MAX = 1.1;
const RATE_SHARE = 0.9;

const say = sayer('metadata');
const kindOf = (r: FakeRequest) =>
  r.path.startsWith('/t/p/')
    ? 'image'
    : r.path.startsWith('/3/search/')
      ? 'search'
      : /^\/3\/(movie|tv)\/\d+$/.test(r.path)
        ? 'details'
        : 'other';

/** Arrivals at the fake: how many, first to last, at what rate, and the pauses longer than two of the client's slots. */
const arrivals = (log: FakeRequest[]) => {
  const spanMs = log.length > 1 ? log.at(-1)!.at - log[0]!.at : 0;
  const slot = (1000 / CAP) * 1.05; // lib/metadata/tmdb/rate-limiter.ts: SPACING_MARGIN
  const gaps = log
    .slice(1)
    .map((r, i) => r.at - log[i]!.at)
    .filter((g) => g > 2 * slot);
  return {
    spanMs,
    perSecond: spanMs > 0 ? (log.length - 1) / (spanMs / 1000) : 0,
    pauses: gaps.length,
    pausedMs: gaps.reduce((sum, g) => sum + g - slot, 0),
  };
};

export const runMetadata = async () => {
  const movies = generateMovies(FILMS);
  const fake = new FakeTmdb({ keys: [KEY], latencyMs: LATENCY_MS, rateLimit: CAP });
  movies.forEach((m, i) => {
    const id = 300_001 + i;
    fake.addMovie({
      id,
      title: m.title,
      releaseDate: `${m.year}-06-15`,
      overview: `About ${m.title}.`,
      genres: ['Drama'],
      voteAverage: 7.1,
      runtime: 104,
      tagline: `${m.title}, at last.`,
      cast: [{ name: `Lead ${i}`, character: 'Lead' }],
      poster: { color: `#${((id * 2654435761) >>> 8).toString(16).padStart(6, '0').slice(-6)}` },
      backdrop: null,
    });
  });
  const root = tempDir('bench-metadata');
  // Names the fake's titles match: what is measured is the provider's part, not the naming's.
  makeTree(
    root,
    movies.map((m) => `${m.title} (${m.year})/${m.title} (${m.year}).mkv`),
  );
  const tmdb = await fake.start();
  const instance = await startInstance({
    env: { RATE_LIMIT_MAX: '1000000000', TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl },
  });
  const base = instance.url;
  try {
    const library = (await api(base, 'POST', '/api/v1/library', 201, { name: 'Films', path: root, mediaType: 'movie' })).data;
    fake.reset();
    Object.assign(fake, { latencyMs: LATENCY_MS, rateLimit: CAP });
    const t0 = performance.now();
    const jobId: string = (await api(base, 'POST', '/api/v1/scan/path', 202, { path: root, mediaType: 'movie', libraryId: library.id }))
      .data.jobId;
    const at: { listed?: number; posters?: number; done?: number } = {};
    let job: any;
    while (at.done === undefined) {
      await sleep(POLL_MS);
      const seconds = (performance.now() - t0) / 1000;
      const [listed, current] = await Promise.all([
        api(base, 'GET', '/api/v1/movies?limit=1', 200),
        api(base, 'GET', `/api/v1/scan/jobs/${jobId}`, 200),
      ]);
      job = current.data;
      if (at.listed === undefined && listed.meta.total >= FILMS) at.listed = seconds;
      if (at.posters === undefined && job.counts.artwork >= FILMS) at.posters = seconds;
      if (job.status !== 'running' && job.status !== 'queued') at.done = seconds;
      if (seconds > 3600) throw new Error(`the scan ran past an hour: ${JSON.stringify(job)}`);
    }
    if (job.status !== 'completed') throw new Error(`the scan ended ${job.status}: ${JSON.stringify(job)}`);
    say(`listed after ${fmt(at.listed ?? NaN)} s, posters after ${fmt(at.posters ?? NaN)} s, described after ${fmt(at.done)} s`);

    const log = fake.stats.log;
    const lastPoster = log.findLastIndex((r) => kindOf(r) === 'image');
    const apiLog = log.filter((r) => r.path.startsWith('/3/'));
    const before = log.slice(0, lastPoster + 1).filter((r) => r.path.startsWith('/3/'));
    const count = (rs: FakeRequest[], kind: string) => rs.filter((r) => kindOf(r) === kind).length;
    const pace = arrivals(apiLog);
    const perFilm = before.length / FILMS;
    const sample = await Promise.all(
      ((await api(base, 'GET', `/api/v1/movies?limit=${SAMPLE}&sort=title`, 200)).data as Array<{ id: string }>).map(
        async (m) => (await api(base, 'GET', `/api/v1/movies/${m.id}`, 200)).data,
      ),
    );
    const complete = sample.filter(
      (m) => m.media.posterUrl && m.metadata.cast.length === 1 && m.metadata.runtime === 104 && m.media.genres[0] === 'Drama',
    ).length;

    // A stored variant through the artwork route, against health.
    const poster = new URL(sample[0].media.posterUrl);
    const variant = `${base}${poster.pathname}${poster.search}&w=320`;
    await getter(variant, { Accept: 'image/webp' })(); // renders and stores it
    const artwork = await sequential(getter(variant, { Accept: 'image/webp' }));
    const health = await sequential(getter(`${base}/api/v1/health`));

    const yes = (ok: boolean) => (ok ? 'yes' : 'no');
    writeDoc(
      'metadata',
      [
        `${machineLine()}. ${FILMS} films${FILMS === 10_000 ? '' : ' (BENCH_METADATA_FILMS; the full size is 10,000)'} (small files, a folder each, named \`Title (Year)\`) scanned for the first time with artwork on; the fake TMDB in the bench process knows each (a flat poster, no backdrop), answers after ${LATENCY_MS} ms and refuses more than ${CAP} API requests/s over a sliding second; the instance at its default pace with an empty provider cache. Times from POST /scan/path, seen by polling every ${POLL_MS} ms.`,
        '',
        table(
          ['measure', 'value', 'target', 'met?'],
          [
            ['every film listed (GET /movies total)', `${fmt(at.listed ?? NaN)} s`, '-', '-'],
            ["every film with its poster (the job's artwork count)", `${fmt(at.posters ?? NaN)} s`, '-', '-'],
            ['every film fully described (the job completed)', `${fmt(at.done)} s`, '-', '-'],
            [
              'provider API requests per film by the last poster (search / details / other)',
              `${fmt(perFilm, 3)} (${count(before, 'search')} / ${count(before, 'details')} / ${count(before, 'other')})`,
              `≤ ${REQUESTS_PER_FILM_MAX}`,
              yes(perFilm <= REQUESTS_PER_FILM_MAX),
            ],
            [
              'provider API requests in all; poster downloads',
              `${apiLog.length} (${count(apiLog, 'search')} searches, ${count(apiLog, 'details')} details); ${count(log, 'image')}`,
              '-',
              '-',
            ],
            [
              'the pace kept: API requests/s, first to last',
              `${fmt(pace.perSecond)} (${fmt((100 * pace.perSecond) / CAP, 0)}% of the cap) over ${fmt(pace.spanMs / 1000)} s`,
              `≥ ${RATE_SHARE * 100}% of the cap`,
              yes(pace.perSecond >= RATE_SHARE * CAP),
            ],
            [
              "pauses between API requests longer than two of the client's slots: count, idle time",
              `${pace.pauses}, ${fmt(pace.pausedMs / 1000)} s`,
              '-',
              '-',
            ],
            [
              '429s provoked; most API requests in any 1 s',
              `${fake.stats.rateLimited}; ${fake.stats.maxPerSecond}`,
              `0; ≤ ${CAP}`,
              yes(fake.stats.rateLimited === 0 && fake.stats.maxPerSecond <= CAP),
            ],
            [
              `films of a sample of ${SAMPLE} (by title) with poster, genres, cast and runtime`,
              `${complete} of ${sample.length}`,
              'all',
              yes(complete === sample.length),
            ],
            [
              'GET a stored 320-wide WebP poster variant: p50 / p99 (one at a time)',
              `${fmt(artwork.p50)} / ${fmt(artwork.p99)} ms (health ${fmt(health.p50)} / ${fmt(health.p99)} ms)`,
              '-',
              '-',
            ],
          ],
        ),
      ].join('\n'),
    );
  } catch (err) {
    process.stderr.write(`\n[metadata] the instance's output, last 4000 characters:\n${instance.output().slice(-4000)}\n`);
    throw err;
  } finally {
    await instance.stop();
    await tmdb.close();
    for (const dir of [root, instance.dataDir]) await rm(dir, { recursive: true, force: true });
  }
};
