// Starts the whole local service: DynamoDB Local (unless DYNAMODB_ENDPOINT points at another),
// the table, serverless-offline with the handlers, and the front door on HOST:PORT. Stopping
// stops every process it started. Used by `npm start`, the tests and the benchmarks. Each step
// is a function of its own below; startService is their order.
import { mkdirSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { join } from 'node:path';
import { config } from '../../lib/config';
import { DoorStore } from '../../lib/jellyfin/store';
import type { Log } from '../../lib/log';
import { ensureBuilt, type Build } from '../build.mjs';
import { createFrontDoor, type FrontDoorOptions } from '../gateway/front-door';
import { createJellyfinDoor } from '../gateway/jellyfin-door';
import { memoryHitCounter } from '../../lib/http/rate-limit';
import { startDiscovery, type Discovery } from '../gateway/jellyfin-discovery';
import { webDistOf } from '../gateway/web-assets';
import { PROJECT_DIR } from '../project';
import { runnerDb, startDatabase } from './database';
import { DiskWatch } from './disk-watch';
import { PlaybackSweep } from './playback-sweep';
import { LibraryMonitor } from './monitor/library-monitor';
import { startOffline } from './offline';
import { freePorts } from './ports';
import type { RunContext } from './run-context';
import { openRunnerLog } from './runner-log';
import { claimDataDir, initialState, releaseDataDir, saveState, type RunnerState } from './state';

export interface RunningService {
  url: string;
  port: number;
  state: RunnerState;
  log: Log;
  stop(): Promise<void>;
}

interface OpenFrontDoor {
  markReady(): void;
  /** Answers the Jellyfin apps' discovery datagrams, once the table holds the server id (when the door and discovery are on). */
  discover(): Promise<void>;
  close(): Promise<void>;
}

/** A start-up step gives way as soon as `signal` aborts. */
const abortable = (signal: AbortSignal) => {
  const aborted = new Promise<never>((_, reject) => {
    const stop = () => reject(new Error('stopped while starting'));
    if (signal.aborted) stop();
    else signal.addEventListener('abort', stop, { once: true });
  });
  aborted.catch(() => {});
  return <T>(work: Promise<T>) => Promise.race([work, aborted]);
};

/** The log, DATA_DIR claimed, the internal ports taken: what every later step shares. */
const prepare = async (signal: AbortSignal): Promise<RunContext> => {
  const { dataDir } = config;
  const logDir = config.logDir ?? join(dataDir, 'logs');
  mkdirSync(dataDir, { recursive: true });
  const { log, collector } = openRunnerLog(logDir, { level: config.logLevel, pretty: config.mode === 'development' });
  await claimDataDir(dataDir, log);
  const [dynamodb, http, websocket, lambda] = (await freePorts(4)) as [number, number, number, number];
  const ports = { dynamodb, http, websocket, lambda };
  const state = initialState(config.port, ports, config.db.endpoint);
  return {
    dataDir,
    logDir,
    log,
    collector,
    ports,
    state,
    processes: [],
    // An instance on its own embedded database is the only one counting: its front door does it,
    // in memory, with no database write per request; instances sharing a DYNAMODB_ENDPOINT count
    // in the table, unless RATE_LIMIT_AT=edge says this one is alone on its table.
    rateLimitAt: config.rateLimit.chosen ?? (config.db.endpoint ? 'table' : 'edge'),
    record: (role, pid) => {
      state.processes[role] = pid;
      if (!saveState(dataDir, state)) log.warn({ role, pid }, 'runner.json could not be saved; the previous one stays');
    },
    step: abortable(signal),
  };
};

const listen = (server: Server, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });

/** A convenience: an app can always be given the address by hand, so a failure here is a warning. */
const startJellyfinDiscovery = async (run: RunContext, doorPort: number): Promise<Discovery | undefined> => {
  const { discoveryPort, serverName } = config.jellyfin;
  if (discoveryPort === null) return undefined;
  const db = runnerDb(run);
  try {
    // Read once: the id never changes once made.
    const serverId = await new DoorStore(() => db).server();
    const discovery = await startDiscovery({ port: discoveryPort, doorPort, serverId, name: serverName, host: config.host, log: run.log });
    run.log.info({ port: discovery.port }, 'Jellyfin discovery answers on UDP');
    return discovery;
  } catch (err) {
    run.log.warn(
      { err, port: discoveryPort },
      'Jellyfin discovery could not start; the service runs on without it (the apps need the address entered)',
    );
    return undefined;
  } finally {
    db.raw.destroy();
  }
};

/**
 * The public port, first: a port in use fails at once, and until the handlers are up clients
 * get a 503 problem rather than a refused connection.
 */
