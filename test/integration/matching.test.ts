// Fixing a wrong match through the stack, with the fake TMDB (test/support/fake-tmdb.ts, real
// HTTP) counting what the service asks of it: two films of one title and different years, a
// show remade under the same name, a film the provider does not know. A match chosen by hand
// survives a rescan, a rename (with a [tmdbid-…] pointing elsewhere), a refresh and a restart,
// and is never searched for again; unlocking matches it automatically again.
import assert from 'node:assert/strict';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';

const KEY = 'matching-tmdb-key-0123456789abcdef';
const OLD = 5548; // RoboCop (1987), the more popular: what a file without a year is matched to
const REMAKE = 97020; // RoboCop (2014), the one the file is
const UK = 1906; // Shameless (2004)
const US = 34307; // Shameless (2011), the more popular

let fake: FakeTmdb;
let tmdb: FakeTmdbServer;
let instance: Instance;
const dataDir = tempDir('matching-data');
const movies = tempDir('matching-movies');
const shows = tempDir('matching-shows');

const api = (method: string, path: string, opts: Parameters<typeof call>[2] = {}) => call(method, path, { ...opts, base: instance.url });
const get = async (path: string) => {
  const res = await api('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.json.data;
};
const start = async () => {
  instance = await startInstance({
    dataDir,
    env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, TMDB_TIMEOUT_MS: '1000' },
  });
};
const idOf = async (type: 'movies' | 'tvshows', title: string) => {
  const found = (await allPages(`/api/v1/${type}`, instance.url)).filter((m) => m.title === title);
  assert.equal(found.length, 1, `one ${title} among ${type}`);
  return found[0].id as string;
};
/** API requests to the fake since the last reset, by path ("/3/search/movie"). */
const asked = (prefix: string) =>
  Object.entries(fake.stats.byPath)
    .filter(([path]) => path.startsWith(prefix))
    .reduce((n, [, count]) => n + count, 0);
const apiRequests = () => fake.stats.apiRequests;
const scanned = async (path: string, mediaType: 'movie' | 'tvshow') => {
  const job = await scan({ path, mediaType }, instance.url);
  assert.equal(job.status, 'completed', JSON.stringify(job.error));
  return job;
};

before(async () => {
  fake = new FakeTmdb({ keys: [KEY] });
  fake.addMovie({
    id: OLD,
    title: 'RoboCop',
    releaseDate: '1987-07-17',
    overview: 'Detroit, a police officer rebuilt.',
    popularity: 40,
    genres: ['Action'],
  });
  fake.addMovie({
    id: REMAKE,
    title: 'RoboCop',
    releaseDate: '2014-01-30',
    overview: 'In 2028 OmniCorp builds a cyborg.',
    popularity: 12,
    genres: ['Science Fiction'],
  });
  fake.addMovie({ id: 949, title: 'Heat', releaseDate: '1995-12-15', overview: 'A bank robbery goes wrong.' });
  const season = (names: string[]) => [{ seasonNumber: 1, episodes: names.map((name, i) => ({ episodeNumber: i + 1, name })) }];
  fake.addShow({
    id: UK,
    name: 'Shameless',
    firstAirDate: '2004-01-13',
    overview: 'The Gallaghers of Manchester.',
    popularity: 8,
    seasons: season(['Frank Gallagher', 'Lip', 'Fiona']),
  });
  fake.addShow({
    id: US,
    name: 'Shameless',
    firstAirDate: '2011-01-09',
    overview: 'The Gallaghers of Chicago.',
    popularity: 60,
    seasons: season(['Pilot', 'Frank the Plank', 'Aunt Ginger']),
  });
  tmdb = await fake.start();
  await start();
  makeTree(movies, ['Robocop.mkv', 'Zzq Unknown Film (2001).mkv'], 4096);
  makeTree(shows, ['Shameless/Season 1/Shameless.S01E01.mkv', 'Shameless/Season 1/Shameless.S01E02.mkv'], 4096);
  await scanned(movies, 'movie');
  await scanned(shows, 'tvshow');
});
after(async () => {
  await instance?.stop();
  await tmdb?.close();
});

