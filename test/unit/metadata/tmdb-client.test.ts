// The TMDB client against the fake TMDB over real HTTP: mapping, auth, failures, the cache,
// secrets and the limiter. Nothing is mocked: the client's own fetch talks to a local server
// that answers as TMDB API v3 does. It runs in a process of its own (test/run.ts): its limiter
// and Retry-After tests time real waits.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { inspect } from 'node:util';
import sharp from 'sharp';
import { ProviderAuthError, ProviderBadResponse, ProviderUnavailable, type ProviderCache } from '../../../lib/metadata/provider';
import { createTmdbClient } from '../../../lib/metadata/tmdb/client';
import type { TmdbConfig, TmdbLog } from '../../../lib/metadata/tmdb/config';
import { FakeTmdb, HUGE_IMAGE, type FakeTmdbServer } from '../../support/fake-tmdb';

const KEY = '4f1c0a7d9e2b83c65a0d7e1f2b3c4d5e'; // a v3 key: 32 hex digits
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiI0ZjFjMGE3ZCIsInNjb3BlcyI6WyJhcGlfcmVhZCJdfQ.c2lnbmF0dXJlLW9mLXRoZS10b2tlbg'; // a v4 token: a JWT
const BAD_KEY = '0badc0ffee0badc0ffee0badc0ffee00';
const QUADRANTS: [string, string, string, string] = ['#c0392b', '#27ae60', '#2980b9', '#f1c40f'];

