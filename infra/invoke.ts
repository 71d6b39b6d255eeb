// `npm run invoke -- <function> [events/<file>.json]`: runs one function alone with a sample
// event (serverless `invoke local`). It uses the database of the instance running on
// DATA_DIR if there is one, else DYNAMODB_ENDPOINT, else a throwaway in-memory DynamoDB Local.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { config, LOCAL_CREDENTIALS } from '../lib/config';
import { createDb } from '../lib/db/client';
import { writeRuntime } from '../lib/runtime';
import { dynamoLocalCommand, waitForDynamo } from './runner/dynamodb/local';
import { ensureTable } from './runner/ensure-table';
import { isAlive, stopGroup } from './runner/managed-process';
import { freePort } from './runner/ports';
import { PROJECT_DIR } from './project';
import { readState } from './runner/state';

interface Target {
  env: Record<string, string>;
  release: () => Promise<void>;
}

/** Where the function's database (and WebSocket endpoint) should come from. */
const target = async (): Promise<Target> => {
  const running = readState(config.dataDir);
  if (running && isAlive(running.pid)) {
    process.stderr.write(`Using the instance running on ${config.dataDir} (port ${running.port})\n`);
    return {
      env: writeRuntime({
        dynamodbEndpoint: running.dynamodbEndpoint,
        wsManagementEndpoint: running.offlineWebsocket.replace(/^ws/, 'http'),
        logDir: join(config.dataDir, 'logs'),
      }),
      release: async () => {},
    };
  }
  if (config.db.endpoint) return { env: {}, release: async () => {} };

  const port = await freePort();
  const cmd = dynamoLocalCommand(port);
  const child = spawn(cmd.command, cmd.args, { cwd: cmd.cwd, stdio: 'ignore', detached: true });
  const endpoint = `http://127.0.0.1:${port}`;
  process.stderr.write(`No instance is running on ${config.dataDir}: using a throwaway in-memory database\n`);
  await waitForDynamo(endpoint);
  await ensureTable(createDb({ ...config.db, endpoint, localCredentials: LOCAL_CREDENTIALS }).raw, config.db.tableName);
  return { env: writeRuntime({ dynamodbEndpoint: endpoint }), release: () => stopGroup(child.pid!) };
};

const main = async () => {
  const [fn, eventFile] = process.argv.slice(2);
  if (!fn) {
    process.stderr.write('usage: npm run invoke -- <function> [events/<file>.json]\n');
    process.exit(2);
  }
  const path = eventFile ?? join('events', `${fn}.json`);
  if (!existsSync(path)) {
    process.stderr.write(`No event file at ${path}\n`);
    process.exit(2);
  }
  const { env, release } = await target();
  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      [join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'), 'invoke', 'local', '--stage', 'local', '-f', fn, '-p', path],
      { cwd: PROJECT_DIR, stdio: 'inherit', env: { ...process.env, ...env, SLS_TELEMETRY_DISABLED: '1' } },
    );
    child.on('exit', (c) => resolve(c ?? 1));
  });
  await release();
  process.exit(code);
};

void main();
