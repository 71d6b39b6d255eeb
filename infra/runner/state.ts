// What a running instance records in DATA_DIR/runner.json: its pid and port, the internal
// endpoints (for tools: `npm run invoke`, the tests) and the process groups it started, so
// that a second instance on the same DATA_DIR is refused and the leftovers of one killed
// outright are stopped at the next start.
import { readFileSync } from 'node:fs';
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
