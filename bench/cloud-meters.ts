// What the cloud part of the bench (bench/cloud.ts) counts, at the places AWS bills:
// - DynamoDB calls through the one counting proxy (bench/ddb-proxy.ts), tallied here by
//   operation, items, bytes and capacity units; S3 requests by kind and area (media or the
//   artwork cache), bytes in and out; WebSocket posts and their bytes; SSM calls, each through a
//   forwarding proxy of ours (bench/forwarding.ts). Each count is also kept per function: every
//   function's SDK names it in its user agent (AWS_SDK_UA_APP_ID, set by the bench).
// - Lambda's own figures from the lines the emulator logs (START, REPORT with the duration).
// - The table's and the bucket's size at rest, by DynamoDB's item size rules.
import type { IncomingHttpHeaders } from 'node:http';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { ARTWORK_PREFIX } from '../lib/artwork';
import type { LogLine } from '../test/support/cloud';
import { countingProxy } from './ddb-proxy';
import { caller, forwardingProxy } from './forwarding';

// ---- Counts -------------------------------------------------------------------------------

/** Named counters; `fn|key` holds one function's share of `key`. */
export class Tally {
  private readonly values = new Map<string, number>();

  add(key: string, n = 1) {
    if (n) this.values.set(key, (this.values.get(key) ?? 0) + n);
  }

  /** Adds to the total and to the function's share. */
  record(fn: string, key: string, n = 1) {
    this.add(key, n);
    this.add(`${fn}|${key}`, n);
  }

  snapshot(): Record<string, number> {
    return Object.fromEntries(this.values);
  }
}

export type Counts = Record<string, number>;

/** What was counted between two snapshots. */
export const since = (before: Counts, after: Counts): Counts => {
  const out: Counts = {};
  for (const [key, value] of Object.entries(after)) {
    const d = value - (before[key] ?? 0);
    if (Math.abs(d) > 1e-9) out[key] = Math.round(d * 1000) / 1000;
  }
  return out;
};

/** The totals of a count set (keys without a function), or one function's share. */
export const slice = (counts: Counts, fn?: string): Counts =>
  Object.fromEntries(
    Object.entries(counts)
      .filter(([k]) => (fn === undefined ? !k.includes('|') : k.startsWith(`${fn}|`)))
      .map(([k, v]) => [fn === undefined ? k : k.slice(fn.length + 1), v]),
  );

export const sumOf = (counts: Counts, prefix: string) =>
  Object.entries(counts).reduce((n, [k, v]) => (k.startsWith(prefix) ? n + v : n), 0);

// ---- DynamoDB -----------------------------------------------------------------------------

/**
 * Counts, per operation: `ddb.calls.<op>`, `ddb.items.<op>`, `ddb.requestBytes.<op>`,
 * `ddb.wru.table` / `ddb.wru.<index>` and `ddb.rru.table` / `ddb.rru.<index>`,
 * `ddb.errors.<op>.<type>`, `ddb.unprocessed`, `ddb.responseBytes`.
 */
export const meterDynamo = (target: string, tally: Tally) =>
  countingProxy(target, (c) => {
    tally.record(c.fn, `ddb.calls.${c.op}`);
    tally.record(c.fn, `ddb.items.${c.op}`, c.items);
    tally.record(c.fn, `ddb.requestBytes.${c.op}`, c.requestBytes);
    tally.record(c.fn, 'ddb.responseBytes', c.responseBytes);
    if (c.error) tally.record(c.fn, `ddb.errors.${c.op}.${c.error}`);
    for (const [key, n] of Object.entries(c.units)) tally.record(c.fn, `ddb.${key}`, n);
    tally.record(c.fn, 'ddb.unprocessed', c.unprocessed);
  });

// ---- S3 -----------------------------------------------------------------------------------

/** The S3 API call a path-style request is, and whether it touches the artwork cache or the media. */
export const s3Call = (method: string, rawUrl: string, headers: IncomingHttpHeaders) => {
  const url = new URL(rawUrl, 'http://s3');
  const [, , ...rest] = url.pathname.split('/');
  const key = decodeURIComponent(rest.join('/'));
  const q = url.searchParams;
  const listing = method === 'GET' && !key;
  const kind = listing
    ? q.get('list-type') === '2'
      ? 'ListObjectsV2'
      : q.has('location')
        ? 'GetBucketLocation'
        : 'ListObjects'
    : method === 'GET'
      ? 'GetObject'
      : method === 'HEAD'
        ? key
          ? 'HeadObject'
          : 'HeadBucket'
        : method === 'PUT'
          ? key
            ? headers['x-amz-copy-source']
              ? 'CopyObject'
              : 'PutObject'
            : 'CreateBucket'
          : method === 'DELETE'
            ? key
              ? 'DeleteObject'
              : 'DeleteBucket'
            : method === 'POST' && q.has('delete')
              ? 'DeleteObjects'
              : `${method}-other`;
  const area = (listing ? (q.get('prefix') ?? '') : key).startsWith(ARTWORK_PREFIX) ? 'artwork' : 'media';
  return { kind, area };
};

/** `s3.calls.<kind>`, `s3.calls.<kind>@<area>`, `s3.bytesOut.<kind>`, `s3.bytesIn.<kind>`, `s3.status.<kind>.<status>` (not 2xx). */
export const meterS3 = (target: string, tally: Tally) =>
  forwardingProxy(target, (req, body) => {
    const fn = caller(req.headers);
    const { kind, area } = s3Call(req.method ?? 'GET', req.url ?? '/', req.headers);
    tally.record(fn, `s3.calls.${kind}`);
    tally.record(fn, `s3.calls.${kind}@${area}`);
    tally.record(fn, `s3.bytesIn.${kind}`, body.length);
    return {
      body,
      answer: (up) => {
        tally.record(fn, `s3.bytesOut.${kind}`, up.body.length);
        if (up.status >= 300) tally.record(fn, `s3.status.${kind}.${up.status}`);
      },
    };
  });