describe('fixing a wrong match', () => {
  let robocop: string;

  it('lists the titles the provider could not describe, apart from those it did', async () => {
    robocop = await idOf('movies', 'RoboCop');
    const automatic = await get(`/api/v1/movies/${robocop}`);
    assert.deepEqual(
      [automatic.metadata.tmdbId, automatic.media.year, automatic.metadata.matchLocked],
      [OLD, 1987, false],
      'the automatic match is the wrong one',
    );
    const unmatched = await api('GET', '/api/v1/movies?matched=false');
    assert.equal(unmatched.status, 200);
    assert.deepEqual(
      unmatched.json.data.map((e: any) => e.media.title),
      ['Zzq Unknown Film'],
    );
    assert.equal(unmatched.json.meta.total, 1);
    const matched = await get('/api/v1/movies?matched=true');
    assert.deepEqual(
      matched.map((e: any) => e.media.title),
      ['RoboCop'],
    );
    assert.equal((await api('GET', '/api/v1/movies?matched=maybe')).status, 400);
  });

  it('gives the candidates in one provider request, posters through the service and no key in any URL', async () => {
    fake.reset();
    const candidates = await get(`/api/v1/movies/${robocop}/candidates`);
    assert.equal(apiRequests(), 1, JSON.stringify(fake.stats.byPath));
    assert.equal(asked('/3/search/movie'), 1);
    assert.deepEqual(candidates.map((c: any) => [c.tmdbId, c.title, c.year]).sort(), [
      [OLD, 'RoboCop', 1987],
      [REMAKE, 'RoboCop', 2014],
    ]);
    const remake = candidates.find((c: any) => c.tmdbId === REMAKE);
    assert.equal(remake.overview, 'In 2028 OmniCorp builds a cyborg.');
    assert.equal(remake.originalTitle, 'RoboCop');
    assert.ok(remake.posterUrl.startsWith(`${instance.url}/api/v1/provider-images/`), remake.posterUrl);
    assert.ok(!JSON.stringify(candidates).includes(KEY) && !JSON.stringify(candidates).includes(tmdb.url));
    const poster = await fetch(remake.posterUrl);
    assert.equal(poster.status, 200);
    assert.match(String(poster.headers.get('content-type')), /^image\//);
    assert.equal(poster.headers.get('ratelimit'), null, 'posters are not counted');
    const again = await fetch(remake.posterUrl);
    assert.equal(again.status, 200);
    assert.equal(fake.stats.imageRequests, 1, 'kept a while: asked of the provider once');
    // An edited query and a year narrow it.
    const narrowed = await get(`/api/v1/movies/${robocop}/candidates?query=RoboCop&year=2014`);
    assert.deepEqual(
      narrowed.map((c: any) => c.tmdbId),
      [REMAKE],
    );
    assert.equal((await api('GET', '/api/v1/movies/mv_nosuchmovie/candidates')).status, 404);
    assert.equal((await api('GET', `/api/v1/tvshows/${robocop}/candidates`)).status, 404, 'a movie is not a show');
    assert.equal((await api('GET', '/api/v1/provider-images/..%2Fetc%2Fpasswd')).status, 400);
  });

  it('refuses an id the provider does not know (422) and changes nothing', async () => {
    const res = await api('PUT', `/api/v1/movies/${robocop}/match`, jsonBody({ tmdbId: 999_999 }));
    assert.equal(res.status, 422);
    assert.equal(res.json.type, '/problems/unknown-provider-id');
    const still = await get(`/api/v1/movies/${robocop}`);
    assert.deepEqual([still.metadata.tmdbId, still.metadata.matchLocked], [OLD, false]);
    assert.equal((await api('PUT', `/api/v1/movies/${robocop}/match`, jsonBody({ tmdbId: 'x' }))).status, 400);
    assert.equal((await api('PUT', `/api/v1/movies/${robocop}/match`, jsonBody({}))).status, 400);
  });

  it('describes the film from the record chosen at once, in at most two provider requests and its pictures', async () => {
    fake.reset();
    const res = await api('PUT', `/api/v1/movies/${robocop}/match`, jsonBody({ tmdbId: REMAKE }));
    assert.equal(res.status, 200, res.text);
    const movie = res.json.data;
    assert.deepEqual(
      [movie.metadata.tmdbId, movie.media.year, movie.media.overview, movie.metadata.matchLocked, movie.metadata.matched],
      [REMAKE, 2014, 'In 2028 OmniCorp builds a cyborg.', true, true],
    );
    assert.deepEqual(movie.media.genres, ['Science Fiction']);
    assert.ok(movie.poster, 'its poster');
    assert.ok(apiRequests() <= 2, `${apiRequests()} provider requests: ${JSON.stringify(fake.stats.byPath)}`);
    assert.equal(asked('/3/search'), 0);
    // The search index follows.
    const hits = await get('/api/v1/search?query=robocop');
    assert.equal(hits.find((h: any) => h.id === robocop)?.media.year, 2014);
  });

  it('keeps the choice through a rescan, a rename with a [tmdbid-…] naming the other film, a refresh and a restart, never searching again', async () => {
    fake.reset();
    await scanned(movies, 'movie');
    renameSync(join(movies, 'Robocop.mkv'), join(movies, `Robocop Directors Cut [tmdbid-${OLD}].mkv`));
    writeFileSync(
      join(movies, `Robocop Directors Cut [tmdbid-${OLD}].nfo`),
      `<movie><title>RoboCop</title><year>1987</year><tmdbid>${OLD}</tmdbid></movie>`,
    );
    const job = await scanned(movies, 'movie');
    assert.equal(job.counts.removed, 0, 'a rename is a move');
    let movie = await get(`/api/v1/movies/${robocop}`);
    assert.deepEqual(
      [movie.metadata.tmdbId, movie.media.year, movie.metadata.matchLocked, movie.media.title],
      [REMAKE, 2014, true, 'RoboCop'],
    );
    assert.equal(asked('/3/search'), 0, `no search: ${JSON.stringify(fake.stats.byPath)}`);
    assert.equal(asked(`/3/movie/${OLD}`), 0, 'nor the id in its name or NFO');
    // Nor anything else: not its own record, not a picture (the films around it unchanged too).
    assert.equal(
      fake.stats.requests,
      0,
      `nothing asked of the provider by two rescans, one after a rename: ${JSON.stringify(fake.stats.byPath)}`,
    );

    const refreshed = await api('POST', `/api/v1/movies/${robocop}/refresh`);
    assert.equal(refreshed.status, 202, refreshed.text);
    assert.deepEqual([refreshed.json.data.metadata.tmdbId, refreshed.json.data.metadata.matchLocked], [REMAKE, true]);
    assert.equal(asked(`/3/movie/${REMAKE}`), 1, 'a refresh asks the provider again, by the pinned id');
    assert.equal(asked('/3/search'), 0);

    await instance.stop();
    await start();
    movie = await get(`/api/v1/movies/${robocop}`);
    assert.deepEqual([movie.metadata.tmdbId, movie.metadata.matchLocked], [REMAKE, true]);
    fake.reset();
    await scanned(movies, 'movie');
    assert.equal(asked('/3/search'), 0);
    assert.equal((await get(`/api/v1/movies/${robocop}`)).metadata.tmdbId, REMAKE);
  });

  it('matches automatically again once unlocked', async () => {
    const res = await api('DELETE', `/api/v1/movies/${robocop}/match`);
    assert.equal(res.status, 200, res.text);
    // Its name and NFO now say 1987: the automatic match follows them.
    assert.deepEqual([res.json.data.metadata.tmdbId, res.json.data.media.year, res.json.data.metadata.matchLocked], [OLD, 1987, false]);
    const again = await api('DELETE', `/api/v1/movies/${robocop}/match`);
    assert.equal(again.status, 200, 'unlocking an unlocked film answers it as it is');
  });

  it('takes a film the provider could not describe off the unmatched list once fixed by hand', async () => {
    const unknown = await idOf('movies', 'Zzq Unknown Film');
    const res = await api('PUT', `/api/v1/movies/${unknown}/match`, jsonBody({ tmdbId: 949 }));
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.json.data.media.title, res.json.data.metadata.matched], ['Heat', true]);
    const unmatched = await api('GET', '/api/v1/movies?matched=false');
    assert.deepEqual(unmatched.json.data, []);
    assert.equal(unmatched.json.meta.total, 0);
  });

  it('re-describes a remade show and its episodes from the record chosen, and episodes added later too', async () => {
    const id = await idOf('tvshows', 'Shameless');
    const automatic = await get(`/api/v1/tvshows/${id}`);
    assert.equal(automatic.metadata.tmdbId, US, 'the automatic match is the popular remake');
    const candidates = await get(`/api/v1/tvshows/${id}/candidates`);
    assert.deepEqual(candidates.map((c: any) => c.tmdbId).sort(), [UK, US].sort());
    const res = await api('PUT', `/api/v1/tvshows/${id}/match`, jsonBody({ tmdbId: UK }));
    assert.equal(res.status, 200, res.text);
    const show = res.json.data;
    assert.deepEqual(
      [show.metadata.tmdbId, show.media.year, show.media.overview, show.metadata.matchLocked],
      [UK, 2004, 'The Gallaghers of Manchester.', true],
    );
    assert.deepEqual(
      show.seasons[0].episodes.map((e: any) => e.title),
      ['Frank Gallagher', 'Lip'],
    );

    fake.reset();
    makeTree(shows, ['Shameless/Season 1/Shameless.S01E03.mkv'], 4096);
    await scanned(shows, 'tvshow');
    const later = await get(`/api/v1/tvshows/${id}`);
    assert.deepEqual(
      later.seasons[0].episodes.map((e: any) => e.title),
      ['Frank Gallagher', 'Lip', 'Fiona'],
    );
    assert.deepEqual([later.metadata.tmdbId, later.metadata.matchLocked], [UK, true]);
    assert.equal(asked('/3/search'), 0);
  });

  it('says so in words when the provider cannot be asked, with no 5xx and nothing changed', async () => {
    const id = await idOf('movies', 'RoboCop');
    fake.failNext(40, 503);
    const down = await api('GET', `/api/v1/movies/${id}/candidates?query=Down`);
    assert.equal(down.status, 424, down.text);
    assert.equal(down.json.type, '/problems/provider-unavailable');
    assert.ok(down.headers['retry-after']);
    fake.reset();

    assert.equal((await api('PATCH', '/api/v1/settings', jsonBody({ features: { metadataFetching: false } }))).status, 200);
    try {
      for (const [method, path, body] of [
        ['GET', `/api/v1/movies/${id}/candidates`, undefined],
        ['PUT', `/api/v1/movies/${id}/match`, { tmdbId: REMAKE }],
        ['POST', `/api/v1/movies/${id}/refresh`, undefined],
      ] as const) {
        const res = await api(method, path, body ? jsonBody(body) : {});
        assert.equal(res.status, 409, `${method} ${path}: ${res.text}`);
        assert.equal(res.json.type, '/problems/provider-not-configured');
        assert.match(res.json.detail, /switched off/);
      }
      assert.equal((await get(`/api/v1/movies/${id}`)).metadata.matchLocked, false);
    } finally {
      await api('PATCH', '/api/v1/settings', jsonBody({ features: { metadataFetching: true } }));
    }
  });
});
