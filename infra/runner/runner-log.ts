// The runner's own log: JSON records at LOG_LEVEL, redacted as the handlers' are (lib/log.ts),
// written into the same collector as the handlers' output (DATA_DIR/logs/service.log), which
// also pretty-prints them on the console in development.
import pino from 'pino';
import { REDACT_PATHS, type Log } from '../../lib/log';
import type { LogLevel } from '../../lib/config';
import { LogCollector } from './log-collector';

export interface RunnerLog {
  log: Log;
  collector: LogCollector;
}

export const openRunnerLog = (dir: string, options: { level: LogLevel; pretty: boolean }): RunnerLog => {
  const collector = new LogCollector({ dir, pretty: options.pretty });
  const log: Log = pino(
    {
      level: options.level,
      base: { pid: process.pid, component: 'runner' },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      formatters: { level: (label) => ({ level: label }) },
    },
    { write: (line: string) => collector.record(line) },
  );
  return { log, collector };
};
