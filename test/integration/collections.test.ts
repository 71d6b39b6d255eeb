// Film collections through the stack, against the fake TMDB (test/support/fake-tmdb.ts, real
// HTTP) counting what the service asks of it: two of the three Godfather films here (the third
// listed as missing), the collection's parts asked once for both films and not again by a
// rescan, an NFO's <set> with the provider's collection id (counted) and without one (left out),
// a film in no collection, a refresh asking again, and the 400 and 404 answers.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call } from '../support/stack';

const KEY = 'collections-tmdb-key-0123456789ab';
const GODFATHER = 230;
const ALIEN = 8091;

let fake: FakeTmdb;
let tmdb: FakeTmdbServer;
let instance: Instance;
const movies = tempDir('collections-movies');

const api = (method: string, path: string) => call(method, path, { base: instance.url });
const get = async (path: string) => {
  const res = await api('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.json.data;
};
const idOf = async (title: string) => {
  const found = (await allPages('/api/v1/movies', instance.url)).filter((m) => m.title === title);
  assert.equal(found.length, 1, `one ${title} among the movies`);
  return found[0].id as string;
};
/** Requests to the fake since its last reset whose path starts so ("/3/collection/"). */
const asked = (prefix: string) => Object.fromEntries(Object.entries(fake.stats.byPath).filter(([path]) => path.startsWith(prefix)));
const scanned = async () => {
  const job = await scan({ path: movies, mediaType: 'movie' }, instance.url);
  assert.equal(job.status, 'completed', JSON.stringify(job.error));
  return job;
};
/** A part of a collection's page, its film's media left out. */
const part = ({ media, ...rest }: any) => ({ ...rest, media: media === null ? null : `${media.title} (${media.year})` });

before(async () => {
  fake = new FakeTmdb({ keys: [KEY] });
  fake.addMovie({ id: 238, title: 'The Godfather', releaseDate: '1972-03-14', overview: 'The aging patriarch of a dynasty.' });
  fake.addMovie({ id: 240, title: 'The Godfather Part II', releaseDate: '1974-12-20', overview: 'The early life of Vito Corleone.' });
  fake.addMovie({ id: 242, title: 'The Godfather Part III', releaseDate: '1990-12-25', overview: 'Michael seeks to legitimise.' });
  fake.addMovie({ id: 348, title: 'Alien', releaseDate: '1979-05-25' });
  fake.addMovie({ id: 679, title: 'Aliens', releaseDate: '1986-07-18' });
  fake.addMovie({ id: 8077, title: 'Alien³', releaseDate: '1992-05-22' });
  fake.addMovie({ id: 949, title: 'Heat', releaseDate: '1995-12-15' });
  // Parts out of release order, as TMDB lists some.
  fake.addCollection({ id: GODFATHER, name: 'The Godfather Collection', overview: 'The Corleone family.', parts: [240, 238, 242] });
  // The provider leaves Alien³ out; an NFO puts it in.
  fake.addCollection({ id: ALIEN, name: 'Alien Collection', backdrop: null, parts: [348, 679] });
  tmdb = await fake.start();
  instance = await startInstance({
    env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, TMDB_TIMEOUT_MS: '1000' },
  });
  makeTree(
    movies,
    [
      'The Godfather (1972)/The Godfather (1972).mkv',
      'The Godfather Part II (1974)/The Godfather Part II (1974).mkv',
      'Alien 3 (1992)/Alien 3 (1992).mkv',
      'Heat (1995)/Heat (1995).mkv',
    ],
    4096,
  );
  writeFileSync(
    join(movies, 'Alien 3 (1992)', 'movie.nfo'),
    `<movie><title>Alien³</title><uniqueid type="tmdb" default="true">8077</uniqueid><set tmdbcolid="${ALIEN}"><name>Alien Collection</name><overview/></set></movie>`,
  );
  // A set by name alone: a collection of someone's own, not the provider's, so left out.
  writeFileSync(
    join(movies, 'Heat (1995)', 'movie.nfo'),
    '<movie><title>Heat</title><uniqueid type="tmdb">949</uniqueid><set><name>Michael Mann</name></set></movie>',
  );
  fake.reset();
  await scanned();
});
after(async () => {
  await instance?.stop();
  await tmdb?.close();
});

