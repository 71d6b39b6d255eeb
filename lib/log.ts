// One pino root. Handlers log JSON lines to stdout, as Lambda expects; locally the runner
// collects those lines into DATA_DIR/logs (see infra/runner/log-collector.ts). Secrets are redacted
// here, once, so no code path can write them.
import pino, { type Logger } from 'pino';
import { config } from './config';

export const REDACT_PATHS = [
  'tmdbApiKey',
  '*.tmdbApiKey',
  '*.*.tmdbApiKey',
  'apiKey',
  '*.apiKey',
  'api_key',
  '*.api_key',
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers.cookie',
];

export const rootLogger: Logger = pino({
  level: config.logLevel,
  base: { pid: process.pid },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  formatters: { level: (label) => ({ level: label }) },
});

export type Log = Logger;
