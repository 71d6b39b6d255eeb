// The log reader port, and its adapter for the JSON-lines files the local runner writes
// (newest file and newest line first), filtered by minimum level, time, text and count. Lines
// that are not JSON records are skipped rather than failing the request. What a line turns
// into (the filter, the record's shape) lives here once, so every adapter answers alike.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogRecordView } from '../api/schemas';
import type { LogLevel } from '../config';

/** pino's numbers for the levels. */
export const LEVELS: Readonly<Record<LogLevel, number>> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };
const NAME_OF = Object.fromEntries(Object.entries(LEVELS).map(([k, v]) => [v, k])) as Record<number, LogLevel>;

export interface LogQuery {
  level?: LogLevel | undefined;
  since?: string | undefined;
  q?: string | undefined;
  limit: number;
}

/** Where the service's log records are read from: newest first, at most `limit`. */
export interface LogReader {
  read(query: LogQuery): Promise<LogRecordView[]>;
}

/** service.log (active), then service.1.log, service.2.log ... (higher numbers are older). */
const logFiles = async (dir: string) => {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const numbered = names
    .map((name) => ({ name, n: /^service(?:\.(\d+))?\.log$/.exec(name) }))
    .filter((f): f is { name: string; n: RegExpExecArray } => f.n !== null)
    .map((f) => ({ name: f.name, order: Number(f.n[1] ?? 0) }));
  return numbered.sort((a, b) => a.order - b.order).map((f) => join(dir, f.name));
};

// Own keys only: a record whose level is "constructor" is not a level.
const levelValue = (level: unknown): number | undefined =>
  typeof level === 'number' ? level : typeof level === 'string' && Object.hasOwn(LEVELS, level) ? LEVELS[level as LogLevel] : undefined;

export const matches = (record: Record<string, unknown>, line: string, query: LogQuery, minLevel: number, since: number) => {
  const value = levelValue(record.level);
  if (value === undefined || value < minLevel) return false;
  if (since && !(Date.parse(String(record.time)) >= since)) return false;
  return !query.q || line.toLowerCase().includes(query.q.toLowerCase());
};

/** A query with its minimum level and time worked out once, for a request's many lines. */
export interface LineFilter {
  query: LogQuery;
  minLevel: number;
  /** Epoch milliseconds; 0 for no bound. */
  since: number;
}

export const lineFilter = (query: LogQuery): LineFilter => ({
  query,
  minLevel: query.level ? LEVELS[query.level] : 0,
  since: query.since ? Date.parse(query.since) : 0,
});

/** A line's message as text: pino writes a string; another writer's value shows as JSON, not "[object Object]". */
const messageOf = (msg: unknown) => (typeof msg === 'string' ? msg : msg === undefined ? '' : JSON.stringify(msg));

/**
 * The record one raw line holds when the query selects it, in the API's shape (no process id
 * or host, the level as a name); undefined for anything else: a line that is not a JSON
 * record (Lambda's own START/END/REPORT lines, a torn write) or one the filter leaves out.
 */
export const recordOf = (line: string, { query, minLevel, since }: LineFilter): LogRecordView | undefined => {
  if (!line.startsWith('{')) return undefined;
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (!matches(record, line, query, minLevel, since)) return undefined;
  const { pid: _pid, hostname: _host, level, ...rest } = record;
  return { ...rest, level: NAME_OF[levelValue(level)!] ?? 'info', time: String(record.time), msg: messageOf(record.msg) };
};

export const readLogs = async (dir: string, query: LogQuery): Promise<LogRecordView[]> => {
  const filter = lineFilter(query);
  const out: LogRecordView[] = [];
  for (const file of await logFiles(dir)) {
    const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n');
    for (let i = lines.length - 1; i >= 0 && out.length < query.limit; i--) {
      const record = recordOf(lines[i]!, filter);
      if (record) out.push(record);
    }
    if (out.length >= query.limit) break;
  }
  return out;
};

/** The reader of the local runner's log folder (LOG_DIR). */
export const fileLogReader = (dir: string): LogReader => ({ read: (query) => readLogs(dir, query) });
