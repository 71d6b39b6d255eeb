// The shared HTTP layer, end to end through the front door: request ids, problems for every
// kind of bad input, routing, and the contract's cross-origin rules (production mode).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { call, stack, type Reply } from '../support/stack';

const assertProblem = (res: Reply, status: number, code: string) => {
  assert.equal(res.status, status, res.text);
  assert.equal(res.headers['content-type'], 'application/problem+json');
  assert.equal(res.json.type, `/problems/${code}`);
  assert.equal(res.json.status, status);
  assert.equal(typeof res.json.detail, 'string');
  assert.equal(res.json.requestId, res.headers['x-request-id']);
};

describe('health', () => {
  it('answers ok with the database up, uncounted by the rate limit', async () => {
    const res = await call('GET', '/api/v1/health');
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    assert.deepEqual(Object.keys(res.json.data).sort(), ['database', 'disk', 'reasons', 'status', 'uptimeSeconds', 'version']);
    assert.equal(res.json.data.status, 'ok');
    assert.deepEqual(res.json.data.reasons, []);
    // The stack's data folder: its disk, with room (the full disk is test/integration/disk-full.test.ts).
    const { disk } = res.json.data;
    assert.equal(disk.path, stack.dataDir);
    assert.equal(disk.state, 'ok');
    assert.ok(disk.freeBytes > disk.lowBelowBytes && disk.totalBytes >= disk.freeBytes, JSON.stringify(disk));
    assert.equal(res.json.data.database, 'ok');
    assert.equal(res.headers.ratelimit, undefined);
  });
});

