// Each function's exported handler, called as Lambda calls it, with its sample event from
// events/ (the same files `npm run invoke` uses) against the test run's database.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
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
import * as scans from '../../functions/scan/api';
import * as catalog from '../../functions/catalog/api';
import { handler as search } from '../../functions/search/get';
import * as stream from '../../functions/stream/get';
import { handler as artwork } from '../../functions/artwork/get';
import { handler as subtitle } from '../../functions/subtitles/get';
import { handler as scanWorker } from '../../functions/scan/worker';
import { upkeep as libraryUpkeep } from '../../functions/scan/maintenance';
import { rawHttp } from '../../lib/http/stack';
import { makeTree, waitForJob } from '../support/media';
import { tempDir } from '../support/instance';
import { lambdaContext, sampleEvent } from '../support/lambda';

type Result = { statusCode: number; headers?: Record<string, string>; body?: string };
const run = async (fn: (e: any, c: any) => Promise<unknown>, name: string, patch?: (e: any) => void) =>
  (await fn(sampleEvent(name, patch), lambdaContext(name))) as Result;

describe('handlers with their sample events', () => {
  it('health answers ok', async () => {
    const res = await run(health, 'health');
    assert.equal(res.statusCode, 200);
    assert.equal(JSON.parse(res.body!).data.status, 'ok');
  });

  it('getSettings answers the settings with CORS headers for the LAN origin', async () => {
    const res = await run(getSettings, 'getSettings');
    assert.equal(res.statusCode, 200);
    assert.equal(res.headers!['Access-Control-Allow-Origin'], 'http://192.168.1.20:8080');
    assert.ok(res.headers!['RateLimit']);
    assert.equal(typeof JSON.parse(res.body!).data.metadata.tmdbApiKeySet, 'boolean');
  });

  it('patchSettings applies its body, and reports a wrong type as a 400 problem', async () => {
    assert.equal((await run(patchSettings, 'patchSettings')).statusCode, 200);
    const bad = await run(patchSettings, 'patchSettings', (e) => (e.body = '{"features":{"autoResumeScans":"sometimes"}}'));
    assert.equal(bad.statusCode, 400);
    assert.equal(bad.headers!['Content-Type'], 'application/problem+json');
    assert.deepEqual(JSON.parse(bad.body!).errors, [{ field: 'body.features.autoResumeScans', message: 'must be boolean' }]);
  });

  it('listLogs coerces its query and answers a list', async () => {
    const res = await run(listLogs, 'listLogs');
    assert.equal(res.statusCode, 200);
    const body = JSON.parse(res.body!);
    assert.ok(Array.isArray(body.data) && body.data.length <= 5);
    assert.equal(body.meta.nextCursor, null);
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
    assert.deepEqual({ ...body, requestId: undefined }, {
      type: '/problems/internal', title: 'Internal server error', status: 500, detail: 'An unexpected error occurred',
      instance: '/api/v1/settings', requestId: undefined,
    });
    assert.equal(res.headers!['X-Request-Id'], body.requestId);
    assert.equal(res.headers!['Access-Control-Allow-Origin'], 'http://192.168.1.20:8080');
  });

  it('the WebSocket routes store, answer and forget a connection', async () => {
    assert.equal((await run(wsConnect, 'wsConnect')).statusCode, 200);
    const refused = await run(wsConnect, 'wsConnect', (e) => (e.headers.Origin = 'https://evil.example'));
    assert.equal(refused.statusCode, 403);
    // The sample connection is not open on the test stack: the reply finds it gone, which is fine.
    assert.equal((await run(wsMessage, 'wsMessage')).statusCode, 200);
    assert.equal((await run(wsDisconnect, 'wsDisconnect')).statusCode, 200);
  });

  it('the library functions create, read, total and delete a library', async () => {
    const dir = tempDir('handler-lib');
    const created = await run(library.create, 'createLibrary', (e) => (e.body = JSON.stringify({ name: 'Handler', path: dir, mediaType: 'movie' })));
    assert.equal(created.statusCode, 201, created.body);
    const { id } = JSON.parse(created.body!).data;
    const withId = (e: any) => {
      e.pathParameters.libraryId = id;
      e.rawPath = e.requestContext.http.path = `/api/v1/library/${id}`;
    };
    assert.equal(JSON.parse((await run(library.get, 'getLibrary', withId)).body!).data.stats.movies, 0);
    assert.ok(JSON.parse((await run(library.list, 'listLibraries')).body!).data.some((l: any) => l.id === id));
    assert.equal(typeof JSON.parse((await run(library.stats, 'libraryStats')).body!).data.libraries, 'number');
    const patched = await run(library.patch, 'patchLibrary', withId);
    assert.equal(patched.statusCode, 200, patched.body);
    assert.deepEqual(
      (({ name, scanIntervalHours, monitoring }) => ({ name, scanIntervalHours, monitoring }))(JSON.parse(patched.body!).data),
      { name: 'Films', scanIntervalHours: 6, monitoring: true },
    );
    const empty = await run(library.patch, 'patchLibrary', (e) => (withId(e), (e.body = '{}')));
    assert.equal(empty.statusCode, 400, 'an empty patch changes nothing and says so');
    assert.equal((await run(library.remove, 'deleteLibrary', withId)).statusCode, 204);
    assert.equal((await run(library.patch, 'patchLibrary', withId)).statusCode, 404);
    assert.equal((await run(library.get, 'getLibrary', withId)).statusCode, 404);
  });

  it('the scan functions queue a job that the worker completes, and list, read and clean up jobs', async () => {
    const dir = makeTree(tempDir('handler-scan'), ['Handler Movie (1999).mkv']);
    const started = await run(scans.start, 'startScan', (e) => (e.body = JSON.stringify({ path: dir, mediaType: 'movie' })));
    assert.equal(started.statusCode, 202, started.body);
    const { jobId } = JSON.parse(started.body!).data;
    assert.equal((await waitForJob(jobId)).counts.added, 1);
    const withId = (e: any) => (e.pathParameters.jobId = jobId);
    assert.equal(JSON.parse((await run(scans.job, 'getJob', withId)).body!).data.status, 'completed');
    assert.ok(JSON.parse((await run(scans.jobs, 'listJobs')).body!).data.every((j: any) => j.status === 'completed'));
    assert.equal((await run(scans.resume, 'resumeJob', withId)).statusCode, 409);
    assert.equal((await run(scans.cleanup, 'cleanupJobs')).statusCode, 200);
    // The sample worker event names a job that does not exist: the worker does nothing, and
    // in particular creates no job.
    const sample = sampleEvent<{ jobId: string }>('scanWorker');
    await scanWorker(sample, lambdaContext('scanWorker'));
    assert.equal((await run(scans.job, 'getJob', (e) => (e.pathParameters.jobId = sample.jobId))).statusCode, 404);
  });

  it('the catalogue and search functions answer lists, and 404 for the sample ids', async () => {
    for (const [fn, name] of [[catalog.listMovies, 'listMovies'], [catalog.listShows, 'listShows'], [search, 'search']] as const) {
      const res = await run(fn, name);
      assert.equal(res.statusCode, 200, name);
      assert.ok(Array.isArray(JSON.parse(res.body!).data), name);
    }
    assert.equal((await run(catalog.getMovie, 'getMovie')).statusCode, 404);
    assert.equal((await run(catalog.getShow, 'getShow')).statusCode, 404);
  });

  it('the stream function alone answers its bytes in the response, at most 4 MiB each', async () => {
    const size = 5 * 1024 * 1024 + 7;
    const bytes = Buffer.alloc(size, 0);
    for (let i = 0; i < size; i += 4096) bytes[i] = (i / 4096) & 0xff;
    const dir = tempDir('handler-stream');
    (await import('node:fs')).writeFileSync(join(dir, 'Inline Stream (2001).mp4'), bytes);
    const job = await waitForJob(JSON.parse((await run(scans.start, 'startScan', (e) => (e.body = JSON.stringify({ path: dir, mediaType: 'movie' })))).body!).data.jobId);
    const movie = JSON.parse((await run(catalog.listMovies, 'listMovies', (e) => (e.queryStringParameters = { limit: '100' }))).body!).data.find((m: any) => m.media.title === 'Inline Stream');
    assert.equal(job.counts.added, 1);
    const withId = (range?: string) => (e: any) => {
      e.pathParameters.mediaId = movie.id;
      if (range) e.headers.range = range;
      else delete e.headers.range;
    };
    const ranged = await run(stream.handler, 'stream', withId('bytes=100-199'));
    assert.equal(ranged.statusCode, 206);
    assert.ok(Buffer.from(ranged.body!, 'base64').equals(bytes.subarray(100, 200)));
    // No range on a file over 4 MiB: the first 4 MiB as a 206 the player continues from.
    const whole = await run(stream.handler, 'stream', withId());
    assert.equal(whole.statusCode, 206);
    assert.equal(whole.headers!['Content-Range'], `bytes 0-${4 * 1024 * 1024 - 1}/${size}`);
    assert.ok(Buffer.from(whole.body!, 'base64').equals(bytes.subarray(0, 4 * 1024 * 1024)));
    const head = await run(stream.head, 'streamHead', withId());
    assert.equal(head.statusCode, 200);
    assert.equal(head.headers!['Content-Length'], String(size));
    assert.equal(head.body, '');
    assert.equal((await run(stream.handler, 'stream')).statusCode, 404);
  });

  it('the artwork function validates its query and answers 404 for the sample id, with CORS and no rate-limit count', async () => {
    const res = await run(artwork, 'artwork');
    assert.equal(res.statusCode, 404);
    assert.equal(res.headers!['Content-Type'], 'application/problem+json');
    assert.deepEqual({ ...JSON.parse(res.body!), requestId: undefined }, {
      type: '/problems/not-found', title: 'Not found', status: 404, detail: 'Media mv_sample0000000000000000 was not found',
      instance: '/api/v1/artwork/mv_sample0000000000000000/poster', requestId: undefined,
    });
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
    const result = (await libraryUpkeep(sampleEvent('libraryUpkeep'), lambdaContext('libraryUpkeep'))) as any;
    assert.ok(Array.isArray(result.watch) && Array.isArray(result.started) && Array.isArray(result.busy), JSON.stringify(result));
    // An EventBridge schedule's own event is read as "nothing changed".
    const scheduled = (await libraryUpkeep({ 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} }, lambdaContext('libraryUpkeep'))) as any;
    assert.ok(Array.isArray(scheduled.watch));
  });
});
