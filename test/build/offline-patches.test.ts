// Fails if a fix this project carries for serverless-offline 14.8.2 is lost (an upgrade, a
// postinstall that did not run): each fix is checked by its behaviour, on a fixture service.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { freePorts } from '../../infra/ports';
import { PROJECT_DIR } from '../../infra/service';
import { waitFor } from '../support/instance';
import { call } from '../support/stack';
import { LOCAL_CREDENTIALS } from '../../lib/config';

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
    [join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start', '--useInProcess', '--host', '127.0.0.1',
      '--httpPort', String(httpPort), '--lambdaPort', String(lambdaPort), '--websocketPort', String(wsPort)],
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

describe('serverless-offline fixes', () => {
  it('survives an async invocation that throws (fix 1: the fire-and-forget promise is caught)', async () => {
    assert.equal((await invoke('boom', 'Event')).status, 202);
    const legacy = await fetch(`${lambdaBase}/2014-11-13/functions/offline-patch-check-dev-boom/invoke-async/`, { method: 'POST', body: '{}' });
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
});
