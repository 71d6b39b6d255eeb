// The log reader of the cloud: every function of the stack logs into one CloudWatch Logs
// group, where Lambda turns each line a handler writes to stdout into an event (and adds its
// own START/END/REPORT lines, which are not JSON records and are skipped). The filter, the
// order and the record's shape are the file reader's (lib/logs/reader.ts), line for line.
//
// FilterLogEvents answers oldest first, so the reader walks time windows backwards from now
// (15 minutes, then each one 4x longer), pages through each, and keeps only the newest
// `limit` matches of a window in memory. It stops when it has `limit`, when a window reaches
// the oldest time worth asking about (`since`, 14 days back, the group's retention), or when
// it has used its calls or its time: then it answers what the windows it finished found, so
// a query that matches little cannot keep a request busy for minutes.
import {
  CloudWatchLogsClient,
  FilterLogEventsCommand,
  type FilteredLogEvent,
  type FilterLogEventsCommandInput,
} from '@aws-sdk/client-cloudwatch-logs';
import type { LogRecordView } from '../api/schemas';
import { dependencyUnavailable } from '../errors';
import { LEVELS, lineFilter, recordOf, type LineFilter, type LogQuery, type LogReader } from './reader';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

export interface CloudWatchLogsClientOptions {
  region: string;
  /** A local stand-in for CloudWatch Logs; unset for AWS. */
  endpoint?: string | undefined;
  localCredentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
}

/** One retry and short timeouts: a read's calls and time are bounded, so a slow call must not eat them all. */
export const cloudWatchLogsClient = ({ region, endpoint, localCredentials }: CloudWatchLogsClientOptions): CloudWatchLogsClient =>
  new CloudWatchLogsClient({
    region,
    ...(endpoint ? { endpoint } : {}),
    ...(localCredentials ? { credentials: localCredentials } : {}),
    maxAttempts: 2,
    requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
  });

export interface CloudWatchLogReaderOptions {
  client: CloudWatchLogsClient;
  logGroupName: string;
  /** How far back a read goes at most (default 14 days): older records are not worth a slow request. */
  maxAgeDays?: number;
  /** The group's retention, when it keeps less than maxAgeDays: nothing older exists to read. */
  retentionDays?: number | undefined;
  /** The newest window's length (default 15 minutes); each further one is `windowGrowth` times longer (default 4). */
  firstWindowMs?: number;
  windowGrowth?: number;
  /** At most this many FilterLogEvents calls per read (default 40) ... */
  maxCalls?: number;
  /** ... and no new call after this long (default 10 s; API Gateway gives up at 30 s). */
  budgetMs?: number;
  /** Events per FilterLogEvents page; unset: the service's default (10,000). */
  pageSize?: number | undefined;
  /** The clock that says where "now" is (tests move it). */
  now?: () => number;
}

/** A match of the window being read, with what orders it: time, then arrival (later lines of one time first, as in a file). */
interface Found {
  timestamp: number;
  arrival: number;
  record: LogRecordView;
}

/** When a record says it was written (its own clock, as the reader shows it), else when CloudWatch took it. */
const writtenAt = (f: Found) => Date.parse(f.record.time) || f.timestamp;
// Two functions' lines reach CloudWatch a few ms apart in either order: the records' own times decide.
const newestFirst = (a: Found, b: Found) => writtenAt(b) - writtenAt(a) || b.timestamp - a.timestamp || b.arrival - a.arrival;

/**
 * The server-side half of the level filter, as a JSON filter pattern on the label lib/log.ts
 * writes (`"level":"warn"`); undefined when every level is wanted. Only JSON events can match
 * a JSON pattern, so with a level Lambda's own lines never come back at all.
 */
export const levelPattern = (minLevel: number): string | undefined => {
  const names = Object.entries(LEVELS)
    .filter(([, value]) => value >= minLevel)
    .map(([name]) => name);
  if (names.length === Object.keys(LEVELS).length) return undefined;
  return `{ ${names.map((name) => `($.level = "${name}")`).join(' || ')} }`;
};

