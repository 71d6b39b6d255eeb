// Each function's exported handler, called as Lambda calls it, with its sample event from
// events/ (the same files `npm run invoke` uses). The handlers use this process's default
// table, which for this file is a table of its own on the test run's DynamoDB Local
// (own-process-table, imported first, names it before lib/config is read): settings, lists
// and totals are what this file wrote, and are asserted whole. The handlers that need the scan
// worker, which runs on the stack with the stack's table, are in scan-handlers.test.ts.
import '../support/own-process-table';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, it } from 'node:test';
import pkg from '../../package.json';
import { handler as fallback } from '../../functions/http/fallback';
import { handler as health } from '../../functions/health/get';
import { handler as getSettings } from '../../functions/settings/get';
import { handler as patchSettings } from '../../functions/settings/patch';
import { handler as listLogs } from '../../functions/logs/list';
import { asset as docsAsset, json as docsJson, page as docsPage } from '../../functions/docs/get';
import { handler as wsConnect } from '../../functions/ws/connect';
import { handler as wsDisconnect } from '../../functions/ws/disconnect';
import { handler as wsMessage } from '../../functions/ws/message';
import * as library from '../../functions/library/api';
import * as catalog from '../../functions/catalog/api';
import * as collections from '../../functions/collections/api';
import { handler as search } from '../../functions/search/get';
import { handler as artwork } from '../../functions/artwork/get';
import { handler as subtitle } from '../../functions/subtitles/get';
import { upkeep as libraryUpkeep } from '../../functions/scan/maintenance';
import type { MovieItem, ShowItem } from '../../lib/catalog/model';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { config } from '../../lib/config';
import { DynamoConnectionStore } from '../../lib/events/connections';
import { rawHttp } from '../../lib/http/stack';
import { aLibrary } from '../support/library-fixture';
import { DynamoLibraryStore } from '../../lib/library/store';
import { tempDir, waitFor } from '../support/instance';
import { lambdaContext, sampleEvent } from '../support/lambda';
import { ownTable } from '../support/own-table';
import { call } from '../support/stack';

type Result = { statusCode: number; headers?: Record<string, string>; body?: string };
const run = async (fn: (e: any, c: any) => Promise<unknown>, name: string, patch?: (e: any) => void) =>
  (await fn(sampleEvent(name, patch), lambdaContext(name))) as Result;
const bodyOf = (res: Result) => JSON.parse(res.body!);

const table = ownTable('handlers', config.db.tableName);
const libraries = new DynamoLibraryStore(table.db);
const catalogue = new DynamoCatalogStore(table.db);

/** A fresh table holds no settings: these are the defaults, with no TMDB key anywhere (the test run sets none). */
const DEFAULT_SETTINGS = {
  metadata: { tmdbApiKeySet: false, tmdbApiKeyHint: null, tmdbApiKeySource: null, language: 'en-US' },
  features: { metadataFetching: true, artwork: true, meshGradients: true, autoResumeScans: true, realtimeMonitoring: true },
  preferences: { theme: 'system', pageSize: 10, playback: { resumeMinPercent: 5, playedAtPercent: 90 } },
};

const ZERO_TOTALS = {
  libraries: 0,
  movies: 0,
  tvShows: 0,
  seasons: 0,
  episodes: 0,
  totalSizeBytes: 0,
  totalDurationSeconds: 0,
  lastScanAt: null,
};

