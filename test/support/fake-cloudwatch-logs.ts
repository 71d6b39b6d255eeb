// A fake CloudWatch Logs of our own, over real HTTP on 127.0.0.1, speaking the service's AWS
// JSON 1.1 protocol (`POST /`, `X-Amz-Target: Logs_20140328.<Operation>`, content type
// application/x-amz-json-1.1, errors as `{"__type","message"}` with status 400) so the real SDK
// client talks to it. It answers FilterLogEvents as documented for the fields the log reader
// sends: logGroupName, startTime (inclusive), endTime (inclusive), filterPattern (only the
// JSON level form `{ ($.level = "warn") || ($.level = "error") }`; anything else is refused
// with InvalidParameterException, so the reader cannot rely on a pattern the fake would get
// wrong), limit (10,000 by default) and nextToken, with the events of every stream of the
// group interleaved in timestamp order. Events arrive through append(), as Lambda delivers
// the lines a function writes to stdout.
//
//   const fake = new FakeCloudWatchLogs();
//   const { url, close } = await fake.start();
//   fake.append('/aws/lambda/media', '2026/01/01/[$LATEST]abc', lines);
import type { LEVELS } from '../../lib/logs/reader';
import { serveAwsJson, ServiceError, type JsonService } from './fake-aws-json';

const TARGET_PREFIX = 'Logs_20140328.';
const MAX_LIMIT = 10_000;

interface StoredEvent {
  logStreamName: string;
  timestamp: number;
  message: string;
  ingestionTime: number;
  eventId: string;
  /** Order of arrival in the group: events of one timestamp come back in it. */
  seq: number;
}

/** How a request is made to fail. */
export type CloudWatchFailure =
  /** 400 ThrottlingException ("Rate exceeded"), as the service answers past its request rate. */
  | 'throttling'
  /** 500 ServiceUnavailableException. */
  | 'unavailable'
  /** 400 AccessDeniedException, as for a role without logs:FilterLogEvents. */
  | 'access-denied';

export interface FilterCall {
  logGroupName: string | undefined;
  startTime: number | undefined;
  endTime: number | undefined;
  filterPattern: string | undefined;
  limit: number | undefined;
  nextToken: string | undefined;
  /** The status answered and how many events the page held. */
  status: number;
  events: number;
}

export type FakeCloudWatchLogsServer = JsonService;

/** The state a nextToken carries: where the next page starts in the same query. */
interface PageToken {
  query: string;
  offset: number;
}

const invalid = (message: string) => new ServiceError(400, 'InvalidParameterException', message);

const FAILURES: Record<CloudWatchFailure, ServiceError> = {
  throttling: new ServiceError(400, 'ThrottlingException', 'Rate exceeded'),
  unavailable: new ServiceError(500, 'ServiceUnavailableException', 'The service is unavailable'),
  'access-denied': new ServiceError(400, 'AccessDeniedException', 'User is not authorized to perform: logs:FilterLogEvents'),
};

/** The level labels a pattern of the one supported form accepts; throws InvalidParameterException for any other. */
const parseLevelPattern = (pattern: string): Set<string> => {
  const body = /^\{\s*(.*?)\s*\}$/.exec(pattern.trim())?.[1];
  if (!body) throw invalid(`Invalid filter pattern (only the JSON level form is supported by the fake): ${pattern}`);
  const levels = body.split('||').map((term) => /^\(\$\.level = "([a-z]+)"\)$/.exec(term.trim())?.[1]);
  if (levels.some((level) => level === undefined))
    throw invalid(`Invalid filter pattern (only ($.level = "<label>") terms joined by || are supported by the fake): ${pattern}`);
  return new Set(levels as string[]);
};

/** A JSON pattern on $.level matches JSON events whose level is one of the labels; other events never match it. */
const matchesLevels = (message: string, levels: Set<string>) => {
  try {
    const record = JSON.parse(message) as { level?: unknown };
    return typeof record === 'object' && record !== null && typeof record.level === 'string' && levels.has(record.level);
  } catch {
    return false;
  }
};

const optionalNumber = (input: Record<string, unknown>, field: string): number | undefined => {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw invalid(`${field} must be a non-negative integer`);
  return value;
};

