// Starts the whole local service: DynamoDB Local (unless DYNAMODB_ENDPOINT points at
// another), the table, serverless-offline with the handlers, and the front door on
// HOST:PORT. Stopping stops every process it started. Used by `npm start`, tests and bench.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, relative } from 'node:path';
import pino from 'pino';
import { config, LOCAL_CREDENTIALS } from '../../lib/config';
import { createDb } from '../../lib/db/client';
import { REDACT_PATHS, type Log } from '../../lib/log';
import { writeRuntime } from '../../lib/runtime';
import { waitForDynamo, dynamoLocalCommand, javaVersion } from './dynamodb/local';
import { ensureTable } from './ensure-table';
import { createFrontDoor } from '../gateway/front-door';
import { webDistOf } from '../gateway/web-assets';
import { LogCollector } from './log-collector';
import { ManagedProcess } from './managed-process';
import { ensureBuilt } from '../build.mjs';
import { PROJECT_DIR } from '../project';
import { freePorts } from './ports';
import { LibraryMonitor } from './monitor';
import { recoverScans } from './recover-scans';
import { claimDataDir, readState, stateFile, type RunnerState } from './state';

/**
 * V8's young generation at 1 MiB per semi-space instead of 16: serverless-offline settled at
 * 200 MiB right after start instead of 289, by measurement (docs/benchmarks.md, footprint).
 * `npm start` gives the runner the same flag (package.json).
 */
export const NODE_FLAGS = ['--max-semi-space-size=1'];

export interface RunningService {
  url: string;
  port: number;
  state: RunnerState;
  log: Log;
  stop(): Promise<void>;
}

const waitForHttp = async (url: string, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await fetch(url, { signal: AbortSignal.timeout(5_000) });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`${url} did not answer`, { cause: err });
      await new Promise((r) => setTimeout(r, 150));
    }
  }
};

const listen = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

/**
 * Starts the service. Aborting `signal` while it starts (Ctrl-C during start-up) stops
 * whatever was already started and rejects, so no process is left behind.
 */
