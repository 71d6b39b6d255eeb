// Two more instances (two processes each) share the test stack's database with
// RATE_LIMIT_MAX=5, in development mode: the limit holds across endpoints and processes.
// A third instance on its own embedded database counts at its front door: the same limit and
// headers, per client address, with no write to the database.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS } from '../../lib/config';
import { createDb } from '../../lib/db/client';
import { keys } from '../../lib/db/table';
import { windowOf } from '../../lib/http/rate-limit';
import { freePort } from '../../infra/runner/ports';
import { startInstance, type Instance } from '../support/instance';
import { call, jsonBody } from '../support/stack';

const WINDOW_MS = 900_000;
let a: Instance;
let b: Instance;

before(async () => {
  const env = {
    DYNAMODB_ENDPOINT: process.env.DYNAMODB_ENDPOINT!,
    RATE_LIMIT_MAX: '5',
    RATE_LIMIT_WINDOW_MS: String(WINDOW_MS),
    NODE_ENV: 'development',
  };
  [a, b] = await Promise.all([startInstance({ env }), startInstance({ env })]);
});
after(() => Promise.all([a?.stop(), b?.stop()]));

describe('rate limit', () => {
  it('answers the 6th counted request in a window with 429, across endpoints and processes', async () => {
    // Start well inside a window so the count cannot reset halfway.
    const { end } = windowOf(Date.now(), WINDOW_MS);
    if (end - Date.now() < 15_000) await new Promise((r) => setTimeout(r, end - Date.now() + 100));
    const from = '127.0.0.23';

    const counted = [
      () => call('GET', '/api/v1/settings', { base: a.url, from }),
      () => call('GET', '/api/v1/logs?limit=1', { base: b.url, from }),
      () => call('PATCH', '/api/v1/settings', { ...jsonBody({ features: { autoResumeScans: true } }), base: a.url, from }),
      () => call('GET', '/api/v1/settings', { base: b.url, from }),
      () => call('GET', '/api/v1/logs?limit=1', { base: a.url, from }),
    ];
    for (const [i, request] of counted.entries()) {
      const res = await request();
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['ratelimit-policy'], `"default";q=5;w=${WINDOW_MS / 1000}`);
      assert.match(String(res.headers.ratelimit), new RegExp(`^"default";r=${4 - i};t=\\d+$`));
    }

    // Health and docs are never counted, so they still answer.
    for (const base of [a.url, b.url]) {
      const health = await call('GET', '/api/v1/health', { base, from });
      assert.equal(health.status, 200);
      assert.equal(health.headers.ratelimit, undefined);
      assert.equal((await call('GET', '/api/docs.json', { base, from })).status, 200);
    }

    for (const base of [b.url, a.url]) {
      const limited = await call('GET', '/api/v1/settings', { base, from });
      assert.equal(limited.status, 429);
      assert.equal(limited.headers['content-type'], 'application/problem+json');
      assert.equal(limited.json.type, '/problems/rate-limited');
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_MS / 1000, String(retryAfter));
      assert.match(String(limited.headers.ratelimit), /^"default";r=0;t=\d+$/);
    }

    // Another client on the LAN has its own allowance.
    assert.equal((await call('GET', '/api/v1/settings', { base: a.url, from: '127.0.0.24' })).status, 200);
  });

  it('allows localhost origins in development mode', async () => {
    const res = await call('GET', '/api/v1/health', { base: a.url, headers: { origin: 'http://localhost:5173' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'http://localhost:5173');
  });
});