const optionalString = (input: Record<string, unknown>, field: string): string | undefined => {
  const value = input[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new ServiceError(400, 'SerializationException', `${field} must be a string`);
  return value;
};

export class FakeCloudWatchLogs {
  /** Every FilterLogEvents request, in order. */
  calls: FilterCall[] = [];
  /** At most this many events per page whatever the request's limit (the service also cuts pages at 1 MB). */
  pageSize: number | undefined;
  private readonly groups = new Map<string, StoredEvent[]>();
  private failure: CloudWatchFailure | undefined;
  private seq = 0;

  /**
   * Delivers lines a function wrote to stdout as events of a stream (creating the group and
   * the stream, as Lambda does). Each line's timestamp is `timestamp` (a number, or computed
   * per line), else the `time` of the JSON record it holds, else the previous line's, else now.
   */
  append(groupName: string, streamName: string, lines: readonly string[], timestamp?: number | ((line: string, index: number) => number)) {
    const events = this.groups.get(groupName) ?? [];
    this.groups.set(groupName, events);
    let previous: number | undefined;
    lines.forEach((line, index) => {
      const at = typeof timestamp === 'function' ? timestamp(line, index) : (timestamp ?? recordTime(line) ?? previous ?? Date.now());
      previous = at;
      const seq = this.seq++;
      events.push({
        logStreamName: streamName,
        timestamp: at,
        message: line,
        ingestionTime: Date.now(),
        eventId: String(seq).padStart(20, '0'),
        seq,
      });
    });
    return this;
  }

  /** Every request fails this way until called with undefined. */
  failWith(failure: CloudWatchFailure | undefined) {
    this.failure = failure;
    return this;
  }

  /** Forgets the calls, the page size and the failure; the events stay. */
  reset() {
    this.calls = [];
    this.pageSize = undefined;
    this.failure = undefined;
    return this;
  }

  async start(): Promise<FakeCloudWatchLogsServer> {
    return serveAwsJson(TARGET_PREFIX, (operation, input) => {
      if (operation !== 'FilterLogEvents')
        throw new ServiceError(400, 'UnknownOperationException', `The fake answers FilterLogEvents only, not ${operation}`);
      return this.filterLogEvents(input);
    });
  }

  private filterLogEvents(input: Record<string, unknown>) {
    const call: FilterCall = {
      logGroupName: typeof input.logGroupName === 'string' ? input.logGroupName : undefined,
      startTime: typeof input.startTime === 'number' ? input.startTime : undefined,
      endTime: typeof input.endTime === 'number' ? input.endTime : undefined,
      filterPattern: typeof input.filterPattern === 'string' ? input.filterPattern : undefined,
      limit: typeof input.limit === 'number' ? input.limit : undefined,
      nextToken: typeof input.nextToken === 'string' ? input.nextToken : undefined,
      status: 200,
      events: 0,
    };
    this.calls.push(call);
    try {
      return this.page(input, call);
    } catch (err) {
      if (err instanceof ServiceError) call.status = err.status;
      throw err;
    }
  }

  private page(input: Record<string, unknown>, call: FilterCall) {
    if (this.failure) throw FAILURES[this.failure];

    const groupName = optionalString(input, 'logGroupName');
    if (!groupName || optionalString(input, 'logGroupIdentifier') !== undefined)
      throw invalid('Give either logGroupName or logGroupIdentifier (the fake takes logGroupName)');
    const startTime = optionalNumber(input, 'startTime');
    const endTime = optionalNumber(input, 'endTime');
    const limit = optionalNumber(input, 'limit') ?? MAX_LIMIT;
    if (limit < 1 || limit > MAX_LIMIT) throw invalid(`limit must be from 1 to ${MAX_LIMIT}`);
    const pattern = optionalString(input, 'filterPattern');
    const levels = pattern?.trim() ? parseLevelPattern(pattern) : undefined;
    const events = this.groups.get(groupName);
    if (!events) throw new ServiceError(400, 'ResourceNotFoundException', 'The specified log group does not exist.');

    // The query a token belongs to: a token used with other parameters is refused.
    const query = JSON.stringify([groupName, startTime, endTime, pattern ?? '']);
    const token = optionalString(input, 'nextToken');
    const offset = token === undefined ? 0 : this.offsetOf(token, query);

    const matching = events
      .filter((e) => (startTime === undefined || e.timestamp >= startTime) && (endTime === undefined || e.timestamp <= endTime))
      .filter((e) => !levels || matchesLevels(e.message, levels))
      .sort((a, b) => a.timestamp - b.timestamp || a.seq - b.seq);
    const size = Math.min(limit, this.pageSize ?? MAX_LIMIT);
    const page = matching.slice(offset, offset + size);
    call.events = page.length;
    const more = offset + page.length < matching.length;
    return {
      events: page.map(({ logStreamName, timestamp, message, ingestionTime, eventId }) => ({
        logStreamName,
        timestamp,
        message,
        ingestionTime,
        eventId,
      })),
      ...(more
        ? { nextToken: Buffer.from(JSON.stringify({ query, offset: offset + page.length } satisfies PageToken)).toString('base64') }
        : {}),
    };
  }

  private offsetOf(token: string, query: string): number {
    try {
      const state = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as PageToken;
      if (state.query === query && Number.isInteger(state.offset)) return state.offset;
    } catch {
      // refused below
    }
    throw invalid('The specified nextToken is invalid.');
  }
}

const recordTime = (line: string): number | undefined => {
  try {
    const time = Date.parse(String((JSON.parse(line) as { time?: unknown }).time));
    return Number.isNaN(time) ? undefined : time;
  } catch {
    return undefined;
  }
};

/** A line as lib/log.ts writes it (the level as a label, pid and hostname included). */
export const logRecord = (at: number, level: keyof typeof LEVELS, msg: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ level, time: new Date(at).toISOString(), pid: 8, hostname: '169.254.10.1', requestId: `r-${at}`, msg, ...extra });

/** What Lambda itself writes around an invocation. */
export const lambdaLines = (id: string) => [
  `START RequestId: ${id} Version: $LATEST`,
  `END RequestId: ${id}`,
  `REPORT RequestId: ${id}\tDuration: 12.34 ms\tBilled Duration: 13 ms\tMemory Size: 512 MB\tMax Memory Used: 88 MB`,
];