/** No function has logged yet, so the group was never created. */
class GroupNotFound extends Error {}

const isMissingGroup = (err: unknown) => (err as { name?: unknown } | null)?.name === 'ResourceNotFoundException';

export const cloudWatchLogReader = (options: CloudWatchLogReaderOptions): LogReader => {
  const {
    client,
    logGroupName,
    maxAgeDays = 14,
    retentionDays,
    firstWindowMs = 15 * MINUTE,
    windowGrowth = 4,
    maxCalls = 40,
    budgetMs = 10_000,
    pageSize,
    now = Date.now,
  } = options;
  const horizonMs = Math.min(maxAgeDays, retentionDays ?? Infinity) * DAY;

  // Only what the service (or the way to it) did wrong is the 503; a bug of ours stays a 500.
  const filterPage = async (input: FilterLogEventsCommandInput) => {
    try {
      return await client.send(new FilterLogEventsCommand(input));
    } catch (err) {
      throw isMissingGroup(err) ? new GroupNotFound() : dependencyUnavailable('log store (CloudWatch Logs)', err);
    }
  };

  const read = async (query: LogQuery): Promise<LogRecordView[]> => {
    const filter = lineFilter(query);
    const filterPattern = levelPattern(filter.minLevel);
    const startedAt = performance.now();
    const readAt = now();
    const oldest = Math.max(Number.isFinite(filter.since) ? filter.since : 0, readAt - horizonMs);
    const out: LogRecordView[] = [];
    let calls = 0;
    const mayCall = () => calls < maxCalls && performance.now() - startedAt < budgetMs;

    /**
     * One window's matches, newest first, at most `wanted`; undefined when the calls or the
     * time ran out before its last page. What such a window found is its oldest part (pages
     * come oldest first), so it is left out: an answer never skips newer records it did not read.
     */
    const readWindow = async (start: number, end: number | undefined, wanted: number): Promise<Found[] | undefined> => {
      let found: Found[] = [];
      let arrival = 0;
      let nextToken: string | undefined;
      do {
        if (!mayCall()) return undefined;
        calls++;
        const page = await filterPage({ logGroupName, startTime: start, endTime: end, filterPattern, nextToken, limit: pageSize });
        for (const event of page.events ?? []) {
          const match = matchOf(event, start, end, filter);
          if (match) found.push({ ...match, arrival: arrival++ });
        }
        // Pages come oldest first: keep the newest, sorting only now and then.
        if (found.length > 2 * wanted) found = found.sort(newestFirst).slice(0, wanted);
        nextToken = page.nextToken;
      } while (nextToken);
      return found.sort(newestFirst).slice(0, wanted);
    };

    // The newest window has no end, so a line stamped a little after `now` (another clock) still shows.
    let end: number | undefined;
    let length = firstWindowMs;
    while (out.length < query.limit) {
      const start = Math.max(oldest, (end ?? readAt) - length);
      const found = await readWindow(start, end, query.limit - out.length);
      if (!found) break;
      out.push(...found.map((f) => f.record));
      if (start <= oldest) break;
      end = start;
      length *= windowGrowth;
    }
    return out;
  };

  return {
    read: (query) =>
      read(query).catch((err: unknown) => {
        if (err instanceof GroupNotFound) return [];
        throw err;
      }),
  };
};

/**
 * The record an event holds when it falls inside its window and the query selects it.
 * Windows do not overlap (an event at a window's end belongs to the newer one) whether the
 * service counts `endTime` in or not.
 */
const matchOf = (event: FilteredLogEvent, start: number, end: number | undefined, filter: LineFilter) => {
  const timestamp = event.timestamp ?? 0;
  if (timestamp < start || (end !== undefined && timestamp >= end)) return undefined;
  const record = recordOf(event.message ?? '', filter);
  return record && { timestamp, record };
};