const castOf = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Actor ${i + 1}`, character: `Role ${i + 1}` }));

const fake = new FakeTmdb({ keys: [KEY, TOKEN] })
  .addMovie({
    id: 603,
    title: 'The Matrix',
    releaseDate: '1999-03-30',
    overview: 'A hacker learns what the Matrix really is.',
    tagline: 'Welcome to the Real World.',
    runtime: 136,
    genres: ['Action', 'Science Fiction'],
    voteAverage: 8.2,
    popularity: 80,
    imdbId: 'tt0133093',
    cast: [
      { name: 'Keanu Reeves', character: 'Thomas A. Anderson / Neo' },
      { name: 'Laurence Fishburne', character: 'Morpheus' },
      ...castOf(23),
    ],
    crew: [
      { name: 'Lana Wachowski', job: 'Director' },
      { name: 'Lilly Wachowski', job: 'Director' },
      { name: 'Joel Silver', job: 'Producer', department: 'Production' },
    ],
    certifications: { US: 'R', DE: '16' },
    // The title itself, a repeat in another case, an empty one, then more than are kept.
    alternativeTitles: [
      { country: 'US', title: 'The Matrix' },
      { country: 'PT', title: 'Matrix' },
      { country: 'BR', title: 'matrix' },
      { country: 'XX', title: '  ' },
      { country: 'US', title: 'The Wachowskis Matrix', type: 'working title' },
      ...Array.from({ length: 12 }, (_, i) => ({ country: 'ZZ', title: `Matrix ${i + 1}` })),
    ],
    poster: { quadrants: QUADRANTS },
  })
  .addMovie({ id: 604, title: 'The Matrix Reloaded', releaseDate: '2003-05-15', popularity: 40, backdrop: null })
  .addMovie({ id: 2, title: 'Ariel', originalTitle: 'Ariel', releaseDate: '', originalLanguage: 'fi', poster: null })
  // Parts seeded out of release order, as TMDB sometimes lists them.
  .addCollection({ id: 2344, name: 'The Matrix Collection', overview: 'Neo and the machines.', backdrop: null, parts: [604, 603] })
  .addShow({
    id: 1396,
    name: 'Breaking Bad',
    firstAirDate: '2008-01-20',
    overview: 'A chemistry teacher turns to crime.',
    genres: ['Drama', 'Crime'],
    voteAverage: 8.9,
    imdbId: 'tt0903747',
    tvdbId: 81189,
    creators: ['Vince Gilligan'],
    cast: [{ name: 'Bryan Cranston', character: 'Walter White' }],
    certifications: { US: 'TV-MA' },
    alternativeTitles: [{ country: 'MX', title: 'Breaking Bad: Química Mortal' }],
    seasons: [
      { seasonNumber: 0, episodes: [{ episodeNumber: 1, name: 'Good Cop Bad Cop', airDate: '2009-02-17' }] },
      {
        seasonNumber: 1,
        airDate: '2008-01-20',
        episodes: [
          { episodeNumber: 1, name: 'Pilot', overview: 'Walter White is diagnosed.', airDate: '2008-01-20', runtime: 58 },
          { episodeNumber: 2, name: "Cat's in the Bag...", airDate: '2008-01-27', still: null },
        ],
      },
    ],
  });

let server: FakeTmdbServer;
describe('the TMDB client', () => {
  before(async () => {
    server = await fake.start();
  });
  after(() => server.close());
  beforeEach(() => fake.reset());

  /** A client for the fake, with short waits so failure tests stay quick. */
  const client = (over: Partial<TmdbConfig> = {}) =>
    createTmdbClient({
      apiKey: KEY,
      baseUrl: server.apiBaseUrl,
      imageBaseUrl: server.imageBaseUrl,
      retryBaseDelayMs: 20,
      retryMaxDelayMs: 100,
      // Long enough for a loaded machine; the tests of timeouts set their own.
      timeoutMs: 10_000,
      ...over,
    });

  /** The ProviderCache port in memory, recording what was put. */
  const memoryCache = () => {
    const entries = new Map<string, { value: unknown; ttlSeconds: number }>();
    const cache: ProviderCache & { entries: typeof entries } = {
      entries,
      get: async (key) => entries.get(key)?.value,
      put: async (key, value, ttlSeconds) => void entries.set(key, { value: structuredClone(value), ttlSeconds }),
    };
    return cache;
  };

  const rejection = async (pending: Promise<unknown>) => {
    try {
      await pending;
    } catch (err) {
      return err as Error;
    }
    assert.fail('expected the call to fail');
  };

  describe('requests and mapping', () => {
    it('searches movies by title and year, with the v3 key as api_key and the language in the query', async () => {
      // Prepare
      const tmdb = client();

      // Act
      const found = await tmdb.searchMovies('the matrix', 1999);

      // Assess
      assert.deepEqual(found, [
        {
          tmdbId: 603,
          title: 'The Matrix',
          originalTitle: 'The Matrix',
          releaseDate: '1999-03-30',
          year: 1999,
          overview: 'A hacker learns what the Matrix really is.',
          popularity: 80,
          posterPath: '/movie-603-poster.jpg',
          backdropPath: '/movie-603-backdrop.jpg',
          genreIds: [28, 878],
          rating: 8.2,
        },
      ]);
      const [sent] = fake.stats.log;
      assert.equal(sent!.path, '/3/search/movie');
      assert.equal(sent!.auth, 'api_key');
      assert.deepEqual(sent!.query, {
        query: 'the matrix',
        include_adult: 'false',
        page: '1',
        year: '1999',
        language: 'en-US',
        api_key: KEY,
      });
    });

    it('names the genres of search hits from the genre list, asked once per client', async () => {
      const tmdb = client();

      const [movies, again, shows] = await Promise.all([tmdb.genreNames('movie'), tmdb.genreNames('movie'), tmdb.genreNames('tv')]);
      await tmdb.genreNames('movie');

      assert.equal(movies.get(28), 'Action');
      assert.equal(movies.get(878), 'Science Fiction');
      assert.equal(again, movies);
      assert.equal(shows.get(10765), 'Sci-Fi & Fantasy');
      assert.equal(shows.get(878), undefined, 'a film genre is not a show genre');
      assert.deepEqual(fake.stats.log.map((r) => r.path).sort(), ['/3/genre/movie/list', '/3/genre/tv/list']);
    });

    it('orders candidates as TMDB does and maps a missing date and a missing image to null', async () => {
      const tmdb = client();

      const matrix = await tmdb.searchMovies('matrix');
      const ariel = await tmdb.searchMovies('ariel');

      assert.deepEqual(
        matrix.map((m) => [m.tmdbId, m.year]),
        [
          [603, 1999],
          [604, 2003],
        ],
      );
      assert.equal(matrix[1]!.backdropPath, null);
      assert.deepEqual(
        ariel.map((m) => [m.releaseDate, m.year, m.posterPath]),
        [[null, null, null]],
      );
    });

    it('sends a v4 read access token as a Bearer header and never in the query', async () => {
      const tmdb = client({ apiKey: TOKEN });

      const shows = await tmdb.searchShows('Breaking Bad', 2008);

      assert.deepEqual(
        shows.map((s) => [s.tmdbId, s.name, s.year]),
        [[1396, 'Breaking Bad', 2008]],
      );
      const [sent] = fake.stats.log;
      assert.equal(sent!.auth, 'bearer');
      assert.deepEqual(sent!.query, {
        query: 'Breaking Bad',
        include_adult: 'false',
        page: '1',
        first_air_date_year: '2008',
        language: 'en-US',
      });
    });

    it('maps movie details with credits, release dates and external ids appended in one request', async () => {
      const tmdb = client();

      const movie = await tmdb.movieDetails(603);

      assert.deepEqual(movie, {
        tmdbId: 603,
        imdbId: 'tt0133093',
        title: 'The Matrix',
        originalTitle: 'The Matrix',
        year: 1999,
        releaseDate: '1999-03-30',
        overview: 'A hacker learns what the Matrix really is.',
        tagline: 'Welcome to the Real World.',
        runtimeMinutes: 136,
        genres: ['Action', 'Science Fiction'],
        rating: 8.2,
        certification: 'R',
        cast: [
          { name: 'Keanu Reeves', character: 'Thomas A. Anderson / Neo', order: 0 },
          { name: 'Laurence Fishburne', character: 'Morpheus', order: 1 },
          ...castOf(18).map((c, i) => ({ ...c, order: i + 2 })),
        ],
        directors: ['Lana Wachowski', 'Lilly Wachowski'],
        alternativeTitles: ['Matrix', 'The Wachowskis Matrix', ...Array.from({ length: 10 }, (_, i) => `Matrix ${i + 1}`)],
        posterPath: '/movie-603-poster.jpg',
        backdropPath: '/movie-603-backdrop.jpg',
        collection: { id: 2344, name: 'The Matrix Collection' },
      });
      assert.equal(fake.stats.apiRequests, 1);
      assert.equal(fake.stats.log[0]!.query.append_to_response, 'credits,release_dates,external_ids,alternative_titles');
    });

    it("reports the configured region's certification", async () => {
      const german = client({ language: 'de-DE' });
      const explicit = client({ language: 'en-US', region: 'FR' });

      assert.equal((await german.movieDetails(603))!.certification, '16');
      assert.equal((await explicit.movieDetails(603))!.certification, null);
    });

    it('maps a show, a season with its episodes, and finds titles by IMDb id', async () => {
      const tmdb = client();

      const show = await tmdb.showDetails(1396);
      const season = await tmdb.seasonDetails(1396, 1);
      const byImdb = await tmdb.findByImdbId('TT0903747');

      assert.deepEqual(show, {
        tmdbId: 1396,
        imdbId: 'tt0903747',
        tvdbId: 81189,
        name: 'Breaking Bad',
        originalName: 'Breaking Bad',
        year: 2008,
        firstAirDate: '2008-01-20',
        overview: 'A chemistry teacher turns to crime.',
        genres: ['Drama', 'Crime'],
        rating: 8.9,
        certification: 'TV-MA',
        cast: [{ name: 'Bryan Cranston', character: 'Walter White', order: 0 }],
        creators: ['Vince Gilligan'],
        alternativeTitles: ['Breaking Bad: Química Mortal'],
        posterPath: '/tv-1396-poster.jpg',
        backdropPath: '/tv-1396-backdrop.jpg',
        seasons: [
          { seasonNumber: 0, name: 'Specials', episodeCount: 1, airDate: null, posterPath: '/tv-1396-s0-poster.jpg' },
          { seasonNumber: 1, name: 'Season 1', episodeCount: 2, airDate: '2008-01-20', posterPath: '/tv-1396-s1-poster.jpg' },
        ],
      });
      assert.deepEqual(season, {
        showTmdbId: 1396,
        seasonNumber: 1,
        name: 'Season 1',
        overview: null,
        airDate: '2008-01-20',
        posterPath: '/tv-1396-s1-poster.jpg',
        episodes: [
          {
            seasonNumber: 1,
            episodeNumber: 1,
            name: 'Pilot',
            overview: 'Walter White is diagnosed.',
            airDate: '2008-01-20',
            runtimeMinutes: 58,
            stillPath: '/tv-1396-s1e1-still.jpg',
          },
          {
            seasonNumber: 1,
            episodeNumber: 2,
            name: "Cat's in the Bag...",
            overview: null,
            airDate: '2008-01-27',
            runtimeMinutes: null,
            stillPath: null,
          },
        ],
      });
      assert.deepEqual(byImdb.movies, []);
      assert.deepEqual(
        byImdb.shows.map((s) => s.tmdbId),
        [1396],
      );
      assert.deepEqual(fake.stats.log.at(-1)!.query.external_source, 'imdb_id');
      assert.equal(fake.stats.log.at(-1)!.path, '/3/find/tt0903747');
    });

    it("maps a collection with its parts in the provider's order, a film outside any collection to null, and caches it for a week", async () => {
      // Prepare
      const cache = memoryCache();
      const tmdb = client({ cache });

      // Act
      const collection = await tmdb.collectionDetails(2344);
      const again = await tmdb.collectionDetails(2344);
      const ariel = await tmdb.movieDetails(2);

      // Assess
      assert.deepEqual(collection, {
        id: 2344,
        name: 'The Matrix Collection',
        overview: 'Neo and the machines.',
        posterPath: '/collection-2344-poster.jpg',
        backdropPath: null,
        parts: [
          { tmdbId: 604, title: 'The Matrix Reloaded', releaseDate: '2003-05-15', year: 2003 },
          { tmdbId: 603, title: 'The Matrix', releaseDate: '1999-03-30', year: 1999 },
        ],
      });
      assert.deepEqual(again, collection);
      assert.equal(ariel!.collection, null);
      assert.deepEqual(fake.stats.byPath, { '/3/collection/2344': 1, '/3/movie/2': 1 });
      assert.equal(cache.entries.get('tmdb:v2:/collection/2344?language=en-US')?.ttlSeconds, 7 * 86_400);
    });

    it('answers null for an id TMDB does not know (its 404, status_code 34)', async () => {
      const tmdb = client();

      assert.equal(await tmdb.movieDetails(999_999), null);
      assert.equal(await tmdb.showDetails(999_999), null);
      assert.equal(await tmdb.seasonDetails(1396, 9), null);
      assert.equal(await tmdb.collectionDetails(999_999), null);
      assert.deepEqual(await tmdb.findByImdbId('tt0000001'), { movies: [], shows: [] });
      assert.equal(fake.stats.log[0]!.status, 404);
    });

    it('reads the image sizes from /configuration', async () => {
      const config = await client().imageConfiguration();

      assert.equal(config.secureBaseUrl, `${server.imageBaseUrl}/`);
      assert.deepEqual(config.posterSizes, ['w92', 'w154', 'w185', 'w342', 'w500', 'w780', 'original']);
      assert.deepEqual(config.stillSizes, ['w92', 'w185', 'w300', 'original']);
    });
  });

  describe('images', () => {
    /** The colour at the middle of each quarter of a decoded image. */
    const quadrantColours = async (bytes: Buffer) => {
      const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      const at = (x: number, y: number) => {
        const i = (Math.floor(y) * info.width + Math.floor(x)) * info.channels;
        return [data[i]!, data[i + 1]!, data[i + 2]!];
      };
      const [w, h] = [info.width, info.height];
      return [at(w / 4, h / 4), at((3 * w) / 4, h / 4), at(w / 4, (3 * h) / 4), at((3 * w) / 4, (3 * h) / 4)];
    };
    const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

    it('builds image URLs from the image base and refuses a path or size that is not TMDB-like', () => {
      const tmdb = client();

      assert.equal(tmdb.imageUrl('/movie-603-poster.jpg', 'w500'), `${server.imageBaseUrl}/w500/movie-603-poster.jpg`);
      assert.equal(tmdb.imageUrl('/movie-603-poster.jpg'), `${server.imageBaseUrl}/original/movie-603-poster.jpg`);
      assert.throws(() => tmdb.imageUrl('//elsewhere.example/x.jpg', 'w500'), TypeError);
      assert.throws(() => tmdb.imageUrl('/a.jpg', '../w500'), TypeError);
    });

    it('fetches a poster whose quarters have the seeded colours, without sending the key', async () => {
      const tmdb = client();

      const image = await tmdb.fetchImage('/movie-603-poster.jpg', 'w342');

      assert.equal(image!.contentType, 'image/jpeg');
      assert.equal(image!.url, `${server.imageBaseUrl}/w342/movie-603-poster.jpg`);
      assert.deepEqual(
        await sharp(image!.bytes)
          .metadata()
          .then((m) => [m.width, m.height]),
        [342, 513],
      );
      const colours = await quadrantColours(image!.bytes);
      colours.forEach((colour, i) =>
        colour.forEach((channel, c) =>
          assert.ok(Math.abs(channel - rgb(QUADRANTS[i]!)[c]!) <= 8, `quadrant ${i}: ${colour.join(',')} vs ${QUADRANTS[i]}`),
        ),
      );
      assert.equal(fake.stats.log[0]!.auth, 'none');
    });

    it('answers null for an unknown image, and refuses non-image bytes, an HTML page and an image over the cap', async () => {
      const tmdb = client();
      fake.addImage('/garbage.jpg').breakImage('/garbage.jpg', 'garbage');
      fake.addImage('/html.jpg').breakImage('/html.jpg', 'html');

      assert.equal(await tmdb.fetchImage('/nothing-here.jpg', 'w500'), null);
      const garbage = await rejection(tmdb.fetchImage('/garbage.jpg', 'w500'));
      const html = await rejection(tmdb.fetchImage('/html.jpg', 'w500'));
      const tooBig = await rejection(client({ maxImageBytes: 1_000 }).fetchImage('/movie-603-poster.jpg', 'original'));

      assert.ok(garbage instanceof ProviderBadResponse);
      assert.match(garbage.message, /declared image\/jpeg but its bytes are not an image/);
      assert.ok(html instanceof ProviderBadResponse);
      assert.match(html.message, /is not an image \(content-type text\/html\)/);
      assert.ok(tooBig instanceof ProviderBadResponse);
      assert.match(tooBig.message, /larger than the 1000-byte limit/);
    });

    it('serves a huge image for another test to refuse by its pixels (the bytes are within the cap)', async () => {
      fake.addImage('/huge.jpg').hugeImage('/huge.jpg');

      const image = await client().fetchImage('/huge.jpg', 'w500');

      const meta = await sharp(image!.bytes).metadata();
      assert.deepEqual([meta.width, meta.height], [HUGE_IMAGE.width, HUGE_IMAGE.height]);
    });
  });

  describe('failures', () => {
    it('fails at once on a refused key, then fails fast without a request, for every caller', async () => {
      // Prepare
      const tmdb = client({ apiKey: BAD_KEY });

      // Act
      const first = await rejection(tmdb.movieDetails(603));
      const later = await Promise.all([tmdb.searchMovies('matrix'), tmdb.showDetails(1396), tmdb.imageConfiguration()].map(rejection));

      // Assess
      assert.ok(first instanceof ProviderAuthError);
      assert.deepEqual([first.status, first.providerCode, first.attempts], [401, 7, 1]);
      assert.match(first.message, /Invalid API key: You must be granted a valid key\./);
      for (const err of later) assert.equal(err, first);
      assert.equal(fake.stats.apiRequests, 1);
      assert.equal(tmdb.stats.retries, 0);
    });

    it('stops callers already queued behind the request that found the key refused', async () => {
      const tmdb = client({ apiKey: BAD_KEY, requestsPerSecond: 10 });

      const started = performance.now();
      const errors = await Promise.all(Array.from({ length: 10 }, (_, i) => rejection(tmdb.movieDetails(600 + i))));

      assert.ok(errors.every((e) => e === errors[0] && e instanceof ProviderAuthError));
      assert.equal(fake.stats.apiRequests, 1);
      assert.ok(performance.now() - started < 500, 'the queued callers did not wait for their turn');
    });

    it('retries a 5xx and answers once TMDB recovers', async () => {
      const tmdb = client();
      fake.failNext(1, 503).failNext(1, 500).failNext(1, 502);

      const movie = await tmdb.movieDetails(603);

      assert.equal(movie!.title, 'The Matrix');
      assert.equal(fake.stats.apiRequests, 4);
      assert.deepEqual([tmdb.stats.requests, tmdb.stats.retries], [4, 3]);
    });

    it('gives up after maxAttempts with ProviderUnavailable', async () => {
      const tmdb = client({ maxAttempts: 3 });
      fake.failNext(5, 500);

      const err = await rejection(tmdb.movieDetails(603));

      assert.ok(err instanceof ProviderUnavailable);
      assert.deepEqual([err.status, err.attempts], [500, 3]);
      assert.match(err.message, /in 3 attempts \(last: answered 500: Internal error/);
      assert.equal(fake.stats.apiRequests, 3);
    });

    it('abandons an attempt that does not answer in time and tries again', async () => {
      const tmdb = client({ timeoutMs: 300 });
      fake.failNext(1, 'timeout');

      const started = performance.now();
      const movie = await tmdb.movieDetails(603);

      assert.equal(movie!.tmdbId, 603);
      assert.ok(performance.now() - started >= 290);
      assert.equal(tmdb.stats.retries, 1);
    });

    it('reports timeouts and dropped connections as ProviderUnavailable when they persist', async () => {
      fake.failNext(2, 'timeout');
      const timedOut = await rejection(client({ timeoutMs: 200, maxAttempts: 2 }).movieDetails(603));
      fake.failNext(2, 'reset');
      const dropped = await rejection(client({ maxAttempts: 2 }).movieDetails(603));

      assert.ok(timedOut instanceof ProviderUnavailable);
      assert.match(timedOut.message, /no answer within 200 ms/);
      assert.ok(dropped instanceof ProviderUnavailable);
      assert.match(dropped.message, /network error/);
      assert.equal(fake.stats.apiRequests, 4);
    });

    it('reports malformed JSON as ProviderBadResponse without trying again', async () => {
      const tmdb = client();
      fake.failNext(1, 'malformed-json');

      const err = await rejection(tmdb.movieDetails(603));

      assert.ok(err instanceof ProviderBadResponse);
      assert.match(err.message, /malformed JSON/);
      assert.equal(fake.stats.apiRequests, 1);
    });

    it('pauses every caller, not only the one that got the 429, for as long as Retry-After says', async () => {
      // Prepare: 10/s leaves 100 ms between requests, far more than the 429 takes to come back.
      const tmdb = client({ requestsPerSecond: 10 });
      fake.failNext(1, 429, { retryAfterSeconds: 1 });

      // Act
      const found = await Promise.all(['matrix', 'ariel', 'reloaded', 'breaking'].map((q) => tmdb.searchMovies(q)));

      // Assess
      assert.equal(found.length, 4);
      const [limited, ...rest] = fake.stats.log;
      assert.equal(limited!.status, 429);
      for (const r of rest) assert.ok(r.at - limited!.at >= 950, `a request ${Math.round(r.at - limited!.at)} ms after the 429`);
      assert.deepEqual([tmdb.stats.rateLimited, tmdb.stats.retries], [1, 1]);
    });

    it('rides out a 429 storm from a server stricter than the client: every call succeeds', async () => {
      // Prepare: the server allows 10/s, the client believes 40/s.
      fake.rateLimit = 10;
      const tmdb = client({ requestsPerSecond: 40 });

      // Act
      const results = await Promise.all(Array.from({ length: 25 }, (_, i) => tmdb.searchMovies(`storm ${i}`)));

      // Assess
      assert.equal(results.length, 25);
      assert.ok(fake.stats.rateLimited > 0);
      assert.equal(tmdb.stats.rateLimited, fake.stats.rateLimited);
      assert.equal(fake.stats.apiRequests, 25 + fake.stats.rateLimited);
    });
  });

  describe('cache', () => {
    it('answers from the cache without a request; another key finds the entry, another language does not', async () => {
      // Prepare
      const cache = memoryCache();
      const tmdb = client({ cache });

      // Act
      const fresh = await tmdb.movieDetails(603);
      const cached = await tmdb.movieDetails(603);
      const withToken = await client({ cache, apiKey: TOKEN }).movieDetails(603);
      await client({ cache, language: 'fr-FR' }).movieDetails(603);
      await tmdb.searchMovies('matrix');

      // Assess
      assert.deepEqual(cached, fresh);
      assert.deepEqual(withToken, fresh);
      assert.deepEqual(fake.stats.byPath, { '/3/movie/603': 2, '/3/search/movie': 1 });
      assert.deepEqual([tmdb.stats.cacheHits, tmdb.stats.cacheMisses], [1, 2]);
      const keys = [...cache.entries.keys()];
      assert.ok(
        keys.every((k) => !k.includes(KEY) && !k.includes(TOKEN) && !k.includes('api_key')),
        keys.join('\n'),
      );
      assert.deepEqual(keys, [
        'tmdb:v2:US:/movie/603?append_to_response=credits%2Crelease_dates%2Cexternal_ids%2Calternative_titles&language=en-US',
        'tmdb:v2:FR:/movie/603?append_to_response=credits%2Crelease_dates%2Cexternal_ids%2Calternative_titles&language=fr-FR',
        'tmdb:v2:/search/movie?include_adult=false&language=en-US&page=1&query=matrix',
      ]);
      assert.deepEqual(
        [...cache.entries.values()].map((e) => e.ttlSeconds),
        [7 * 86_400, 7 * 86_400, 86_400],
      );
    });

    it('caches no error, and goes on without a cache that throws', async () => {
      const cache = memoryCache();
      const broken: ProviderCache = {
        get: async () => {
          throw new Error('cache down');
        },
        put: () => Promise.reject(new Error('cache down')),
      };

      assert.equal(await client({ cache }).movieDetails(999_999), null);
      fake.failNext(1, 'malformed-json');
      await rejection(client({ cache }).movieDetails(603));
      const tmdb = client({ cache: broken });
      const movie = await tmdb.movieDetails(603);

      assert.equal(cache.entries.size, 0);
      assert.equal(movie!.tmdbId, 603);
      assert.equal(tmdb.stats.cacheErrors, 2);
    });
  });

  describe('secrets', () => {
    /** Everything an error can show: message, stack, properties, causes. */
    const everything = (err: unknown) =>
      [inspect(err, { depth: 10, showHidden: true }), JSON.stringify(err), String(err), (err as Error)?.stack ?? ''].join('\n');

    it('never puts the key or the token in an error, its cause or a log line', async () => {
      // Prepare
      const lines: string[] = [];
      const log: TmdbLog = { warn: (fields, message) => void lines.push(JSON.stringify({ ...fields, message })) };
      const failing = (secret: string, over: Partial<TmdbConfig> = {}) =>
        client({ apiKey: secret, log, maxAttempts: 2, timeoutMs: 200, ...over });

      // Act
      const errors: unknown[] = [];
      for (const secret of [BAD_KEY, `${TOKEN}x`]) errors.push(await rejection(failing(secret).movieDetails(603)));
      fake.addKey(BAD_KEY).addKey(`${TOKEN}x`);
      for (const secret of [BAD_KEY, `${TOKEN}x`]) {
        fake.failNext(2, 503);
        errors.push(await rejection(failing(secret).searchMovies('matrix')));
        fake.failNext(2, 'timeout');
        errors.push(await rejection(failing(secret).searchMovies('matrix')));
        fake.failNext(1, 429).failNext(1, 'malformed-json');
        errors.push(await rejection(failing(secret).searchMovies('matrix')));
        errors.push(await rejection(failing(secret, { baseUrl: 'http://127.0.0.1:9/3' }).searchMovies('matrix')));
      }

      // Assess
      assert.equal(errors.length, 10);
      assert.ok(lines.length > 0);
      for (const text of [...errors.map(everything), ...lines]) {
        assert.ok(!text.includes(BAD_KEY) && !text.includes(TOKEN), text);
      }
    });
  });

  describe('configuration', () => {
    it('refuses an empty key or a rate that is not positive, naming each problem', () => {
      assert.throws(() => createTmdbClient({ apiKey: ' ', requestsPerSecond: 0 }), {
        name: 'TypeError',
        message: 'Invalid TMDB client configuration: apiKey is empty; requestsPerSecond must be a positive number',
      });
    });
  });

  describe('the fake TMDB itself', () => {
    const raw = (path: string) =>
      fetch(`${server.apiBaseUrl}${path}`).then(async (r) => ({
        status: r.status,
        retryAfter: r.headers.get('retry-after'),
        body: await r.json(),
      }));

    it("answers TMDB's error bodies for a bad key and an unknown id", async () => {
      assert.deepEqual(await raw('/movie/603?api_key=nope'), {
        status: 401,
        retryAfter: null,
        body: { status_code: 7, status_message: 'Invalid API key: You must be granted a valid key.', success: false },
      });
      assert.deepEqual(await raw(`/movie/1?api_key=${KEY}`), {
        status: 404,
        retryAfter: null,
        body: { status_code: 34, status_message: 'The resource you requested could not be found.', success: false },
      });
    });

    it('enforces its rate limit over a sliding second with 429, status_code 25 and Retry-After', async () => {
      fake.rateLimit = 40;

      const answers = await Promise.all(Array.from({ length: 50 }, () => raw(`/configuration?api_key=${KEY}`)));

      const limited = answers.filter((a) => a.status === 429);
      assert.equal(limited.length, 10);
      assert.deepEqual(limited[0], {
        status: 429,
        retryAfter: '1',
        body: { status_code: 25, status_message: 'Your request count (#) is over the allowed limit of (40).', success: false },
      });
      assert.deepEqual([fake.stats.rateLimited, fake.stats.maxPerSecond], [10, 50]);
    });
  });

  describe('limiter', () => {
    it('keeps 120 concurrent calls under a server enforcing 40/s: no 429, and at least 90% of the rate', async () => {
      // Prepare
      fake.rateLimit = 40;
      const tmdb = client({ requestsPerSecond: 40 });

      // Act
      const results = await Promise.all(Array.from({ length: 120 }, (_, i) => tmdb.searchMovies(`title ${i}`)));

      // Assess
      assert.equal(results.length, 120);
      assert.deepEqual([fake.stats.rateLimited, tmdb.stats.rateLimited], [0, 0]);
      assert.ok(fake.stats.maxPerSecond <= 40, `${fake.stats.maxPerSecond} requests within one second`);
      const times = fake.stats.log.map((r) => r.at);
      const rate = ((times.length - 1) / (times.at(-1)! - times[0]!)) * 1000;
      assert.ok(rate >= 0.9 * 40, `achieved ${rate.toFixed(1)} requests/s`);
    });
  });
});