describe('rate limit at the edge (an instance on its own embedded database)', () => {
  let solo: Instance;
  let doorPort: number;
  before(async () => {
    doorPort = await freePort();
    solo = await startInstance({ env: { RATE_LIMIT_MAX: '5', RATE_LIMIT_WINDOW_MS: String(WINDOW_MS), JELLYFIN_PORT: String(doorPort) } });
  });
  after(() => solo?.stop());

  it('limits a burst from one address while another is not limited, and writes nothing to the database', async () => {
    const { start, end } = windowOf(Date.now(), WINDOW_MS);
    if (end - Date.now() < 15_000) await new Promise((r) => setTimeout(r, end - Date.now() + 100));
    const from = '127.0.0.31';
    const requests = [
      () => call('GET', '/api/v1/settings', { base: solo.url, from }),
      () => call('GET', '/api/v1/logs?limit=1', { base: solo.url, from }),
      () => call('PATCH', '/api/v1/settings', { ...jsonBody({ features: { autoResumeScans: true } }), base: solo.url, from }),
      () => call('GET', '/api/v1/library', { base: solo.url, from }),
      () => call('GET', '/api/v1/movies/nope', { base: solo.url, from }),
    ];
    for (const [i, request] of requests.entries()) {
      const res = await request();
      assert.ok(res.status === 200 || res.status === 404, res.text);
      assert.equal(res.headers['ratelimit-policy'], `"default";q=5;w=${WINDOW_MS / 1000}`);
      assert.match(String(res.headers.ratelimit), new RegExp(`^"default";r=${4 - i};t=\\d+$`));
    }
    assert.equal((await call('GET', '/api/v1/health', { base: solo.url, from })).status, 200, 'health is not counted');
    const limited = await call('POST', '/api/v1/library', {
      ...jsonBody({ name: 'x', path: '/nowhere', mediaType: 'movie' }),
      base: solo.url,
      from,
    });
    assert.equal(limited.status, 429);
    assert.equal(limited.headers['content-type'], 'application/problem+json');
    assert.equal(limited.json.type, '/problems/rate-limited');
    assert.equal(limited.json.requestId, limited.headers['x-request-id']);
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= WINDOW_MS / 1000, String(retryAfter));
    assert.match(String(limited.headers.ratelimit), /^"default";r=0;t=\d+$/);

    const other = await call('GET', '/api/v1/settings', { base: solo.url, from: '127.0.0.32' });
    assert.equal(other.status, 200, 'another address has its own allowance');
    assert.match(String(other.headers.ratelimit), /^"default";r=4;t=\d+$/);

    // No counter item in the instance's database: counting cost no write.
    const { doc, tableName } = createDb({
      tableName: 'media',
      endpoint: solo.state().dynamodbEndpoint,
      region: 'us-east-1',
      localCredentials: LOCAL_CREDENTIALS,
    });
    const item = await doc.send(new GetCommand({ TableName: tableName, Key: keys.rateLimit(from, start) }));
    assert.equal(item.Item, undefined);
  });

  it("counts the Jellyfin door's requests without a token and those with a refused one, in the same count, and never a logged-in device's", async () => {
    const { end } = windowOf(Date.now(), WINDOW_MS);
    if (end - Date.now() < 15_000) await new Promise((r) => setTimeout(r, end - Date.now() + 100));
    const base = `http://127.0.0.1:${doorPort}`;
    const from = '127.0.0.41';
    const login = await call('POST', '/Users/AuthenticateByName', {
      base,
      from: '127.0.0.42',
      headers: {
        'Content-Type': 'application/json',
        Authorization: 'MediaBrowser Client="c", Device="d", DeviceId="rate-limit", Version="1"',
      },
      body: JSON.stringify({ Username: 'Household', Pw: '' }),
    });
    assert.equal(login.status, 200, login.text);
    const token = login.json.AccessToken as string;
    for (let i = 0; i < 8; i++)
      assert.equal((await call('GET', '/UserViews', { base, from, headers: { 'X-Emby-Token': token } })).status, 200);
    assert.equal((await call('GET', '/api/v1/settings', { base: solo.url, from })).status, 200, 'a logged-in device was not counted');
    assert.equal((await call('GET', '/System/Info/Public', { base, from })).status, 200);
    assert.equal((await call('GET', '/UserViews', { base, from, headers: { 'X-Emby-Token': 'made-up' } })).status, 401);
    assert.equal((await call('GET', '/System/Info/Public', { base, from })).status, 200);
    await new Promise((r) => setTimeout(r, 50)); // the refused token counts once its answer is sent
    assert.equal((await call('GET', '/Branding/Configuration', { base, from })).status, 200, 'the 5th counted request');
    const limited = await call('GET', '/System/Info/Public', { base, from });
    assert.equal(limited.status, 429, `the 6th counted request: ${limited.status}`);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
  });
});
