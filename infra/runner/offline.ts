// serverless-offline, running the handlers' bundles on loopback ports the runner chose: its
// command line (in-process by measurement, README), its environment (what the handlers are told
// through lib/runtime.ts, and what the framework itself is told), and its process, restarted with
// backoff if it dies. Each time it answers, scan jobs a crash left behind are recovered.
import { join, relative } from 'node:path';
import { config } from '../../lib/config';
import { writeRuntime } from '../../lib/runtime';
import type { Build } from '../build.mjs';
import { PROJECT_DIR } from '../project';
import { ManagedProcess } from './managed-process';
import { recoverScans } from './recover-scans';
import type { RunContext } from './run-context';

/**
 * V8's young generation at most 8 MiB per semi-space instead of 16: serverless-offline settled
 * at 197 MiB right after start instead of 289 (docs/benchmarks.md, footprint). At 1 MiB it
 * started at 190, but under a household's load it spent a fifth of its time collecting
 * garbage, and browsing's p99 during a first scan was 495-579 ms against 334-375 at 8
 * (household). The runner keeps 1 MiB (package.json): it handles bytes, not objects.
 */
export const NODE_FLAGS = ['--max-semi-space-size=8'];

const offlineArgs = ({ ports }: RunContext) => [
  ...NODE_FLAGS,
  join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'),
  'offline',
  'start',
  '--stage',
  'local',
  '--host',
  '127.0.0.1',
  '--httpPort',
  String(ports.http),
  '--websocketPort',
  String(ports.websocket),
  '--lambdaPort',
  String(ports.lambda),
  // Every handler on offline's main thread, in the one module graph of infra/build.mjs.
  '--useInProcess',
];

const offlineEnv = (run: RunContext, build: Build): NodeJS.ProcessEnv => ({
  ...process.env,
  // How the handlers run: behind this front door, on this database.
  ...writeRuntime({
    hosting: 'shared-process',
    mode: config.mode,
    dataDir: run.dataDir,
    logDir: run.logDir,
    dynamodbEndpoint: run.state.dynamodbEndpoint,
    databaseDir: config.db.endpoint ? undefined : join(run.dataDir, 'db'),
    tableName: config.db.tableName,
    wsManagementEndpoint: `http://127.0.0.1:${run.ports.websocket}`,
    lambdaEndpoint: run.state.lambdaEndpoint,
    streamDelivery: 'front-door',
    rateLimitAt: run.rateLimitAt,
    serviceStartedAt: Date.now(),
  }),
  // Offline runs the bundles built by the runner, without serverless-esbuild (serverless.yml).
  SERVERLESS_PLUGINS: 'prebuilt',
  HANDLERS_DIR: relative(PROJECT_DIR, build.dir),
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  // Offline's own notices (its route table with internal ports, a line per invocation)
  // mislead and cost ~9% of its CPU under load; its warnings and errors still show.
  SLS_LOG_LEVEL: 'warning',
  SLS_TELEMETRY_DISABLED: '1',
  SLS_NOTIFICATIONS_MODE: 'off',
});

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

/** Resolves once the handlers answer, the database is ready, and left-over scans are recovered. */
export const startOffline = (run: RunContext, build: Build, databaseReady: Promise<void>): Promise<void> => {
  const offline = new ManagedProcess({
    name: 'serverless-offline',
    command: process.execPath,
    args: offlineArgs(run),
    options: { cwd: PROJECT_DIR, env: offlineEnv(run, build) },
    log: run.log,
    restart: true,
    onOutput: (child) => {
      run.collector.attach(child.stdout, 'offline', 'stdout');
      run.collector.attach(child.stderr, 'offline', 'stderr');
    },
    onStart: async (child) => {
      run.record('offline', child.pid);
      await waitForHttp(`${run.state.offlineHttp}/api/v1/health`, 120_000);
      // No scan worker survives a (re)start of the handlers: pick up what they left.
      await databaseReady;
      await recoverScans(run.state.lambdaEndpoint, run.log);
    },
  });
  run.processes.push(offline);
  return offline.start();
};