export const startService = async (signal: AbortSignal = new AbortController().signal): Promise<RunningService> => {
  const { dataDir } = config;
  const logDir = config.logDir ?? join(dataDir, 'logs');
  mkdirSync(dataDir, { recursive: true });
  const collector = new LogCollector({ dir: logDir, pretty: config.mode === 'development' });
  const log: Log = pino(
    { level: config.logLevel, base: { pid: process.pid, component: 'runner' }, timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' }, formatters: { level: (label) => ({ level: label }) } },
    { write: (line: string) => collector.record(line) },
  );
  await claimDataDir(dataDir, log);

  const [dbPort, httpPort, wsPort, lambdaPort] = await freePorts(4);
  const state: RunnerState = {
    pid: process.pid,
    port: config.port,
    startedAt: Date.now(),
    dynamodbEndpoint: config.db.endpoint ?? `http://127.0.0.1:${dbPort}`,
    offlineHttp: `http://127.0.0.1:${httpPort}`,
    offlineWebsocket: `ws://127.0.0.1:${wsPort}`,
    lambdaEndpoint: `http://127.0.0.1:${lambdaPort}`,
    processes: {},
  };
  const saveState = () => writeFileSync(stateFile(dataDir), JSON.stringify(state, null, 2));
  const started: ManagedProcess[] = [];
  const stopAll = async () => {
    await Promise.all(started.reverse().map((p) => p.stop()));
  };

  // The public port first: a port in use fails at once, and until the handlers are up
  // clients get a 503 problem rather than a refused connection.
  // An instance on its own embedded database is the only one counting: its front door does it,
  // in memory, with no database write per request; instances sharing a DYNAMODB_ENDPOINT count in the table.
  const countAtEdge = !config.db.endpoint;
  const frontDoor = createFrontDoor({
    httpTarget: state.offlineHttp,
    wsTarget: state.offlineWebsocket,
    log,
    webDir: webDistOf(PROJECT_DIR),
    ...(countAtEdge ? { rateLimit: config.rateLimit } : {}),
  });
  await listen(frontDoor.server, config.port, config.host);
  const closeFrontDoor = async () => {
    frontDoor.server.closeAllConnections();
    await new Promise<void>((r) => frontDoor.server.close(() => r()));
  };

  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(new Error('stopped while starting'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  aborted.catch(() => {});
  /** Each start-up step gives way as soon as the start is aborted. */
  const step = <T>(work: Promise<T>) => Promise.race([work, aborted]);

  try {
    // ---- the handlers' bundles: built once per code version, reused by every later start ----
    const build = await step(ensureBuilt(PROJECT_DIR));
    log.info({ key: build.key, built: build.built, ms: Math.round(build.ms) }, build.built ? 'handlers bundled' : 'handler bundles reused');

    // ---- the database, and the handlers beside it (they need it only once requests come) ----
    const { dynamodbEndpoint } = state;
    let databaseReady: Promise<void>;
    if (!config.db.endpoint) {
      const version = javaVersion();
      if (!version || version < 17) {
        throw new Error('The embedded database needs Java 17 or newer: run `npm install` as root (it installs it) or `apt-get install openjdk-17-jdk-headless`, or set DYNAMODB_ENDPOINT');
      }
      const dbDir = join(dataDir, 'db');
      mkdirSync(dbDir, { recursive: true });
      // Emptied at every start: what a killed JVM left there is of no use.
      const jvmTmp = join(dataDir, 'tmp', 'dynamodb');
      rmSync(jvmTmp, { recursive: true, force: true });
      mkdirSync(jvmTmp, { recursive: true });
      const cmd = dynamoLocalCommand(dbPort!, dbDir, jvmTmp);
      if (!cmd.loopbackOnly) log.warn('no JDK compiler: DynamoDB Local listens on every interface (install a JDK to keep it on 127.0.0.1)');
      const dynamo = new ManagedProcess({
        name: 'dynamodb-local', command: cmd.command, args: cmd.args, options: { cwd: cmd.cwd }, log, restart: true,
        onOutput: (child) => child.stderr?.on('data', (d: Buffer) => log.debug({ process: 'dynamodb-local' }, d.toString().trim())),
        onStart: async (child) => {
          // Recorded before it is ready, so a crash during start-up leaves no orphan unknown.
          state.processes.dynamodb = child.pid;
          saveState();
          await waitForDynamo(dynamodbEndpoint);
          // In memory or after a crash the table may be new: create what is missing.
          await ensureTable(createDb({ ...config.db, endpoint: dynamodbEndpoint, localCredentials: LOCAL_CREDENTIALS }).raw, config.db.tableName);
        },
      });
      started.push(dynamo);
      databaseReady = dynamo.start();
    } else {
      databaseReady = ensureTable(createDb(config.db).raw, config.db.tableName).then(() => undefined);
    }
    // Awaited below; until then a failure must not count as unhandled.
    databaseReady.catch(() => undefined);

    const env: NodeJS.ProcessEnv = {
      ...process.env,
      // How the handlers run: behind this front door, on this database.
      ...writeRuntime({
        mode: config.mode,
        dataDir,
        logDir,
        dynamodbEndpoint,
        tableName: config.db.tableName,
        wsManagementEndpoint: `http://127.0.0.1:${wsPort}`,
        lambdaEndpoint: state.lambdaEndpoint,
        streamDelivery: 'front-door',
        rateLimitAt: countAtEdge ? 'edge' : 'table',
        serviceStartedAt: Date.now(),
      }),
      // Offline runs the bundles built above, without serverless-esbuild (serverless.yml).
      SERVERLESS_PLUGINS: 'prebuilt',
      HANDLERS_DIR: relative(PROJECT_DIR, build.dir),
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      // Offline's own notices (its route table with internal ports, a line per invocation)
      // mislead and cost ~9% of its CPU under load; its warnings and errors still show.
      SLS_LOG_LEVEL: 'warning',
      SLS_TELEMETRY_DISABLED: '1',
      SLS_NOTIFICATIONS_MODE: 'off',
    };
    const offlineArgs = [
      ...NODE_FLAGS,
      join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'), 'offline', 'start', '--stage', 'local',
      '--host', '127.0.0.1', '--httpPort', String(httpPort), '--websocketPort', String(wsPort), '--lambdaPort', String(lambdaPort),
      ...(config.offlineMode === 'in-process' ? ['--useInProcess'] : []),
    ];
    const offline = new ManagedProcess({
      name: 'serverless-offline', command: process.execPath, args: offlineArgs, options: { cwd: PROJECT_DIR, env }, log, restart: true,
      onOutput: (child) => {
        collector.attach(child.stdout, 'offline', 'stdout');
        collector.attach(child.stderr, 'offline', 'stderr');
      },
      onStart: async (child) => {
        state.processes.offline = child.pid;
        saveState();
        await waitForHttp(`http://127.0.0.1:${httpPort}/api/v1/health`, 120_000);
        // No scan worker survives a (re)start of the handlers: pick up what they left.
        await databaseReady;
        await recoverScans(state.lambdaEndpoint, log);
      },
    });
    started.push(offline);
    await step(Promise.all([databaseReady, offline.start()]));

    frontDoor.markReady();
    const monitor = config.monitor.enabled
      ? new LibraryMonitor({ lambdaEndpoint: state.lambdaEndpoint, log, tickMs: config.monitor.tickMs, quietMs: config.monitor.quietMs })
      : undefined;
    monitor?.start();
    state.startedAt = Date.now();
    saveState();
    log.info({ port: config.port, mode: config.mode, dataDir }, 'service started');

    let stopped = false;
    return {
      url: `http://127.0.0.1:${config.port}`,
      port: config.port,
      state,
      log,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await monitor?.stop();
        await closeFrontDoor();
        await stopAll();
        log.info('service stopped');
        if (readState(dataDir)?.pid === process.pid) rmSync(stateFile(dataDir), { force: true });
        // Where bundles lived before they were kept per code version.
        rmSync(join(dataDir, '.build'), { recursive: true, force: true });
        collector.close();
      },
    };
  } catch (err) {
    await closeFrontDoor();
    await stopAll();
    if (readState(dataDir)?.pid === process.pid) rmSync(stateFile(dataDir), { force: true });
    collector.close();
    throw err;
  }
};