const openFrontDoor = async (run: RunContext, onAnswer: FrontDoorOptions['onAnswer']): Promise<OpenFrontDoor> => {
  // One count per client for both ports.
  const hits = memoryHitCounter();
  const frontDoor = createFrontDoor({
    httpTarget: run.state.offlineHttp,
    wsTarget: run.state.offlineWebsocket,
    log: run.log,
    webDir: webDistOf(PROJECT_DIR),
    ...(onAnswer ? { onAnswer } : {}),
    ...(run.rateLimitAt === 'edge' ? { rateLimit: config.rateLimit, rateLimitHits: hits } : {}),
  });
  await listen(frontDoor.server, config.port, config.host);
  // The Jellyfin door (docs/jellyfin.md): a second port, the same handlers.
  const door =
    config.jellyfin.port === null
      ? undefined
      : createJellyfinDoor({
          httpTarget: run.state.offlineHttp,
          wsTarget: run.state.offlineWebsocket,
          log: run.log,
          webDir: config.jellyfin.webDir,
          rateLimit: run.rateLimitAt === 'edge' ? { settings: config.rateLimit, hits } : undefined,
        });
  if (door) {
    try {
      await listen(door.server, config.jellyfin.port!, config.host);
    } catch (err) {
      await frontDoor.close();
      throw err;
    }
  }
  let discovery: Discovery | undefined;
  return {
    markReady: () => {
      frontDoor.markReady();
      door?.markReady();
    },
    discover: async () => {
      if (door) discovery = await startJellyfinDiscovery(run, config.jellyfin.port!);
    },
    close: async () => {
      await Promise.all([frontDoor.close(), door?.close(), discovery?.close()]);
    },
  };
};

/** The handlers' bundles: built once per code version, reused by every later start. */
const bundleHandlers = async (run: RunContext): Promise<Build> => {
  const build = await run.step(ensureBuilt(PROJECT_DIR));
  run.log.info(
    { key: build.key, built: build.built, ms: Math.round(build.ms) },
    build.built ? 'handlers bundled' : 'handler bundles reused',
  );
  return build;
};

/** The database, and the handlers beside it (they need it only once requests come). */
const startBackends = async (run: RunContext, build: Build) => {
  const databaseReady = startDatabase(run);
  await run.step(Promise.all([databaseReady, startOffline(run, build, databaseReady)]));
};

/** The reserve first, before the database writes a byte; the reports once the handlers can take them. */
const watchDisk = async (run: RunContext): Promise<DiskWatch> => {
  const watch = new DiskWatch({
    dataDir: run.dataDir,
    limits: config.disk.lowBelow,
    reserveBytes: config.db.endpoint ? 0 : config.disk.reserveBytes,
    everyMs: config.disk.checkMs,
    log: run.log,
  });
  await watch.keepReserve();
  return watch;
};

const startMonitor = (run: RunContext): LibraryMonitor | undefined => {
  if (!config.monitor.enabled) return undefined;
  const monitor = new LibraryMonitor({
    lambdaEndpoint: run.state.lambdaEndpoint,
    log: run.log,
    tickMs: config.monitor.tickMs,
    quietMs: config.monitor.quietMs,
  });
  monitor.start();
  return monitor;
};

const markStarted = (run: RunContext) => {
  run.state.startedAt = Date.now();
  if (!saveState(run.dataDir, run.state)) run.log.warn('runner.json could not be saved; the previous one stays');
  run.log.info({ port: config.port, mode: config.mode, dataDir: run.dataDir }, 'service started');
};

/** Stops the watchers, the front door and every process started, newest first. */
const stopStarted = async (
  run: RunContext,
  frontDoor: OpenFrontDoor,
  monitor?: LibraryMonitor,
  disk?: DiskWatch,
  sweep?: PlaybackSweep,
) => {
  disk?.stop();
  sweep?.stop();
  await monitor?.stop();
  await frontDoor.close();
  await Promise.all(run.processes.reverse().map((p) => p.stop()));
};

const running = (
  run: RunContext,
  frontDoor: OpenFrontDoor,
  monitor: LibraryMonitor | undefined,
  disk: DiskWatch,
  sweep: PlaybackSweep,
): RunningService => {
  let stopped = false;
  return {
    url: `http://127.0.0.1:${config.port}`,
    port: config.port,
    state: run.state,
    log: run.log,
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await stopStarted(run, frontDoor, monitor, disk, sweep);
      run.log.info('service stopped');
      releaseDataDir(run.dataDir);
      // Where bundles lived before they were kept per code version.
      rmSync(join(run.dataDir, '.build'), { recursive: true, force: true });
      run.collector.close();
    },
  };
};

/**
 * Starts the service. Aborting `signal` while it starts (Ctrl-C during start-up) stops
 * whatever was already started and rejects, so no process is left behind.
 */
export const startService = async (signal: AbortSignal = new AbortController().signal): Promise<RunningService> => {
  const run = await prepare(signal);
  // The monitor starts last, once the handlers are up; the front door tells it of new libraries.
  let monitor: LibraryMonitor | undefined;
  const frontDoor = await openFrontDoor(run, config.monitor.enabled ? (id, status) => monitor?.onAnswer(id, status) : undefined);
  const disk = await watchDisk(run);
  const sweep = new PlaybackSweep(run.dataDir, run.log);
  try {
    await sweep.start();
    const build = await bundleHandlers(run);
    await startBackends(run, build);
    frontDoor.markReady();
    await frontDoor.discover();
    monitor = startMonitor(run);
    disk.start(run.state.lambdaEndpoint);
    markStarted(run);
    return running(run, frontDoor, monitor, disk, sweep);
  } catch (err) {
    await stopStarted(run, frontDoor, undefined, disk, sweep);
    releaseDataDir(run.dataDir);
    run.collector.close();
    throw err;
  }
};