describe('answers of the handlers', () => {
  it('are not compressed, even for a client that takes gzip, as API Gateway sends them', async () => {
    // The OpenAPI document: far over the 1 KB from which offline's server would gzip.
    const res = await call('GET', '/api/docs.json', { headers: { 'accept-encoding': 'gzip, deflate, br' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['content-encoding'], undefined);
    assert.ok(res.text.length > 10_000, `${res.text.length} bytes`);
    assert.equal(res.json.openapi, '3.1.0');
  });
});

describe('request ids', () => {
  it('echoes a sane incoming X-Request-Id', async () => {
    const res = await call('GET', '/api/v1/health', { headers: { 'x-request-id': 'client-abc.123' } });
    assert.equal(res.headers['x-request-id'], 'client-abc.123');
  });

  it('replaces an unusable one with its own', async () => {
    const res = await call('GET', '/api/v1/health', { headers: { 'x-request-id': 'bad id with spaces <script>' } });
    assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/);
  });
});

describe('routing', () => {
  // `/` and the web client's other addresses are its page (test/integration/web.test.ts).
  for (const path of [
    '/favicon.ico',
    '/index.html',
    '/search/deeper',
    '/api/v1/nope',
    '/api/v2/health',
    '/2015-03-31/functions/health/invocations',
  ]) {
    it(`answers ${path} with the service's own 404 problem`, async () => {
      const res = await call('GET', path);
      assertProblem(res, 404, 'route-not-found');
      assert.doesNotMatch(res.text, /existingRoutes|Serverless-offline/);
    });
  }

  it('answers a wrong method with 405 and Allow', async () => {
    const res = await call('DELETE', '/api/v1/settings');
    assertProblem(res, 405, 'method-not-allowed');
    assert.equal(res.headers.allow, 'GET, PATCH');
  });

  it('tells a client that forgot to upgrade /ws to do so', async () => {
    assert.equal((await call('GET', '/ws')).status, 426);
  });
});

describe('request bodies', () => {
  it('rejects malformed JSON with 400', async () => {
    const res = await call('PATCH', '/api/v1/settings', { headers: { 'content-type': 'application/json' }, body: '{"features": {' });
    assertProblem(res, 400, 'malformed-json');
  });

  it('rejects a body that is not JSON with 415', async () => {
    const res = await call('PATCH', '/api/v1/settings', { headers: { 'content-type': 'text/plain' }, body: 'theme=dark' });
    assertProblem(res, 415, 'unsupported-media-type');
  });

  it('rejects a missing body with 400', async () => {
    assertProblem(await call('PATCH', '/api/v1/settings', { headers: { 'content-type': 'application/json' } }), 400, 'invalid-request');
  });

  it('rejects a body over 1 MiB with 413', async () => {
    const body = JSON.stringify({ preferences: { theme: 'x'.repeat(1024 * 1024) } });
    assertProblem(
      await call('PATCH', '/api/v1/settings', { headers: { 'content-type': 'application/json' }, body }),
      413,
      'body-too-large',
    );
  });

  it('rejects a body over the gateway limit before it reaches a function', async () => {
    const body = Buffer.alloc(11 * 1024 * 1024, 'a');
    assertProblem(
      await call('PATCH', '/api/v1/settings', { headers: { 'content-type': 'application/json' }, body }),
      413,
      'body-too-large',
    );
  });

  it('rejects an oversize chunked body too', async () => {
    const body = Buffer.alloc(11 * 1024 * 1024, 'a');
    const res = await call('PATCH', '/api/v1/settings', {
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body,
    });
    assertProblem(res, 413, 'body-too-large');
  });
});

describe('cross-origin rules (production mode)', () => {
  it('allows a request without Origin', async () => {
    const res = await call('GET', '/api/v1/settings');
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
  });

  it('allows a LAN origin and says so', async () => {
    const res = await call('GET', '/api/v1/settings', { headers: { origin: 'http://192.168.1.20:8080' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers['access-control-allow-origin'], 'http://192.168.1.20:8080');
    assert.match(String(res.headers.vary), /Origin/);
  });

  it('answers a LAN preflight with the methods and headers a player needs, Range included', async () => {
    const res = await call('OPTIONS', '/api/v1/stream/abc', {
      headers: { origin: 'http://10.0.0.5', 'access-control-request-method': 'GET', 'access-control-request-headers': 'range' },
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers['access-control-allow-origin'], 'http://10.0.0.5');
    assert.match(String(res.headers['access-control-allow-headers']), /\bRange\b/);
    assert.match(String(res.headers['access-control-allow-methods']), /PATCH/);
  });

  for (const origin of ['https://evil.example', 'http://localhost:5173', 'http://127.0.0.1:3000', 'null']) {
    it(`refuses ${origin} with 403, preflight included`, async () => {
      for (const method of ['GET', 'OPTIONS']) {
        const res = await call(method, '/api/v1/settings', { headers: { origin, 'access-control-request-method': 'PATCH' } });
        assertProblem(res, 403, 'origin-not-allowed');
        assert.equal(res.headers['access-control-allow-origin'], undefined);
      }
    });
  }

  it('refuses a foreign origin even on an unknown route', async () => {
    assertProblem(await call('GET', '/api/v1/movies', { headers: { origin: 'https://evil.example' } }), 403, 'origin-not-allowed');
  });
});

describe('same-origin requests (production mode)', () => {
  const port = new URL(stack.url).port;
  // A POST whose body is refused for its content: a 422, not the 403 of the origin rule.
  const post = (headers: Record<string, string>) =>
    call('POST', '/api/v1/library', {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ name: 'x', path: '/nowhere/at/all', mediaType: 'movie' }),
    });

  for (const host of [`127.0.0.1:${port}`, `localhost:${port}`]) {
    it(`accepts a POST from the box's own page at http://${host}, as a browser sends it`, async () => {
      const res = await post({ origin: `http://${host}`, host });
      assertProblem(res, 422, 'path-not-usable');
    });
  }

  it("accepts a host name configured as the box's own, and refuses one that is not", async () => {
    // The stack starts with ALLOWED_HOSTS=media-box.test (test/support/instance.ts).
    assertProblem(await post({ origin: `http://media-box.test:${port}`, host: `media-box.test:${port}` }), 422, 'path-not-usable');
    assertProblem(await post({ origin: `http://other-box.test:${port}`, host: `other-box.test:${port}` }), 403, 'origin-not-allowed');
  });

  it('refuses a DNS-rebinding page: Origin and Host both a public name', async () => {
    for (const host of ['evil.example', `evil.example:${port}`]) {
      assertProblem(await post({ origin: `http://${host}`, host }), 403, 'origin-not-allowed');
    }
  });

  it('refuses a loopback origin sent to another address: not the same origin', async () => {
    assertProblem(await post({ origin: `http://localhost:${Number(port) + 1}`, host: `localhost:${port}` }), 403, 'origin-not-allowed');
  });

  it("ignores a client's own X-Forwarded-Host: the front door sets it from Host", async () => {
    assertProblem(
      await post({ origin: 'http://evil.example', host: 'evil.example', 'x-forwarded-host': `127.0.0.1:${port}` }),
      403,
      'origin-not-allowed',
    );
  });
});
