// Each function's exported handler, called as Lambda calls it, with its sample event from
// events/ (the same files `npm run invoke` uses) against the test run's database.
import assert from 'node:assert/strict';
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
import { rawHttp } from '../../lib/http/stack';
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
});