describe('film collections', () => {
  it('asks for each collection once, however many of its films are here, and keeps its pictures', () => {
    assert.deepEqual(asked('/3/collection/'), { [`/3/collection/${GODFATHER}`]: 1, [`/3/collection/${ALIEN}`]: 1 });
    // Posters at the size items' are fetched at, and the backdrop the Alien collection has none of is not asked for.
    assert.deepEqual(Object.fromEntries(Object.entries(asked('/t/p/')).filter(([p]) => p.includes('collection-'))), {
      [`/t/p/w780/collection-${GODFATHER}-poster.jpg`]: 1,
      [`/t/p/w1280/collection-${GODFATHER}-backdrop.jpg`]: 1,
      [`/t/p/w780/collection-${ALIEN}-poster.jpg`]: 1,
    });
  });

  it('gives a film its collection in its details, and null to a film in none or with a set that names no collection id', async () => {
    const godfather = await get(`/api/v1/movies/${await idOf('The Godfather')}`);
    assert.deepEqual(godfather.metadata.collection, { id: GODFATHER, name: 'The Godfather Collection' });
    const alien3 = await get(`/api/v1/movies/${await idOf('Alien³')}`);
    assert.deepEqual(alien3.metadata.collection, { id: ALIEN, name: 'Alien Collection' }, "the NFO's set, by its id");
    const heat = await get(`/api/v1/movies/${await idOf('Heat')}`);
    assert.equal(heat.metadata.collection, null);
  });

  it('lists the collections with a film here by name, with their pictures, owned and total', async () => {
    const list = await get('/api/v1/collections');
    const pictures = list.map((c: any) => [c.posterUrl, c.backdropUrl]);
    assert.deepEqual(
      list.map(({ posterUrl: _p, backdropUrl: _b, ...c }: any) => c),
      [
        // Alien³ is a part too: the provider does not list it, the NFO puts it there.
        { id: ALIEN, name: 'Alien Collection', owned: 1, total: 3 },
        { id: GODFATHER, name: 'The Godfather Collection', owned: 2, total: 3 },
      ],
    );
    assert.match(pictures[0][0], new RegExp(`^${instance.url}/api/v1/artwork/co_${ALIEN}/poster\\?v=`));
    assert.equal(pictures[0][1], null, 'the provider has no backdrop for it');
    assert.match(pictures[1][1], new RegExp(`^${instance.url}/api/v1/artwork/co_${GODFATHER}/backdrop\\?v=`));
    assert.ok(!JSON.stringify(list).includes(tmdb.url), 'no provider URL');
    const poster = await fetch(pictures[1][0]);
    assert.equal(poster.status, 200);
    assert.match(String(poster.headers.get('content-type')), /^image\//);
    assert.equal((await api('GET', `/api/v1/artwork/co_${GODFATHER}/still`)).status, 404);
    assert.equal((await api('GET', '/api/v1/artwork/co_999999/poster')).status, 404);
  });

  it("lists a collection's parts in release order, the missing one too", async () => {
    const collection = await get(`/api/v1/collections/${GODFATHER}`);
    const [first, second] = [await idOf('The Godfather'), await idOf('The Godfather Part II')];
    assert.deepEqual(
      {
        ...collection,
        posterUrl: typeof collection.posterUrl,
        backdropUrl: typeof collection.backdropUrl,
        parts: collection.parts.map(part),
      },
      {
        id: GODFATHER,
        name: 'The Godfather Collection',
        overview: 'The Corleone family.',
        posterUrl: 'string',
        backdropUrl: 'string',
        parts: [
          { tmdbId: 238, title: 'The Godfather', year: 1972, owned: true, id: first, media: 'The Godfather (1972)' },
          { tmdbId: 240, title: 'The Godfather Part II', year: 1974, owned: true, id: second, media: 'The Godfather Part II (1974)' },
          { tmdbId: 242, title: 'The Godfather Part III', year: 1990, owned: false, id: null, media: null },
        ],
      },
    );
    // Owned parts carry their film as lists show it.
    assert.equal(collection.parts[0].media.id, first);
    assert.equal(collection.parts[0].media.type, 'movie');
    const alien = await get(`/api/v1/collections/${ALIEN}`);
    assert.deepEqual(alien.parts.map(part), [
      { tmdbId: 348, title: 'Alien', year: 1979, owned: false, id: null, media: null },
      { tmdbId: 679, title: 'Aliens', year: 1986, owned: false, id: null, media: null },
      { tmdbId: 8077, title: 'Alien³', year: 1992, owned: true, id: await idOf('Alien³'), media: 'Alien³ (1992)' },
    ]);
  });

  it('answers 404 for a collection no film here is in, and 400 for an id that is not one', async () => {
    const missing = await api('GET', '/api/v1/collections/999999');
    assert.equal(missing.status, 404);
    assert.match(String(missing.headers['content-type']), /^application\/problem\+json/);
    assert.equal(missing.json.type, '/problems/not-found');
    for (const bad of ['abc', '0', '-3', '1.5', '99999999999']) {
      const res = await api('GET', `/api/v1/collections/${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal(res.json.type, '/problems/invalid-request', bad);
    }
  });

  it('does not ask again when a rescan adds another of its films: the kept copy is current', async () => {
    makeTree(movies, ['The Godfather Part III (1990)/The Godfather Part III (1990).mkv'], 4096);
    fake.reset();
    const job = await scanned();
    assert.equal(job.counts.added, 1);
    assert.deepEqual(asked('/3/collection/'), {});
    assert.deepEqual(
      Object.keys(asked('/t/p/')).filter((p) => p.includes('collection-')),
      [],
    );
    const collection = await get(`/api/v1/collections/${GODFATHER}`);
    assert.deepEqual(
      collection.parts.map((p: any) => [p.tmdbId, p.owned]),
      [
        [238, true],
        [240, true],
        [242, true],
      ],
    );
    const summary = (await get('/api/v1/collections')).find((c: any) => c.id === GODFATHER);
    assert.deepEqual([summary.owned, summary.total], [3, 3]);
  });

  it('asks again when one of its films is refreshed by hand', async () => {
    fake.reset();
    const res = await api('POST', `/api/v1/movies/${await idOf('The Godfather')}/refresh`);
    assert.equal(res.status, 202, res.text);
    assert.deepEqual(res.json.data.metadata.collection, { id: GODFATHER, name: 'The Godfather Collection' });
    assert.deepEqual(asked('/3/collection/'), { [`/3/collection/${GODFATHER}`]: 1 });
  });
});