describe('handlers with their sample events', () => {
  // A test that fails half-way leaves its libraries behind: the next starts without them all the same.
  afterEach(async () => {
    for (const l of await libraries.list()) await libraries.remove(l);
  });

  it('health answers ok, with the version and how long the service has run', async () => {
    const res = await run(health, 'health');
    assert.equal(res.statusCode, 200);
    const { data } = bodyOf(res);
    // Uptime counts from this process's start here (no runner sets SERVICE_STARTED_AT).
    assert.ok(
      Number.isInteger(data.uptimeSeconds) && data.uptimeSeconds >= 0 && data.uptimeSeconds <= Math.ceil(process.uptime()),
      `uptime ${data.uptimeSeconds}`,
    );
    // No runner here: DATA_DIR is the working folder's `data`, whose disk is reported when it exists.
    assert.deepEqual(data, {
      status: 'ok',
      database: 'ok',
      version: pkg.version,
      uptimeSeconds: data.uptimeSeconds,
      reasons: [],
      ...(data.disk ? { disk: data.disk } : {}),
    });
  });

  it('getSettings answers the settings with CORS headers for the LAN origin', async () => {
    const res = await run(getSettings, 'getSettings');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers!['Access-Control-Allow-Origin'], 'http://192.168.1.20:8080');
    assert.ok(res.headers!['RateLimit']);
    assert.deepEqual(bodyOf(res).data, DEFAULT_SETTINGS);
  });

  it('patchSettings applies its body, and reports a wrong type as a 400 problem', async () => {
    const KEY = 'handler-tmdb-key-0123-wxyz';
    const changes = {
      metadata: { tmdbApiKey: KEY, language: 'de-DE' },
      features: { autoResumeScans: false },
      preferences: { theme: 'dark' },
    };
    const changed = await run(patchSettings, 'patchSettings', (e) => (e.body = JSON.stringify(changes)));
    assert.equal(changed.statusCode, 200, changed.body);
    const patched = {
      metadata: { tmdbApiKeySet: true, tmdbApiKeyHint: '****wxyz', tmdbApiKeySource: 'settings', language: 'de-DE' },
      features: { ...DEFAULT_SETTINGS.features, autoResumeScans: false },
      preferences: { ...DEFAULT_SETTINGS.preferences, theme: 'dark' },
    };
    assert.deepEqual(bodyOf(changed).data, patched);
    assert.doesNotMatch(changed.body!, /0123/, 'never the key itself');
    assert.deepEqual(bodyOf(await run(getSettings, 'getSettings')).data, patched, 'as stored');

    // The sample's own body turns autoResumeScans back on and leaves the rest.
    const sample = await run(patchSettings, 'patchSettings');
    assert.equal(sample.statusCode, 200, sample.body);
    const resumed = { ...patched, features: { ...patched.features, autoResumeScans: true } };
    assert.deepEqual(bodyOf(sample).data, resumed);

    const bad = await run(patchSettings, 'patchSettings', (e) => (e.body = '{"features":{"autoResumeScans":"sometimes"}}'));
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers!['Content-Type'], 'application/problem+json');
    assert.deepEqual(bodyOf(bad).errors, [{ field: 'body.features.autoResumeScans', message: 'must be boolean' }]);
    assert.deepEqual(bodyOf(await run(getSettings, 'getSettings')).data, resumed, 'a refused patch changes nothing');

    // Back to the defaults, key and all.
    const reset = { metadata: { tmdbApiKey: null, language: 'en-US' }, preferences: { theme: 'system' } };
    assert.deepEqual(bodyOf(await run(patchSettings, 'patchSettings', (e) => (e.body = JSON.stringify(reset)))).data, DEFAULT_SETTINGS);
  });

  it("listLogs coerces its query and answers the stack's records newest first, whole, at most `limit`", async () => {
    // Six requests of this test's own to the stack, each with a request id its access-log record carries.
    const tag = `handler-logs-${randomUUID()}`;
    const ids = Array.from({ length: 6 }, (_, i) => `${tag}-${i + 1}`);
    const from = Date.now();
    for (const id of ids) assert.equal((await call('GET', '/api/v1/health', { headers: { 'x-request-id': id } })).status, 200);
    const to = Date.now();
    // The sample asks for level=info and limit=5, as strings: a handler that did not coerce them would answer 400.
    const withQuery = (extra: Record<string, string>) => (e: any) => {
      e.queryStringParameters = { ...e.queryStringParameters, ...extra };
      e.rawQueryString = new URLSearchParams(e.queryStringParameters).toString();
    };
    // The runner collects the stack's records as they are written: wait for the last.
    const body = await waitFor(
      'the access-log records of the requests',
      async () => {
        const res = await run(listLogs, 'listLogs', withQuery({ q: tag }));
        assert.equal(res.statusCode, 200, res.body);
        const b = bodyOf(res);
        return b.data[0]?.requestId === ids.at(-1) ? b : undefined;
      },
      20_000,
    );
    assert.deepEqual(
      body.data.map((r: any) => r.requestId),
      ids.slice(1).reverse(),
      'the newest five, newest first',
    );
    for (const r of body.data)
      assert.ok(Date.parse(r.time) >= from - 1_000 && Date.parse(r.time) <= to + 1_000, `the record's time ${r.time}`);
    assert.deepEqual(body, {
      data: body.data.map((r: any, i: number) => ({
        time: r.time,
        level: 'info',
        msg: 'request',
        requestId: ids[5 - i],
        method: 'GET',
        path: '/api/v1/health',
        status: 200,
        durationMs: r.durationMs,
        client: '127.0.0.1',
      })),
      meta: { total: 5, nextCursor: null },
    });
    // The level is a minimum: the access log's records are at info, so at warn there are none of them.
    const warn = await run(listLogs, 'listLogs', withQuery({ q: tag, level: 'warn' }));
    assert.deepEqual(bodyOf(warn), { data: [], meta: { total: 0, nextCursor: null } });
  });

  it('the docs functions answer the page, the document and an asset', async () => {
    assert.match((await run(docsPage, 'docsPage')).body!, /swagger-ui/);
    assert.equal(JSON.parse((await run(docsJson, 'docsJson')).body!).openapi, '3.1.0');
    const css = await run(docsAsset, 'docsAsset');
    assert.equal(css.statusCode, 200);
    assert.equal(css.headers!['Content-Type'], 'text/css; charset=utf-8');
  });

  it('fallback answers an unknown path with the 404 problem', async () => {
    const res = await run(fallback, 'fallback');
    assert.equal(res.statusCode, 404);
    assert.equal(JSON.parse(res.body!).type, '/problems/route-not-found');
  });

  it('an unexpected error becomes a bare 500 that still carries CORS and the request id', async () => {
    const broken = rawHttp(async () => {
      throw new TypeError("Cannot read properties of undefined (reading 'x') at /srv/app/lib/secret.ts:12");
    });
    const res = await run(broken, 'getSettings');
    assert.equal(res.statusCode, 500);
    const body = JSON.parse(res.body!);
    assert.deepEqual(
      { ...body, requestId: undefined },
      {
        type: '/problems/internal',
        title: 'Internal server error',
        status: 500,
        detail: 'An unexpected error occurred',
        instance: '/api/v1/settings',
        requestId: undefined,
      },
    );
    assert.equal(res.headers!['X-Request-Id'], body.requestId);
    assert.equal(res.headers!['Access-Control-Allow-Origin'], 'http://192.168.1.20:8080');
  });

  it('the WebSocket routes store, answer and forget a connection', async () => {
    const connections = new DynamoConnectionStore(table.db);
    const stored = async () => (await connections.list()).map(({ connectionId, client }) => ({ connectionId, client }));
    const sample = { connectionId: 'sampleConnection0=', client: '192.168.1.31' };
    assert.deepEqual(await stored(), []);
    assert.equal((await run(wsConnect, 'wsConnect')).statusCode, 200);
    assert.deepEqual(await stored(), [sample]);
    const refused = await run(wsConnect, 'wsConnect', (e) => {
      e.headers.Origin = 'https://evil.example';
      e.requestContext.connectionId = 'evilConnection0=';
    });
    assert.equal(refused.statusCode, 403);
    assert.deepEqual(await stored(), [sample], 'a refused connection is not stored');
    // The sample connection is not open on the test stack: the reply finds it gone, which is fine.
    assert.equal((await run(wsMessage, 'wsMessage')).statusCode, 200);
    assert.equal((await run(wsDisconnect, 'wsDisconnect')).statusCode, 200);
    assert.deepEqual(await stored(), []);
  });

  it('the library functions create, read, total and delete a library', async () => {
    const dir = tempDir('handler-lib');
    const before = Date.now();
    const created = await run(
      library.create,
      'createLibrary',
      (e) => (e.body = JSON.stringify({ name: 'Handler', path: dir, mediaType: 'movie' })),
    );
    assert.equal(created.statusCode, 201, created.body);
    const view = bodyOf(created).data;
    const { id, createdAt } = view;
    assert.ok(Date.parse(createdAt) >= before && Date.parse(createdAt) <= Date.now(), `created at ${createdAt}`);
    const expected = {
      id,
      name: 'Handler',
      path: dir,
      mediaType: 'movie',
      itemCount: 0,
      lastScannedAt: null,
      createdAt,
      status: 'online',
      statusReason: null,
      statusSince: createdAt,
      scanIntervalHours: 12,
      nextScanAt: new Date(Date.parse(createdAt) + 12 * 3_600_000).toISOString(),
      monitoring: true,
    };
    assert.deepEqual(view, expected);
    const withId = (e: any) => {
      e.pathParameters.libraryId = id;
      e.rawPath = e.requestContext.http.path = `/api/v1/library/${id}`;
    };
    const one = { ...ZERO_TOTALS, libraries: 1 };
    assert.deepEqual(bodyOf(await run(library.get, 'getLibrary', withId)).data, { ...expected, stats: one });
    assert.deepEqual(bodyOf(await run(library.list, 'listLibraries')), { data: [expected], meta: { total: 1, nextCursor: null } });
    assert.deepEqual(bodyOf(await run(library.stats, 'libraryStats')).data, one);

    // A scan's counts, recorded as the worker records them: the library and the totals show them.
    const counts = { movies: 3, tvShows: 1, seasons: 2, episodes: 7, totalSizeBytes: 123_456_789, totalDurationSeconds: 3_600.4 };
    await libraries.recordScan(id, counts, '2026-11-22T12:00:00.000Z');
    const scanned = { ...expected, itemCount: 4, lastScannedAt: '2026-11-22T12:00:00.000Z' };
    const totals = {
      libraries: 1,
      movies: 3,
      tvShows: 1,
      seasons: 2,
      episodes: 7,
      totalSizeBytes: 123_456_789,
      totalDurationSeconds: 3_600,
      lastScanAt: '2026-11-22T12:00:00.000Z',
    };
    assert.deepEqual(bodyOf(await run(library.get, 'getLibrary', withId)).data, { ...scanned, stats: totals });
    assert.deepEqual(bodyOf(await run(library.stats, 'libraryStats')).data, totals);

    const patched = await run(library.patch, 'patchLibrary', withId);
    assert.equal(patched.statusCode, 200, patched.body);
    // The sample's name, interval and monitoring; the next scan moves to 6 h after the last.
    const renamed = { ...scanned, name: 'Films', scanIntervalHours: 6, monitoring: true, nextScanAt: '2026-11-22T18:00:00.000Z' };
    assert.deepEqual(bodyOf(patched).data, renamed);
    assert.deepEqual(bodyOf(await run(library.list, 'listLibraries')), { data: [renamed], meta: { total: 1, nextCursor: null } });
    const empty = await run(library.patch, 'patchLibrary', (e) => (withId(e), (e.body = '{}')));
    assert.equal(empty.statusCode, 400, 'an empty patch changes nothing and says so');
    assert.equal((await run(library.remove, 'deleteLibrary', withId)).statusCode, 204);
    assert.equal((await run(library.patch, 'patchLibrary', withId)).statusCode, 404);
    assert.equal((await run(library.get, 'getLibrary', withId)).statusCode, 404);
    assert.deepEqual(bodyOf(await run(library.list, 'listLibraries')), { data: [], meta: { total: 0, nextCursor: null } });
    assert.deepEqual(bodyOf(await run(library.stats, 'libraryStats')).data, ZERO_TOTALS);
  });

  it('the catalogue and search functions answer exactly what the catalogue holds, and 404 for the sample ids', async () => {
    const lib = aLibrary('2026-11-01T00:00:00.000Z');
    const stamp = (id: string, addedAt: string) => ({
      id,
      libraryId: lib.id,
      addedAt,
      updatedAt: addedAt,
      lastJob: 'job_handlers',
      lastChange: 'added' as const,
    });
    const titled = (title: string, year: number, colour: string) => ({
      title,
      originalTitle: null,
      year,
      overview: `${title}, the overview.`,
      genres: ['Drama'],
      rating: 7.5,
      tmdbId: null,
      meshGradientColors: [colour, '#202020', '#303030', '#404040'] as [string, string, string, string],
    });
    const file = (relPath: string) => [{ relPath, size: 1_000, mtimeMs: 1_700_000_000_000, part: null }];
    const knight: MovieItem = {
      ...stamp('mv_handlersknight', '2026-11-20T10:00:00.000Z'),
      ...titled('The Dark Knight', 2008, '#101010'),
      entity: 'movie',
      files: file('The Dark Knight (2008).mkv'),
    };
    const heat: MovieItem = {
      ...stamp('mv_handlersheat', '2026-11-21T10:00:00.000Z'),
      ...titled('Heat', 1995, '#111111'),
      entity: 'movie',
      files: file('Heat (1995).mkv'),
    };
    const matter: ShowItem = {
      ...stamp('tv_handlersmatter', '2026-11-19T10:00:00.000Z'),
      ...titled('Dark Matter', 2015, '#121212'),
      entity: 'tvshow',
    };
    // A list entry as the contract shows it (written out here, not built by the code under test).
    const entry = (item: MovieItem | ShowItem) => ({
      id: item.id,
      type: item.entity,
      media: {
        id: item.id,
        type: item.entity,
        title: item.title,
        originalTitle: null,
        year: item.year,
        overview: item.overview,
        genres: ['Drama'],
        rating: 7.5,
        posterUrl: null,
        backdropUrl: null,
        meshGradientColors: item.meshGradientColors,
        addedAt: item.addedAt,
      },
      // Nothing watched yet by the household's profile.
      userData: { positionSeconds: 0, progress: 0, played: false, playCount: 0, lastPlayedAt: null, favorite: false },
    });
    try {
      const nothing = await run(search, 'search');
      assert.deepEqual(bodyOf(nothing), { data: [], meta: { total: 0, nextCursor: null } }, 'an empty catalogue');
      // What a scan leaves: the library with its counts, the items, and the catalogue's version moved.
      await libraries.create(lib);
      await libraries.recordScan(
        lib.id,
        { movies: 2, tvShows: 1, seasons: 0, episodes: 0, totalSizeBytes: 2_000 },
        '2026-11-21T10:00:00.000Z',
      );
      await catalogue.put([knight, heat, matter]);
      await catalogue.bumpVersion();

      const movies = await run(catalog.listMovies, 'listMovies');
      assert.equal(movies.statusCode, 200, movies.body);
      assert.deepEqual(bodyOf(movies), { data: [entry(heat), entry(knight)], meta: { total: 2, nextCursor: null } }, 'newest first');
      assert.deepEqual(bodyOf(await run(catalog.listShows, 'listShows')), { data: [entry(matter)], meta: { total: 1, nextCursor: null } });
      // A page of one: the total is still the library's, and the cursor leads to the rest.
      const first = bodyOf(await run(catalog.listMovies, 'listMovies', (e) => (e.queryStringParameters = { limit: '1' })));
      assert.deepEqual(
        { ...first, meta: { ...first.meta, nextCursor: null } },
        { data: [entry(heat)], meta: { total: 2, nextCursor: null } },
      );
      assert.equal(typeof first.meta.nextCursor, 'string');
      const rest = bodyOf(
        await run(catalog.listMovies, 'listMovies', (e) => (e.queryStringParameters = { limit: '1', cursor: first.meta.nextCursor })),
      );
      assert.deepEqual(rest, { data: [entry(knight)], meta: { total: 2, nextCursor: null } });
      // Sorted by title, "The Dark Knight" filed under D; the sample facets: Drama films of the 1990s.
      const byTitle = bodyOf(
        await run(
          catalog.listMovies,
          'listMovies',
          (e) => ((e.queryStringParameters = { sort: 'title' }), (e.rawQueryString = 'sort=title')),
        ),
      );
      assert.deepEqual(
        byTitle.data.map((m: { id: string }) => m.id),
        [knight.id, heat.id],
      );
      const facets = await run(catalog.movieFacets, 'movieFacets');
      assert.equal(facets.statusCode, 200, facets.body);
      assert.deepEqual(bodyOf(facets).data, {
        total: 1,
        genres: [{ name: 'Drama', count: 1 }],
        years: [{ year: 1995, count: 1 }],
        letters: [{ letter: 'H', count: 1 }],
      });
      assert.equal(bodyOf(await run(catalog.showFacets, 'showFacets')).data.total, 0, 'Dark Matter files under D, not #');
      // No film here belongs to a collection: none listed, and the sample's collection is not known.
      assert.deepEqual(bodyOf(await run(collections.listCollections, 'listCollections')).data, []);
      assert.equal((await run(collections.getCollection, 'getCollection')).statusCode, 404);

      // "dark kni": both words, the second as the start of one; Dark Matter has no word starting "kni".
      const hits = await run(search, 'search');
      assert.equal(hits.statusCode, 200, hits.body);
      assert.deepEqual(bodyOf(hits), {
        data: [{ ...entry(knight), matchedOn: 'title', matchedText: 'The Dark Knight' }],
        meta: { total: 1, nextCursor: null },
      });

      assert.equal((await run(catalog.getMovie, 'getMovie')).statusCode, 404);
      assert.equal((await run(catalog.getShow, 'getShow')).statusCode, 404);
    } finally {
      await catalogue.remove([knight.id, heat.id, matter.id]);
      await libraries.remove(lib);
    }
  });

  it('the artwork function validates its query and answers 404 for the sample id, with CORS and no rate-limit count', async () => {
    const res = await run(artwork, 'artwork');
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers!['Content-Type'], 'application/problem+json');
    assert.deepEqual(
      { ...JSON.parse(res.body!), requestId: undefined },
      {
        type: '/problems/not-found',
        title: 'Not found',
        status: 404,
        detail: 'Media mv_sample0000000000000000 was not found',
        instance: '/api/v1/artwork/mv_sample0000000000000000/poster',
        requestId: undefined,
      },
    );
    assert.equal(res.headers!['Access-Control-Allow-Origin'], 'http://192.168.1.20:8080');
    assert.equal(res.headers!['RateLimit'], undefined);
    const wide = await run(artwork, 'artwork', (e) => (e.queryStringParameters = { w: '4001' }));
    assert.equal(wide.statusCode, 400);
    assert.deepEqual(JSON.parse(wide.body!).errors, [{ field: 'query.w', message: 'must be <= 4000' }]);
  });

  it('the subtitle function validates its query and answers 404 for the sample id, with CORS and no rate-limit count', async () => {
    const res = await run(subtitle, 'subtitle');
    assert.equal(res.statusCode, 404);
    assert.equal(JSON.parse(res.body!).detail, 'Media mv_sample0000000000000000 was not found');
    assert.equal(res.headers!['Access-Control-Allow-Origin'], 'http://192.168.1.20:8080');
    assert.equal(res.headers!['RateLimit'], undefined);
    const far = await run(subtitle, 'subtitle', (e) => (e.queryStringParameters = { offsetMs: '3600001' }));
    assert.equal(far.statusCode, 400);
    assert.deepEqual(JSON.parse(far.body!).errors, [{ field: 'query.offsetMs', message: 'must be <= 3600000' }]);
  });

  it('libraryUpkeep with its sample event (nothing changed) runs the schedule and lists the libraries to watch', async () => {
    // Oldest first, as the libraries are listed: one watched, one away (watched, and said to be offline), one not watched.
    // None is due, so the schedule starts nothing.
    const watched = aLibrary('2026-11-02T00:00:00.000Z', { nextScanAt: new Date(Date.now() + 3_600_000).toISOString() });
    const away = aLibrary('2026-11-03T00:00:00.000Z', {
      status: { state: 'offline', reason: 'The folder is missing', since: '2026-11-04T00:00:00.000Z' },
    });
    const unwatched = aLibrary('2026-11-04T00:00:00.000Z', { monitoring: false, scanIntervalHours: 0 });
    try {
      for (const l of [unwatched, away, watched]) await libraries.create(l);
      const expected = {
        watch: [
          { libraryId: watched.id, path: watched.path, offline: false },
          { libraryId: away.id, path: away.path, offline: true },
        ],
        started: [],
        busy: [],
      };
      assert.deepEqual(await libraryUpkeep(sampleEvent('libraryUpkeep'), lambdaContext('libraryUpkeep')), expected);
      // An EventBridge schedule's own event is read as "nothing changed".
      const scheduled = await libraryUpkeep(
        { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} },
        lambdaContext('libraryUpkeep'),
      );
      assert.deepEqual(scheduled, expected);
    } finally {
      for (const l of [watched, away, unwatched]) await libraries.remove(l);
    }
  });
});
