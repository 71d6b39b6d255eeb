// What a running instance records in DATA_DIR/runner.json: its pid and port, the internal
// endpoints (for tools: `npm run invoke`, the tests) and the process groups it started, so
// that a second instance on the same DATA_DIR is refused and the leftovers of one killed
// outright are stopped at the next start.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Log } from '../../lib/log';
import { isAlive, stopGroup } from './managed-process';

/** What a running instance records in DATA_DIR, for tools (invoke, tests) and stale-run cleanup. */
export interface RunnerState {
  pid: number;
  port: number;
  startedAt: number;
  dynamodbEndpoint: string;
  offlineHttp: string;
  offlineWebsocket: string;
  lambdaEndpoint: string;
  /** Process-group leaders this instance started, by role. */
  processes: { dynamodb?: number; offline?: number };
}

export const stateFile = (dataDir: string) => join(dataDir, 'runner.json');

export const readState = (dataDir: string): RunnerState | undefined => {
  try {
    return JSON.parse(readFileSync(stateFile(dataDir), 'utf8')) as RunnerState;
  } catch {
    return undefined;
  }
};

/** Refuses a DATA_DIR in use by a live instance; stops what a crashed one left behind. */
export const claimDataDir = async (dataDir: string, log: Log) => {
  const previous = readState(dataDir);
  if (!previous) return;
  if (previous.pid !== process.pid && isAlive(previous.pid)) {
    throw new Error(`DATA_DIR ${dataDir} is in use by a running instance (pid ${previous.pid}, port ${previous.port})`);
  }
  const orphans = Object.values(previous.processes).filter(isAlive);
  if (orphans.length) log.warn({ orphans }, 'stopping processes left by an instance that did not shut down');
  await Promise.all(orphans.map((pid) => stopGroup(pid, 2_000)));
};

/** The internal ports an instance takes from the OS (ports.ts). */
export interface InternalPorts {
  dynamodb: number;
  http: number;
  websocket: number;
  lambda: number;
}

/** The state of an instance starting now on `port` and these internal ports (its database elsewhere when `dynamodbEndpoint` is set). */
export const initialState = (port: number, ports: InternalPorts, dynamodbEndpoint: string | undefined): RunnerState => ({
  pid: process.pid,
  port,
  startedAt: Date.now(),
  dynamodbEndpoint: dynamodbEndpoint ?? `http://127.0.0.1:${ports.dynamodb}`,
  offlineHttp: `http://127.0.0.1:${ports.http}`,
  offlineWebsocket: `ws://127.0.0.1:${ports.websocket}`,
  lambdaEndpoint: `http://127.0.0.1:${ports.lambda}`,
  processes: {},
});

/** Where a save is written before it is renamed over the state file. */
export const pendingStateFile = (dataDir: string) => `${stateFile(dataDir)}.${process.pid}.tmp`;

/**
 * Writes the state to a temporary name and renames it over the file, so the file is never left
 * empty or half-written (a full disk, a kill mid-write). False when it could not be saved: the
 * previous file stays whole, and the next save tries again; the running instance keeps its
 * state in memory either way.
 */
export const saveState = (dataDir: string, state: RunnerState): boolean => {
  const pending = pendingStateFile(dataDir);
  try {
    writeFileSync(pending, JSON.stringify(state, null, 2));
    renameSync(pending, stateFile(dataDir));
    return true;
  } catch {
    rmSync(pending, { force: true });
    return false;
  }
};

/** Gives DATA_DIR back: the state file goes, when it is this process's. */
export const releaseDataDir = (dataDir: string) => {
  if (readState(dataDir)?.pid === process.pid) rmSync(stateFile(dataDir), { force: true });
};