// ---- WebSocket management API -------------------------------------------------------------

/** API Gateway meters WebSocket messages in 32 KB increments. */
export const WS_MESSAGE_BYTES = 32 * 1024;

/** `ws.posts`, `ws.bytes`, `ws.messageUnits` (32 KB each), `ws.gone` (410), `ws.other.<method>`. */
export const meterWebSocket = (target: string, tally: Tally) =>
  forwardingProxy(target, (req, body) => {
    const fn = caller(req.headers);
    const post = req.method === 'POST' && (req.url ?? '').startsWith('/@connections/');
    if (post) {
      tally.record(fn, 'ws.posts');
      tally.record(fn, 'ws.bytes', body.length);
      tally.record(fn, 'ws.messageUnits', Math.max(1, Math.ceil(body.length / WS_MESSAGE_BYTES)));
    } else tally.record(fn, `ws.other.${req.method}`);
    return {
      body,
      answer: (up) => {
        if (up.status === 410) tally.record(fn, 'ws.gone');
      },
    };
  });

// ---- Other AWS JSON services (SSM) ---------------------------------------------------------

/** `<service>.calls.<operation>` by X-Amz-Target, and `<service>.status.<operation>.<status>` when not 200. */
export const meterAwsJson = (service: string, target: string, tally: Tally) =>
  forwardingProxy(target, (req, body) => {
    const fn = caller(req.headers);
    const op =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() || 'unknown';
    tally.record(fn, `${service}.calls.${op}`);
    return {
      body,
      answer: (up) => {
        if (up.status !== 200) tally.record(fn, `${service}.status.${op}.${up.status}`);
      },
    };
  });

// ---- Lambda, from the emulator's log lines ------------------------------------------------

export interface LambdaUse {
  invocations: number;
  /** Each invocation's duration rounded up to the next whole millisecond (at least 1), as Lambda bills. */
  billedMs: number;
  /** Execution environments started (cold starts). */
  coldStarts: number;
  /** What the function itself wrote: one CloudWatch event per line. */
  logEvents: number;
  logBytes: number;
  /** Lambda's own START/END/REPORT lines, which CloudWatch Logs ingests too. */
  platformEvents: number;
  platformBytes: number;
}

const emptyUse = (): LambdaUse => ({
  invocations: 0,
  billedMs: 0,
  coldStarts: 0,
  logEvents: 0,
  logBytes: 0,
  platformEvents: 0,
  platformBytes: 0,
});

/** Per function (its short name), from the log lines of a window and the environments it started. */
export const lambdaUse = (lines: readonly LogLine[], newEnvironments: readonly string[], shortName: (fullName: string) => string) => {
  const use: Record<string, LambdaUse> = {};
  const of = (fn: string) => (use[shortName(fn)] ??= emptyUse());
  for (const { functionName, line } of lines) {
    const u = of(functionName);
    const bytes = Buffer.byteLength(line, 'utf8');
    const platform = /^(START|END|REPORT) RequestId: /.exec(line)?.[1];
    if (!platform) {
      u.logEvents++;
      u.logBytes += bytes;
      continue;
    }
    u.platformEvents++;
    u.platformBytes += bytes;
    if (platform === 'START') u.invocations++;
    const duration = platform === 'REPORT' ? /\tDuration: ([\d.]+) ms/.exec(line)?.[1] : undefined;
    if (duration !== undefined) u.billedMs += Math.max(1, Math.ceil(Number(duration)));
  }
  for (const fn of newEnvironments) of(fn).coldStarts++;
  return use;
};

export const totalUse = (use: Record<string, LambdaUse>): LambdaUse =>
  Object.values(use).reduce((t, u) => {
    for (const k of Object.keys(t) as (keyof LambdaUse)[]) t[k] += u[k];
    return t;
  }, emptyUse());

// ---- Sizes at rest ------------------------------------------------------------------------

const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** DynamoDB's size of a number: one byte per two significant digits, plus one. */
const numberSize = (n: string) => {
  const digits = n
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
};

/** The size DynamoDB gives a value (docs: "Item sizes and formats"). */
export const valueSize = (v: AttributeValue): number => {
  if (v.S !== undefined) return utf8(v.S);
  if (v.N !== undefined) return numberSize(v.N);
  if (v.B !== undefined) return v.B.length;
  if (v.BOOL !== undefined || v.NULL !== undefined) return 1;
  if (v.SS) return v.SS.reduce((n, s) => n + utf8(s), 0);
  if (v.NS) return v.NS.reduce((n, s) => n + numberSize(s), 0);
  if (v.BS) return v.BS.reduce((n, b) => n + b.length, 0);
  if (v.L) return 3 + v.L.reduce((n, e) => n + valueSize(e) + 1, 0);
  if (v.M) return 3 + Object.entries(v.M).reduce((n, [k, e]) => n + utf8(k) + valueSize(e) + 1, 0);
  return 0;
};

export const itemSize = (item: Record<string, AttributeValue>, only?: ReadonlySet<string>) =>
  Object.entries(item).reduce((n, [name, v]) => (only && !only.has(name) ? n : n + utf8(name) + valueSize(v)), 0);

/** DynamoDB bills storage per item plus 100 bytes of its own, in the table and in each index holding it. */
export const ITEM_OVERHEAD_BYTES = 100;
