// What the steps of a start share (service.ts): where the instance keeps its data and logs, its
// log, the internal ports it took, the state it records in DATA_DIR/runner.json, and the
// processes started so far (stopped again on the way out).
import type { Log } from '../../lib/log';
import type { RateLimitPlace } from '../../lib/runtime';
import type { LogCollector } from './log-collector';
import type { ManagedProcess } from './managed-process';
import type { InternalPorts, RunnerState } from './state';

export interface RunContext {
  dataDir: string;
  logDir: string;
  log: Log;
  collector: LogCollector;
  ports: InternalPorts;
  state: RunnerState;
  /**
   * Where requests are counted: at the edge (the front door, in memory) when this instance owns
   * its embedded database, as nobody else uses it; in the table when instances share a DYNAMODB_ENDPOINT.
   */
  rateLimitAt: RateLimitPlace;
  /** Processes started so far. */
  processes: ManagedProcess[];
  /** Records a process-group leader in DATA_DIR/runner.json. */
  record(role: keyof RunnerState['processes'], pid: number | undefined): void;
  /** A start-up step that gives way as soon as the start is aborted (Ctrl-C while starting). */
  step<T>(work: Promise<T>): Promise<T>;
}
