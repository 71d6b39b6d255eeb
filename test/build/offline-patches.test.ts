// Fails if a fix this project carries for serverless-offline 14.8.2 is lost (an upgrade, a
// postinstall that did not run): each fix is checked by its behaviour, on a fixture service.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { freePorts } from '../../infra/runner/ports';
import { PROJECT_DIR } from '../../infra/project';
import { waitFor } from '../support/instance';
import { call } from '../support/stack';
import { LOCAL_CREDENTIALS } from '../../lib/config';
import type { Server } from 'node:http';
import pino from 'pino';
import { createFrontDoor } from '../../infra/gateway/front-door';

let offline: ChildProcess;
let lambda: LambdaClient;
let httpBase: string;
let lambdaBase: string;
let output = '';

const invoke = async (name: string, type: 'Event' | 'RequestResponse' = 'RequestResponse') => {
  const out = await lambda.send(new InvokeCommand({ FunctionName: `offline-patch-check-dev-${name}`, InvocationType: type }));
  return { status: out.StatusCode, payload: out.Payload ? JSON.parse(Buffer.from(out.Payload).toString() || 'null') : undefined };
};

before(async () => {
  const [httpPort, lambdaPort, wsPort] = await freePorts(3);
  httpBase = `http://127.0.0.1:${httpPort}`;
  lambdaBase = `http://127.0.0.1:${lambdaPort}`;
  offline = spawn(
    process.execPath,
    [
      join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'),
      'offline',
      'start',
      '--useInProcess',
      '--host',
      '127.0.0.1',
      '--httpPort',
      String(httpPort),
      '--lambdaPort',
      String(lambdaPort),
      '--websocketPort',
      String(wsPort),
    ],
    { cwd: join(PROJECT_DIR, 'test/fixtures/offline-patches'), stdio: ['ignore', 'pipe', 'pipe'], detached: true },
  );
  offline.stdout!.on('data', (d) => (output += d));
  offline.stderr!.on('data', (d) => (output += d));
  lambda = new LambdaClient({ endpoint: lambdaBase, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  await waitFor('offline to start', async () => (/Server ready/.test(output) ? true : undefined), 60_000);
});

after(() => {
  if (offline?.pid) process.kill(-offline.pid, 'SIGKILL');
  lambda?.destroy();
});

describe('the front door before offline', () => {
  let server: Server;
  let base: string;
  before(async () => {
    const door = createFrontDoor({
      httpTarget: httpBase,
      wsTarget: httpBase.replace('http', 'ws'),
      log: pino({ level: process.env.MLS_DEBUG ? 'info' : 'silent' }),
    });
    door.markReady();
    server = door.server;
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  const assertProblem = (res: Awaited<ReturnType<typeof call>>, status: number, type: string, requestId?: string) => {
    assert.equal(res.status, status, res.text);
    assert.equal(res.headers['content-type'], 'application/problem+json');
    assert.equal(res.json.type, `/problems/${type}`);
    assert.equal(res.json.status, status);
    assert.ok(res.headers['x-request-id']);
    assert.equal(res.json.requestId, res.headers['x-request-id']);
    if (requestId) assert.equal(res.json.requestId, requestId);
    assert.doesNotMatch(res.text, /errorMessage|stackTrace|Bad Request/);
  };

  it("turns offline's own answers into the service's problems: a Lambda timeout is a 504, never a 200", async () => {
    assertProblem(
      await call('GET', '/api/v1/health', { base, headers: { 'x-request-id': 'timeout-check' } }),
      504,
      'gateway-timeout',
      'timeout-check',
    );
  });

  it('a handler that crashes is a bare 500', async () => {
    assertProblem(await call('GET', '/api/v1/settings', { base }), 500, 'internal');
  });

  it('a Content-Type its HTTP server cannot read is a 415', async () => {
    for (const type of ['application/json, text/plain', '/']) {
      const res = await call('POST', '/api/v1/library', { base, headers: { 'content-type': type }, body: '{}' });
      assert.equal(res.status, 415, `${type}: ${res.text}`);
      assertProblem(res, 415, 'unsupported-media-type');
    }
    // A handler's own answer passes untouched.
    const ok = await call('POST', '/api/v1/library', { base, headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(ok.status, 200);
  });
});

describe('serverless-offline fixes', () => {
  it('survives an async invocation that throws (fix 1: the fire-and-forget promise is caught)', async () => {
    assert.equal((await invoke('boom', 'Event')).status, 202);
    const legacy = await fetch(`${lambdaBase}/2014-11-13/functions/offline-patch-check-dev-boom/invoke-async/`, {
      method: 'POST',
      body: '{}',
    });
    assert.deepEqual(await legacy.json(), { StatusCode: 202 });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(offline.exitCode, null, output);
    assert.equal((await invoke('timers')).status, 200);
  });

  it('does not keep a timer alive per finished invocation (fix 2: the timeout is cancelled)', async () => {
    const first = (await invoke('timers')).payload as number;
    for (let i = 0; i < 30; i++) await invoke('timers');
    const last = (await invoke('timers')).payload as number;
    assert.ok(last - first < 5, `timers grew from ${first} to ${last}`);
  });

  it('leaves CORS to the functions when httpApi.cors is false (fix 3: no emulated headers or statuses)', async () => {
    const res = await call('GET', '/deny', { base: httpBase, headers: { origin: 'https://evil.example' } });
    assert.equal(res.status, 403);
    assert.equal(res.headers['access-control-allow-origin'], undefined);
    assert.equal(res.headers['access-control-allow-credentials'], undefined);
  });

  it('hands the function the raw body text for every JSON value (fix 4: no parsed or unwrapped bodies)', async () => {
    for (const text of ['false', '0', '"x"', 'null', '[1]', '{"a":1}', ' 1 ']) {
      const res = await call('POST', '/echo', { base: httpBase, headers: { 'content-type': 'application/json' }, body: text });
      assert.deepEqual(res.json, { type: 'string', body: text }, `body ${text}`);
    }
  });
});
