// Scans that enrich items from a fake TMDB of our own (test/support/fake-tmdb.ts, real HTTP):
// provider metadata and artwork, NFO files and local artwork winning over the provider, poster
// colours, a 429 storm, a refused key, a provider that is down, broken images, and fetching
// switched off. An instance of its own, pointed at the fake.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import sharp from 'sharp';
import { FakeTmdb, type FakeTmdbServer } from '../support/fake-tmdb';
import { startInstance, tempDir, type Instance } from '../support/instance';
import { allPages, makeTree, scan } from '../support/media';
import { call, jsonBody } from '../support/stack';

const KEY = 'a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6';
const MATRIX_QUADRANTS: [string, string, string, string] = ['#c0392b', '#27ae60', '#2980b9', '#f1c40f'];
const LOCAL_QUADRANTS: [string, string, string, string] = ['#8e44ad', '#16a085', '#d35400', '#2c3e50'];

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
const distance = (a: string, b: string) => Math.hypot(...rgb(a).map((v, i) => v - rgb(b)[i]!));
const assertColors = (got: string[], want: string[], what: string) => {
  assert.equal(got.length, 4, what);
  got.forEach((c, i) => assert.ok(distance(c, want[i]!) < 40, `${what}: quadrant ${i} is ${c}, expected near ${want[i]}`));
};

/** A 500x750 JPEG with four flat quarters. */
const quadrantPoster = async (colors: string[]) => {
  const quarter = (hex: string) =>
    sharp({ create: { width: 250, height: 375, channels: 3, background: hex } })
      .png()
      .toBuffer();
  const [tl, tr, bl, br] = await Promise.all(colors.map(quarter));
  return sharp({ create: { width: 500, height: 750, channels: 3, background: '#000000' } })
    .composite([
      { input: tl!, left: 0, top: 0 },
      { input: tr!, left: 250, top: 0 },
      { input: bl!, left: 0, top: 375 },
      { input: br!, left: 250, top: 375 },
    ])
    .jpeg()
    .toBuffer();
};

let fake: FakeTmdb;
let tmdb: FakeTmdbServer;
let instance: Instance;
const api = (method: string, path: string, opts: Parameters<typeof call>[2] = {}) => call(method, path, { ...opts, base: instance.url });
const get = async (path: string) => {
  const res = await api('GET', path);
  assert.equal(res.status, 200, `${path}: ${res.text}`);
  return res.json.data;
};
const movieByTitle = async (title: string) => {
  const movies = await allPages('/api/v1/movies', instance.url);
  const found = movies.find((m) => m.title === title);
  assert.ok(found, `${title} among ${movies.map((m) => m.title).join(', ')}`);
  return get(`/api/v1/movies/${found.id}`);
};

before(async () => {
  fake = new FakeTmdb({ keys: [KEY] });
  fake.addMovie({
    id: 603,
    title: 'The Matrix',
    releaseDate: '1999-03-30',
    overview: 'A hacker learns the truth.',
    tagline: 'Welcome to the Real World.',
    runtime: 136,
    genres: ['Action', 'Science Fiction'],
    voteAverage: 8.2,
    imdbId: 'tt0133093',
    cast: [{ name: 'Keanu Reeves', character: 'Neo' }],
    crew: [{ name: 'Lana Wachowski', job: 'Director' }],
    alternativeTitles: [
      { country: 'US', title: 'The Matrix' },
      { country: 'PT', title: 'Matrix: O Despertar' },
      { country: 'US', title: 'Matrix Genesis', type: 'working title' },
    ],
    poster: { quadrants: MATRIX_QUADRANTS },
  });
  fake.addMovie({ id: 949, title: 'Heat', releaseDate: '1995-12-15', overview: 'A bank robbery goes wrong.', genres: ['Crime'] });
  fake.addMovie({ id: 78, title: 'Blade Runner', releaseDate: '1982-06-25', overview: 'The provider plot.', genres: ['Science Fiction'] });
  fake.addMovie({ id: 348, title: 'Alien', releaseDate: '1979-05-25', overview: 'In space no one can hear you scream.' });
  fake.addMovie({ id: 680, title: 'Pulp Fiction', releaseDate: '1994-09-10', overview: 'Intertwined stories.' });
  fake.addMovie({ id: 155, title: 'The Dark Knight', releaseDate: '2008-07-16', overview: 'Batman.' });
  fake.addMovie({ id: 13, title: 'Forrest Gump', releaseDate: '1994-06-23', overview: 'Life is like a box.' });
  fake.addMovie({
    id: 68,
    title: 'Brazil',
    releaseDate: '1985-02-20',
    overview: 'A bureaucrat dreams.',
    poster: { file: '/huge-brazil.jpg' },
    backdrop: null,
  });
  fake.addMovie({
    id: 11,
    title: 'Star Wars',
    releaseDate: '1977-05-25',
    overview: 'A long time ago.',
    poster: { file: '/broken-star-wars.jpg' },
  });
  fake.addShow({
    id: 57243,
    name: 'Doctor Who',
    firstAirDate: '2005-03-26',
    overview: 'A Time Lord travels.',
    genres: ['Drama'],
    creators: ['Russell T Davies'],
    seasons: [
      {
        seasonNumber: 1,
        episodes: [
          { episodeNumber: 1, name: 'Rose', airDate: '2005-03-26' },
          { episodeNumber: 2, name: 'The End of the World', airDate: '2005-04-02' },
        ],
      },
    ],
  });
  tmdb = await fake.start();
  instance = await startInstance({
    env: { TMDB_API_KEY: KEY, TMDB_API_BASE_URL: tmdb.apiBaseUrl, TMDB_IMAGE_BASE_URL: tmdb.imageBaseUrl, TMDB_TIMEOUT_MS: '1000' },
  });
});
after(async () => {
  await instance?.stop();
  await tmdb?.close();
});

