// A whole instance of its own (embedded DynamoDB Local on disk): Ctrl-C leaves nothing
// behind, data survives restarts, a database that dies turns into 503s (not hangs) and the
// service recovers when it is back, and a killed runner's leftovers are cleaned up.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { dynamoLocalCommand, waitForDynamo } from '../../infra/runner/dynamodb/local';
import { stopGroup } from '../../infra/runner/managed-process';
import { freePort } from '../../infra/runner/ports';
import { isAlive, processesMentioning } from '../support/processes';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_DIR } from '../../infra/project';
import type { RunnerState } from '../../infra/runner/state';
import { instanceEnv, startInstance, tempDir, waitFor } from '../support/instance';
import { call, jsonBody } from '../support/stack';
import { WsClient } from '../support/ws';

describe('lifecycle of an instance', () => {
  const dataDir = tempDir('life');

  it('npm start answers, and Ctrl-C stops every process it started', async () => {
    const instance = await startInstance({ viaNpm: true, dataDir });
    assert.match(instance.output(), /Local:\s+http:\/\/localhost:\d+\/api\/v1/);
    assert.match(instance.output(), /API docs:/);
    assert.equal((await call('GET', '/api/v1/health', { base: instance.url })).status, 200);
    const patched = await call('PATCH', '/api/v1/settings', { ...jsonBody({ preferences: { theme: 'dark' } }), base: instance.url });
    assert.equal(patched.status, 200);
    const { processes } = instance.state();
    assert.ok(processes.dynamodb && processes.offline);
    // A client still connected (a browser left open) does not hold the stop up.
    const ws = await WsClient.open(instance.url.replace('http', 'ws') + '/ws');

    // npm itself dies by the signal, as it does in a terminal; what matters is what is left.
    await instance.stop('SIGINT');
    await waitFor(
      'the WebSocket to be closed by the stop',
      async () => (ws.socket.readyState === ws.socket.CLOSED ? true : undefined),
      15_000,
    );
    await waitFor('every process to end', async () => (processesMentioning(dataDir).length === 0 ? true : undefined), 15_000);
    assert.equal(isAlive(processes.dynamodb), false);
    assert.equal(isAlive(processes.offline), false);
  });

  it('Ctrl-C while it is still starting stops what it had already started', async () => {
    const dir = tempDir('early');
    const runner = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_DIR, 'infra/run.ts')], {
      cwd: PROJECT_DIR,
      env: instanceEnv({}, await freePort(), dir),
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => runner.once('exit', resolve));
    // The database is started (and recorded) well before the handlers are up.
    const state = await waitFor(
      'the database to be started',
      async () => {
        try {
          const s = JSON.parse(readFileSync(join(dir, 'runner.json'), 'utf8')) as RunnerState;
          return s.processes.dynamodb ? s : undefined;
        } catch {
          return undefined;
        }
      },
      60_000,
      20,
    );
    runner.kill('SIGINT');
    assert.equal(await exited, 0);
    await waitFor('every process to end', async () => (processesMentioning(dir).length === 0 ? true : undefined), 15_000);
    assert.equal(isAlive(state.processes.dynamodb!), false);
  });

  it('finds its data again after a restart, and survives the database dying', async () => {
    const instance = await startInstance({ dataDir });
    try {
      const base = instance.url;
      assert.equal((await call('GET', '/api/v1/settings', { base })).json.data.preferences.theme, 'dark');

      process.kill(instance.state().processes.dynamodb!, 'SIGKILL');
      const degraded = await waitFor(
        'health to say degraded',
        async () => {
          const res = await call('GET', '/api/v1/health', { base });
          return res.status === 503 ? res : undefined;
        },
        10_000,
        50,
      );
      assert.deepEqual(
        { status: degraded.json.data.status, database: degraded.json.data.database },
        { status: 'degraded', database: 'down' },
      );

      const started = Date.now();
      const failed = await call('GET', '/api/v1/settings', { base });
      assert.equal(failed.status, 503, failed.text);
      assert.equal(failed.json.type, '/problems/dependency-unavailable');
      assert.ok(Date.now() - started < 5_000, 'a request fails fast instead of hanging');

      // The runner restarts the embedded database; nothing else is restarted.
      await waitFor(
        'health to recover',
        async () => ((await call('GET', '/api/v1/health', { base })).status === 200 ? true : undefined),
        60_000,
        200,
      );
      assert.equal((await call('GET', '/api/v1/settings', { base })).json.data.preferences.theme, 'dark');
    } finally {
      assert.equal(await instance.stop('SIGTERM'), 0);
    }
    await waitFor('every process to end', async () => (processesMentioning(dataDir).length === 0 ? true : undefined), 15_000);
  });

  it('cleans up after a runner that was killed outright, and starts again on the same data', async () => {
    const first = await startInstance({ dataDir });
    const { processes } = first.state();
    await first.stop('SIGKILL');
    assert.ok(isAlive(processes.dynamodb!), 'the database outlives a killed runner');

    const second = await startInstance({ dataDir });
    try {
      assert.equal(isAlive(processes.dynamodb!), false);
      assert.equal(isAlive(processes.offline!), false);
      assert.equal((await call('GET', '/api/v1/settings', { base: second.url })).json.data.preferences.theme, 'dark');
    } finally {
      await second.stop();
    }
  });

  it('refuses a DATA_DIR that a running instance uses', async () => {
    const running = await startInstance({ dataDir });
    try {
      await assert.rejects(startInstance({ dataDir }), /in use by a running instance/);
    } finally {
      await running.stop();
    }
  });

  it('recovers on its own when an external DynamoDB goes away and comes back', async () => {
    const port = await freePort();
    const endpoint = `http://127.0.0.1:${port}`;
    const dbDir = tempDir('external-db');
    const startDb = async () => {
      const cmd = dynamoLocalCommand(port, dbDir);
      const child = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, stdio: 'ignore', detached: true });
      await waitForDynamo(endpoint);
      return child;
    };
    let db = await startDb();
    const instance = await startInstance({ env: { DYNAMODB_ENDPOINT: endpoint } });
    const base = instance.url;
    try {
      assert.equal((await call('PATCH', '/api/v1/settings', { ...jsonBody({ preferences: { pageSize: 33 } }), base })).status, 200);
      await stopGroup(db.pid!);

      // Health answers from a probe at most a second old (it is not paid by every request).
      await waitFor(
        'health to say the database is down',
        async () => ((await call('GET', '/api/v1/health', { base })).status === 503 ? true : undefined),
        3_000,
        100,
      );
      const started = Date.now();
      const failed = await call('PATCH', '/api/v1/settings', { ...jsonBody({ preferences: { pageSize: 34 } }), base });
      assert.equal(failed.status, 503);
      assert.equal(failed.json.type, '/problems/dependency-unavailable');
      assert.ok(Date.now() - started < 5_000, 'a request fails fast instead of hanging');

      db = await startDb(); // nothing in the service is restarted
      await waitFor(
        'health to recover',
        async () => ((await call('GET', '/api/v1/health', { base })).status === 200 ? true : undefined),
        30_000,
        200,
      );
      assert.equal((await call('GET', '/api/v1/settings', { base })).json.data.preferences.pageSize, 33);
    } finally {
      await instance.stop();
      await stopGroup(db.pid!);
    }
  });
});
