// Reads the JSON-lines log files the local runner writes (newest file and newest line
// first), filtered by minimum level, time, text and count. Lines that are not JSON records
// are skipped rather than failing the request.
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

const levelValue = (level: unknown): number | undefined =>
  typeof level === 'number' ? level : typeof level === 'string' ? LEVELS[level as LogLevel] : undefined;

export const matches = (record: Record<string, unknown>, line: string, query: LogQuery, minLevel: number, since: number) => {
  const value = levelValue(record.level);
  if (value === undefined || value < minLevel) return false;
  if (since && !(Date.parse(String(record.time)) >= since)) return false;
  return !query.q || line.toLowerCase().includes(query.q.toLowerCase());
};

export const readLogs = async (dir: string, query: LogQuery): Promise<LogRecordView[]> => {
  const minLevel = query.level ? LEVELS[query.level] : 0;
  const since = query.since ? Date.parse(query.since) : 0;
  const out: LogRecordView[] = [];
  for (const file of await logFiles(dir)) {
    const lines = (await readFile(file, 'utf8').catch(() => '')).split('\n');
    for (let i = lines.length - 1; i >= 0 && out.length < query.limit; i--) {
      const line = lines[i]!;
      if (!line.startsWith('{')) continue;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      if (!matches(record, line, query, minLevel, since)) continue;
      const { pid: _pid, hostname: _host, level, ...rest } = record;
      out.push({ ...rest, level: NAME_OF[levelValue(level)!] ?? 'info', time: String(record.time), msg: String(record.msg ?? '') } as LogRecordView);
    }
    if (out.length >= query.limit) break;
  }
  return out;
};