describe('metadata and artwork from the provider', () => {
  const movies = tempDir('meta-movies');

  it('a scan matches movies, fetches their artwork, and leaves the unknown one its file title', async () => {
    makeTree(movies, ['The Matrix (1999)/The Matrix (1999).mkv', 'Heat (1995).mkv', 'Zzyzx Nowhere Road (2031).mkv'], 4096);
    const job = await scan({ path: movies, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual(
      { matched: job.counts.matched, unmatched: job.counts.unmatched, failed: job.counts.failed },
      { matched: 2, unmatched: 1, failed: 0 },
    );
    assert.ok(job.counts.artwork >= 4, `artwork ${job.counts.artwork}`);
    assert.deepEqual(job.warnings, []);

    const matrix = await movieByTitle('The Matrix');
    assert.equal(matrix.media.year, 1999);
    assert.equal(matrix.media.overview, 'A hacker learns the truth.');
    assert.deepEqual(matrix.media.genres, ['Action', 'Science Fiction']);
    assert.equal(matrix.media.rating, 8.2);
    assert.equal(matrix.metadata.tmdbId, 603);
    assert.equal(matrix.metadata.imdbId, 'tt0133093');
    assert.equal(matrix.metadata.tagline, 'Welcome to the Real World.');
    assert.deepEqual(matrix.metadata.directors, ['Lana Wachowski']);
    assert.equal(matrix.metadata.cast[0].name, 'Keanu Reeves');
    assert.match(matrix.media.posterUrl, new RegExp(`^${instance.url}/api/v1/artwork/${matrix.id}/poster\\?v=`));
    assert.equal(matrix.poster, matrix.media.posterUrl);
    assert.ok(matrix.media.backdropUrl);
    assertColors(matrix.media.meshGradientColors, MATRIX_QUADRANTS, 'The Matrix');

    // The artwork is served from the cache, resized on demand.
    const poster = await fetch(`${matrix.media.posterUrl}&w=320`, { headers: { accept: 'image/webp' } });
    assert.equal(poster.status, 200);
    assert.equal(poster.headers.get('content-type'), 'image/webp');
    assert.equal((await sharp(Buffer.from(await poster.arrayBuffer())).metadata()).width, 320);

    const unknown = await movieByTitle('Zzyzx Nowhere Road');
    assert.equal(unknown.metadata.matched, false);
    assert.equal(unknown.media.posterUrl, null);
    unknown.media.meshGradientColors.forEach((c: string) => assert.match(c, /^#[0-9a-f]{6}$/));
  });

  it('asks once per film for what browsing shows, and for the details only once every poster is in', async () => {
    const films = ['Harbour Lights', 'Quiet Meridian', 'Salt Road', 'Winter Orchard'].map((title, i) => ({
      id: 91_001 + i,
      title,
      year: 2011 + i,
    }));
    for (const f of films) {
      fake.addMovie({
        id: f.id,
        title: f.title,
        releaseDate: `${f.year}-05-01`,
        overview: `${f.title}, told slowly.`,
        genres: ['Drama', 'Mystery'],
        voteAverage: 6.5,
        runtime: 101,
        tagline: `The ${f.title} tagline.`,
        cast: [{ name: `Lead of ${f.title}`, character: 'Lead' }],
        poster: { quadrants: LOCAL_QUADRANTS },
        backdrop: null,
      });
    }
    const root = tempDir('meta-brief');
    makeTree(
      root,
      films.map((f) => `${f.title} (${f.year}).mkv`),
      4096,
    );
    const from = fake.stats.log.length;
    const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed', JSON.stringify(job.error));
    assert.deepEqual({ matched: job.counts.matched, failed: job.counts.failed }, { matched: 4, failed: 0 });

    const asked = fake.stats.log.slice(from).map((r) => r.path);
    const ids = films.map((f) => f.id);
    const searches = asked.filter((p) => p === '/3/search/movie');
    const details = asked.flatMap((p, at) => (ids.some((id) => p === `/3/movie/${id}`) ? [at] : []));
    const posters = asked.flatMap((p, at) => (ids.some((id) => p.endsWith(`/movie-${id}-poster.jpg`)) ? [at] : []));
    assert.equal(searches.length, 4, 'one search each (with the year, which finds them)');
    assert.ok(asked.filter((p) => p === '/3/genre/movie/list').length <= 1, 'the genre names once at most (kept since)');
    assert.equal(posters.length, 4);
    assert.equal(details.length, 4, "then each one's details");
    assert.ok(Math.max(...posters) < Math.min(...details), `every poster before any details: ${asked.join(' ')}`);

    const described = await movieByTitle('Salt Road');
    assert.deepEqual(described.media.genres, ['Drama', 'Mystery']);
    assert.equal(described.media.rating, 6.5);
    assert.equal(described.metadata.tagline, 'The Salt Road tagline.');
    assert.equal(described.metadata.runtime, 101);
    assert.equal(described.metadata.cast[0].name, 'Lead of Salt Road');
    assert.ok(described.media.posterUrl);
    assertColors(described.media.meshGradientColors, LOCAL_QUADRANTS, 'Salt Road');
  });

  it('search hits carry the provider title and the poster colours', async () => {
    const hits = await get('/api/v1/search?query=matr');
    const hit = hits.find((h: any) => h.media.title === 'The Matrix');
    assert.ok(hit);
    assertColors(hit.media.meshGradientColors, MATRIX_QUADRANTS, 'search hit');
    assert.ok(hit.media.posterUrl);
  });

  it('search finds a film by its director, a cast member and an alternative title, and says which matched', async () => {
    const first = async (query: string) => {
      const [hit] = await get(`/api/v1/search?query=${encodeURIComponent(query)}`);
      assert.ok(hit, query);
      return { title: hit.media.title, matchedOn: hit.matchedOn, matchedText: hit.matchedText };
    };
    assert.deepEqual(await first('the matrix'), { title: 'The Matrix', matchedOn: 'title', matchedText: 'The Matrix' });
    assert.deepEqual(await first('wachowsky'), { title: 'The Matrix', matchedOn: 'person', matchedText: 'Lana Wachowski' });
    assert.deepEqual(await first('keanu'), { title: 'The Matrix', matchedOn: 'person', matchedText: 'Keanu Reeves' });
    assert.deepEqual(await first('despertar'), { title: 'The Matrix', matchedOn: 'alternativeTitle', matchedText: 'Matrix: O Despertar' });
    // The provider's own title among its alternatives is not repeated.
    const detail = await movieByTitle('The Matrix');
    assert.deepEqual(detail.metadata.alternativeTitles, ['Matrix: O Despertar', 'Matrix Genesis']);
  });

  it('a rescan of the unchanged library asks the provider nothing', async () => {
    const before = fake.stats.apiRequests;
    const job = await scan({ path: movies, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed');
    assert.equal(fake.stats.apiRequests, before);
    assert.deepEqual(
      { matched: job.counts.matched, unmatched: job.counts.unmatched, artwork: job.counts.artwork },
      { matched: 0, unmatched: 0, artwork: 0 },
      'no item enriched again',
    );
  });

  it('a poster put beside an unchanged movie is taken up by the next scan', async () => {
    writeFileSync(join(movies, 'Heat (1995)-poster.jpg'), await quadrantPoster(LOCAL_QUADRANTS));
    const job = await scan({ path: movies, mediaType: 'movie' }, instance.url);
    assert.equal(job.counts.updated, 1);
    assert.equal(job.counts.artwork, 1);
    const heat = await movieByTitle('Heat');
    assertColors(heat.media.meshGradientColors, LOCAL_QUADRANTS, 'the new local poster');
    assert.equal(heat.media.overview, 'A bank robbery goes wrong.', 'the provider metadata stays');

    // Taken away again: the provider's poster comes back, with its own colours.
    rmSync(join(movies, 'Heat (1995)-poster.jpg'));
    const again = await scan({ path: movies, mediaType: 'movie' }, instance.url);
    assert.equal(again.counts.updated, 1);
    const back = await movieByTitle('Heat');
    assert.ok(back.media.posterUrl);
    assert.notEqual(back.media.posterUrl, heat.media.posterUrl);
    assert.ok(distance(back.media.meshGradientColors[0], LOCAL_QUADRANTS[0]) > 40, "not the local poster's colours");
  });

  it('an NFO and local artwork win over the provider', async () => {
    const root = tempDir('meta-nfo');
    const dir = join(root, 'Blade Runner (1982)');
    makeTree(root, ['Blade Runner (1982)/Blade Runner (1982).mkv'], 4096);
    writeFileSync(
      join(dir, 'movie.nfo'),
      '<?xml version="1.0" encoding="UTF-8"?>\n<movie><title>Blade Runner: The Final Cut</title><plot>The local plot.</plot><genre>Neo-noir</genre><uniqueid type="tmdb" default="true">78</uniqueid></movie>',
    );
    writeFileSync(join(dir, 'poster.jpg'), await quadrantPoster(LOCAL_QUADRANTS));
    const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed');
    const movie = await movieByTitle('Blade Runner: The Final Cut');
    assert.equal(movie.media.overview, 'The local plot.');
    assert.deepEqual(movie.media.genres, ['Neo-noir']);
    assert.equal(movie.metadata.tmdbId, 78);
    assert.equal(movie.metadata.releaseDate, '1982-06-25'); // what the NFO leaves open comes from the provider
    assertColors(movie.media.meshGradientColors, LOCAL_QUADRANTS, 'local poster');
    assert.ok(movie.media.backdropUrl, 'the provider backdrop fills in for the missing local one');
  });

  it('a TV show gets its metadata, and its episodes their titles and stills', async () => {
    const root = tempDir('meta-tv');
    makeTree(root, ['Doctor Who (2005)/Season 1/Doctor Who - S01E01.mkv', 'Doctor Who (2005)/Season 1/Doctor Who - S01E02.mkv'], 4096);
    const job = await scan({ path: root, mediaType: 'tvshow' }, instance.url);
    assert.equal(job.status, 'completed');
    const shows = await allPages('/api/v1/tvshows', instance.url);
    const show = await get(`/api/v1/tvshows/${shows.find((s) => s.title === 'Doctor Who')!.id}`);
    assert.equal(show.media.overview, 'A Time Lord travels.');
    assert.deepEqual(show.metadata.creators, ['Russell T Davies']);
    const [byCreator] = await get(`/api/v1/search?query=${encodeURIComponent('russell davies')}`);
    assert.deepEqual([byCreator.media.title, byCreator.matchedOn, byCreator.matchedText], ['Doctor Who', 'person', 'Russell T Davies']);
    assert.ok(show.media.posterUrl);
    const episodes = show.seasons[0].episodes;
    assert.deepEqual(
      episodes.map((e: any) => [e.episodeNumber, e.title, e.airDate]),
      [
        [1, 'Rose', '2005-03-26'],
        [2, 'The End of the World', '2005-04-02'],
      ],
    );
    for (const e of episodes) {
      assert.ok(e.stillUrl, `a still for episode ${e.episodeNumber}`);
      assert.equal((await fetch(e.stillUrl)).status, 200);
    }
  });

  it('a storm of 429s slows the scan down but every item still gets its metadata', async () => {
    const root = tempDir('meta-429');
    makeTree(root, ['Alien (1979).mkv', 'Pulp Fiction (1994).mkv'], 4096);
    const limited = fake.stats.rateLimited;
    fake.failNext(6, 429, { retryAfterSeconds: 1, only: 'api' });
    const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
    assert.equal(fake.stats.rateLimited - limited, 6);
    assert.equal(job.status, 'completed');
    assert.equal(job.counts.matched, 2);
    assert.equal((await movieByTitle('Alien')).media.overview, 'In space no one can hear you scream.');
  });

  it('a broken image is counted as failed; the scan completes and the item keeps its colours', async () => {
    const root = tempDir('meta-broken');
    makeTree(root, ['Star Wars (1977).mkv'], 4096);
    fake.breakImage('/broken-star-wars.jpg', 'garbage');
    const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed');
    assert.equal(job.counts.matched, 1);
    assert.ok(job.counts.failed >= 1);
    const movie = await movieByTitle('Star Wars');
    assert.equal(movie.media.posterUrl, null);
    assert.equal(movie.media.overview, 'A long time ago.');
  });

  it('an NFO with bad XML and a huge poster are counted as failed; the scan completes with the rest', async () => {
    const root = tempDir('meta-bad-input');
    makeTree(root, ['Brazil (1985)/Brazil (1985).mkv'], 4096);
    writeFileSync(join(root, 'Brazil (1985)', 'movie.nfo'), '<movie><title>Not This</title><plot>never closed');
    fake.hugeImage('/huge-brazil.jpg');
    const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
    assert.equal(job.status, 'completed');
    assert.deepEqual({ matched: job.counts.matched, failed: job.counts.failed }, { matched: 1, failed: 2 });
    const movie = await movieByTitle('Brazil');
    assert.equal(movie.media.overview, 'A bureaucrat dreams.');
    assert.equal(movie.media.posterUrl, null);
  });

  it('a provider that is down: the scan completes, and the next scan with it back fills the gaps', async () => {
    const root = tempDir('meta-down');
    makeTree(root, ['The Dark Knight (2008).mkv'], 4096);
    fake.intercept = ({ api }) => (api ? 503 : undefined);
    const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
    fake.intercept = undefined;
    assert.equal(job.status, 'completed');
    assert.equal(job.counts.failed, 1);
    assert.equal((await movieByTitle('The Dark Knight')).metadata.matched, false);
    const again = await scan({ path: root, mediaType: 'movie' }, instance.url);
    assert.equal(again.counts.matched, 1);
    assert.equal((await movieByTitle('The Dark Knight')).media.overview, 'Batman.');
  });

  it('a refused key: the scan completes without provider metadata and says why; the key is never shown', async () => {
    const BAD = 'ffffffffffffffffffffffffffff9999';
    assert.equal((await api('PATCH', '/api/v1/settings', jsonBody({ metadata: { tmdbApiKey: BAD } }))).status, 200);
    try {
      const root = tempDir('meta-badkey');
      makeTree(root, ['Forrest Gump (1994).mkv'], 4096);
      const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
      assert.equal(job.status, 'completed');
      assert.equal(job.counts.matched, 0);
      assert.match(job.warnings.join(' '), /refused/);
      assert.equal((await movieByTitle('Forrest Gump')).metadata.matched, false);
      const settings = await api('GET', '/api/v1/settings');
      assert.equal(settings.json.data.metadata.tmdbApiKeyHint, '****9999');
      for (const text of [settings.text, JSON.stringify(job), readFileSync(join(instance.dataDir, 'logs', 'service.log'), 'utf8')]) {
        assert.ok(!text.includes(BAD) && !text.includes(KEY), 'no key in answers or logs');
      }
    } finally {
      await api('PATCH', '/api/v1/settings', jsonBody({ metadata: { tmdbApiKey: null } }));
    }
  });

  it('a movie whose file is gone leaves with its cached artwork', async () => {
    const matrix = await movieByTitle('The Matrix');
    const cached = join(instance.dataDir, 'artwork', matrix.id);
    assert.ok(existsSync(cached));
    rmSync(join(movies, 'The Matrix (1999)'), { recursive: true });
    const job = await scan({ path: movies, mediaType: 'movie' }, instance.url);
    assert.equal(job.counts.removed, 1);
    assert.ok(!existsSync(cached));
  });

  it('with metadata fetching off, a scan makes no provider call at all', async () => {
    assert.equal((await api('PATCH', '/api/v1/settings', jsonBody({ features: { metadataFetching: false } }))).status, 200);
    try {
      const root = tempDir('meta-off');
      makeTree(root, ['Heat (1995)/Heat (1995) - cd1.avi'], 4096);
      const before = fake.stats.requests;
      const job = await scan({ path: root, mediaType: 'movie' }, instance.url);
      assert.equal(job.status, 'completed');
      assert.equal(fake.stats.requests, before);
    } finally {
      await api('PATCH', '/api/v1/settings', jsonBody({ features: { metadataFetching: true } }));
    }
  });
});
