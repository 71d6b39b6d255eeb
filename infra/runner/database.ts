// The database the handlers use: DynamoDB Local started here (java, -dbPath DATA_DIR/db, bound
// to loopback, restarted with backoff if it dies) unless DYNAMODB_ENDPOINT names another, and
// on it the table, created or upgraded from the one definition (ensure-table.ts).
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { config, LOCAL_CREDENTIALS } from '../../lib/config';
import { createDb, type Db } from '../../lib/db/client';
import { dynamoLocalCommand, javaVersion, waitForDynamo } from './dynamodb/local';
import { ensureTable } from './ensure-table';
import { ManagedProcess } from './managed-process';
import type { RunContext } from './run-context';

const requireJava = () => {
  const version = javaVersion();
  if (!version || version < 17) {
    throw new Error(
      'The embedded database needs Java 17 or newer: run `npm install` as root (it installs it) or `apt-get install openjdk-17-jdk-headless`, or set DYNAMODB_ENDPOINT',
    );
  }
};

/** DATA_DIR/db for the data, and a temporary folder of the JVM's own, emptied at every start (what a killed JVM left there is of no use). */
const databaseFolders = (dataDir: string) => {
  const dbDir = join(dataDir, 'db');
  mkdirSync(dbDir, { recursive: true });
  const jvmTmp = join(dataDir, 'tmp', 'dynamodb');
  rmSync(jvmTmp, { recursive: true, force: true });
  mkdirSync(jvmTmp, { recursive: true });
  return { dbDir, jvmTmp };
};

/** A client of the instance's database for the runner itself: the embedded one on its loopback port, with its local credentials. */
export const runnerDb = (run: RunContext): Db =>
  config.db.endpoint
    ? createDb(config.db)
    : createDb({ ...config.db, endpoint: run.state.dynamodbEndpoint, localCredentials: LOCAL_CREDENTIALS });

const startEmbedded = (run: RunContext): Promise<void> => {
  requireJava();
  const { dbDir, jvmTmp } = databaseFolders(run.dataDir);
  const cmd = dynamoLocalCommand(run.ports.dynamodb, dbDir, jvmTmp);
  if (!cmd.loopbackOnly) run.log.warn('no JDK compiler: DynamoDB Local listens on every interface (install a JDK to keep it on 127.0.0.1)');
  const endpoint = run.state.dynamodbEndpoint;
  const dynamo = new ManagedProcess({
    name: 'dynamodb-local',
    command: cmd.command,
    args: cmd.args,
    options: { cwd: cmd.cwd },
    log: run.log,
    restart: true,
    onOutput: (child) => child.stderr?.on('data', (d: Buffer) => run.log.debug({ process: 'dynamodb-local' }, d.toString().trim())),
    onStart: async (child) => {
      // Recorded before it is ready, so a crash during start-up leaves no orphan unknown.
      run.record('dynamodb', child.pid);
      await waitForDynamo(endpoint);
      // In memory or after a crash the table may be new: create what is missing.
      await ensureTable(runnerDb(run).raw, config.db.tableName);
    },
  });
  run.processes.push(dynamo);
  return dynamo.start();
};

/** Resolves once the database answers and holds the table; a failure is the caller's to await. */
export const startDatabase = (run: RunContext): Promise<void> => {
  const ready = config.db.endpoint ? ensureTable(createDb(config.db).raw, config.db.tableName).then(() => undefined) : startEmbedded(run);
  // Awaited later; until then a failure must not count as unhandled.
  ready.catch(() => undefined);
  return ready;
};
