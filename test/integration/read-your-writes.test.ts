// Whatever a request changed, the next request sees, whichever handler answers it: a progress
// report and then the film's details, the lists, Continue watching and search; a played mark
// and then the show's details; a match fixed and then the details, the list and search. Each
// read is sent the moment the write has answered (on a home box a report is written behind its
// answer, so only one process graph holding the pending state makes these hold). The same
// checks run against the packaged functions in test/build/cloud.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';

const KEY = 'read-your-writes-tmdb-key-0123456789';
const HEAT = 949;
const REMAKE = 97020;

let tmdb: FakeTmdbServer;
let instance: Instance;
const movies = tempDir('ryw-movies');
const shows = tempDir('ryw-shows');

const ok = async (method: string, path: string, body?: unknown) => {
  const res = await call(method, path, { ...(body === undefined ? {} : jsonBody(body)), base: instance.url });
  assert.ok(res.status >= 200 && res.status < 300, `${method} ${path}: ${res.status} ${res.text}`);
  return res.json?.data;
};
const idOf = async (type: 'movies' | 'tvshows', title: string) => {
  const found = (await allPages(`/api/v1/${type}`, instance.url)).filter((m) => m.title === title);
  assert.equal(found.length, 1, `one ${title} among ${type}`);
  return found[0].id as string;
};

before(async () => {
  const fake = new FakeTmdb({ keys: [KEY] });
  fake.addMovie({ id: HEAT, title: 'Heat', releaseDate: '1995-12-15', overview: 'A bank robbery goes wrong.' });
  fake.addMovie({ id: 5548, title: 'RoboCop', releaseDate: '1987-07-17', overview: 'Detroit, a police officer rebuilt.', popularity: 40 });
  fake.addMovie({ id: REMAKE, title: 'RoboCop', releaseDate: '2014-01-30', overview: 'In 2028 OmniCorp builds a cyborg.', popularity: 12 });
  fake.addShow({
    id: 1396,
    name: 'Breaking Bad',
    firstAirDate: '2008-01-20',
    seasons: [
      {
        seasonNumber: 1,
        episodes: [
          { episodeNumber: 1, name: 'Pilot' },
          { episodeNumber: 2, name: "Cat's in the Bag..." },
        ],
      },
    ],
  });
  tmdb = await fake.start();
  instance = await startInstance({
    env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl },
  });
  makeTree(movies, ['Heat (1995).mkv', 'Robocop.mkv'], 4096);
  makeTree(shows, ['Breaking Bad/Season 1/Breaking.Bad.S01E01.mkv', 'Breaking Bad/Season 1/Breaking.Bad.S01E02.mkv'], 4096);
  for (const [path, mediaType] of [
    [movies, 'movie'],
    [shows, 'tvshow'],
  ] as const) {
    const job = await scan({ path, mediaType }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
  }
});

after(async () => {
  await instance?.stop();
  await tmdb?.close();
});

describe('a write, then at once reads through other handlers', () => {
  it('a progress report: the details, the lists, Continue watching and search', async () => {
    const heat = await idOf('movies', 'Heat');
    // Two reports a moment apart: the second is the one written behind its answer.
    await ok('PUT', `/api/v1/progress/${heat}`, { positionSeconds: 1800, durationSeconds: 6000 });
    const answered = await ok('PUT', `/api/v1/progress/${heat}`, { positionSeconds: 3000, durationSeconds: 6000 });
    assert.equal(answered.positionSeconds, 3000);
    const [detail, listed, continuing, hits] = await Promise.all([
      ok('GET', `/api/v1/movies/${heat}`),
      ok('GET', '/api/v1/movies?limit=100'),
      ok('GET', '/api/v1/continue'),
      ok('GET', '/api/v1/search?query=heat'),
    ]);
    assert.deepEqual([detail.userData.positionSeconds, detail.userData.progress], [3000, 0.5], 'details');
    assert.equal(listed.find((e: any) => e.id === heat).userData.positionSeconds, 3000, 'the recent list');
    assert.equal(continuing.find((e: any) => e.id === heat)?.userData.positionSeconds, 3000, 'Continue watching');
    assert.equal(hits.find((e: any) => e.id === heat).userData.positionSeconds, 3000, 'search');

    // The end of the film right after: played, out of Continue watching, everywhere at once.
    const ended = await ok('PUT', `/api/v1/progress/${heat}`, { positionSeconds: 5800, durationSeconds: 6000 });
    assert.deepEqual([ended.played, ended.playCount], [true, 1]);
    const sorted = await ok('GET', '/api/v1/movies?sort=title&played=true');
    const [after, rows] = await Promise.all([ok('GET', `/api/v1/movies/${heat}`), ok('GET', '/api/v1/continue')]);
    assert.deepEqual([after.userData.played, after.userData.playCount, after.userData.positionSeconds], [true, 1, 0]);
    assert.ok(
      sorted.some((e: any) => e.id === heat),
      'the played filter of a sorted list',
    );
    assert.ok(!rows.some((e: any) => e.id === heat), 'no longer in Continue watching');
  });

  it("a played mark: the show's details", async () => {
    const show = await idOf('tvshows', 'Breaking Bad');
    const before = await ok('GET', `/api/v1/tvshows/${show}`);
    const first = before.seasons[0].episodes[0].id;
    await ok('POST', `/api/v1/played/${first}`);
    const detail = await ok('GET', `/api/v1/tvshows/${show}`);
    assert.deepEqual(detail.userData, { playedEpisodes: 1, totalEpisodes: 2, played: false, favorite: false });
    assert.equal(detail.seasons[0].episodes[0].userData.played, true);
    const listed = (await ok('GET', '/api/v1/tvshows')).find((e: any) => e.id === show);
    assert.equal(listed.userData.progress, 0.5, 'the list: half its episodes played');
  });

  it('a match fixed: the details, the list and search', async () => {
    const robocop = await idOf('movies', 'RoboCop');
    assert.equal((await ok('GET', `/api/v1/movies/${robocop}`)).metadata.tmdbId, 5548);
    await ok('PUT', `/api/v1/movies/${robocop}/match`, { tmdbId: REMAKE });
    const [detail, listed, hits] = await Promise.all([
      ok('GET', `/api/v1/movies/${robocop}`),
      ok('GET', '/api/v1/movies?sort=year&order=desc'),
      ok('GET', '/api/v1/search?query=robocop'),
    ]);
    assert.deepEqual([detail.metadata.tmdbId, detail.metadata.matchLocked, detail.media.year], [REMAKE, true, 2014]);
    assert.equal(listed.find((e: any) => e.id === robocop).media.year, 2014, 'the sorted list');
    assert.equal(hits.find((e: any) => e.id === robocop)?.media.year, 2014, 'search');
  });
});
