// What the cloud part of the bench (bench/cloud.ts) counts, at the places AWS bills:
// - HTTP proxies of our own between the packaged functions and DynamoDB Local, s3rver,
//   offline's WebSocket management API and the fake SSM. They forward every request unchanged
//   (Host included, so s3rver's signature check still passes) and count it: DynamoDB calls by
//   X-Amz-Target operation, the items of batch and transaction calls, request bytes and,
//   because DynamoDB Local answers ReturnConsumedCapacity by DynamoDB's own rules (1 write unit
//   per started KB of item, the indexes' writes listed apart), the capacity units each call
//   consumed: the proxy asks for INDEXES on every call that did not ask itself and takes the
//   figure out of the answer again, so the function sees what it would have seen. S3 requests
//   by kind and area (media or the artwork cache), bytes in and out; WebSocket posts and their
//   bytes; SSM calls. Each count is also kept per function: every function's SDK names it in
//   its user agent (AWS_SDK_UA_APP_ID, set by the bench).
// - Lambda's own figures from the lines the emulator logs (START, REPORT with the duration).
// - The table's and the bucket's size at rest, by DynamoDB's item size rules.
import { ARTWORK_PREFIX } from '../lib/artwork';
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { LogLine } from '../test/support/cloud';

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

/** The function whose SDK made a request: `app/<id>` in its user agent. */
const caller = (headers: IncomingHttpHeaders) =>
  /(?:^|\s)app\/([\w.-]+)/.exec(`${String(headers['x-amz-user-agent'] ?? '')} ${headers['user-agent'] ?? ''}`)?.[1] ?? 'unattributed';

// ---- A forwarding proxy -------------------------------------------------------------------

interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

interface Exchange {
  /** The body to send on (the request's own unless rewritten). */
  body: Buffer;
  /** Told of the answer; may return another body to give the caller. */
  answer(upstream: Upstream): Buffer | void;
}

export interface MeteredProxy {
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = ['connection', 'keep-alive', 'expect', 'proxy-connection', 'upgrade'];

const startProxy = async (target: string, exchange: (req: IncomingMessage, body: Buffer) => Exchange): Promise<MeteredProxy> => {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const original = Buffer.concat(chunks);
      const ex = exchange(req, original);
      const headers: OutgoingHttpHeaders = { ...req.headers };
      for (const h of HOP_BY_HOP) delete headers[h];
      if (ex.body !== original) {
        headers['content-length'] = String(ex.body.length);
        delete headers['transfer-encoding'];
      }
      const answer = await new Promise<Upstream>((resolve, reject) => {
        const out = request({ hostname: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (up) => {
          const parts: Buffer[] = [];
          up.on('data', (c: Buffer) => parts.push(c));
          up.on('end', () => resolve({ status: up.statusCode ?? 502, headers: up.headers, body: Buffer.concat(parts) }));
          up.on('error', reject);
        });
        out.on('error', reject);
        out.end(ex.body);
      });
      const body = ex.answer(answer) ?? answer.body;
      const back: OutgoingHttpHeaders = { ...answer.headers };
      for (const h of HOP_BY_HOP) delete back[h];
      if (req.method !== 'HEAD') {
        delete back['transfer-encoding'];
        back['content-length'] = String(body.length);
      }
      if (body !== answer.body && back['x-amz-crc32'] !== undefined) back['x-amz-crc32'] = String(crc32(body) >>> 0);
      res.writeHead(answer.status, back);
      res.end(req.method === 'HEAD' ? undefined : body);
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`metering proxy: ${String(err)}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      agent.destroy();
    },
  };
};

// ---- DynamoDB -----------------------------------------------------------------------------

const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

interface Capacity {
  TableName?: string;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** How many items a call names: the entries of a batch or transaction, else one. */
const itemsOf = (op: string, input: any): number => {
  const count = (requestItems: Record<string, unknown[] | { Keys?: unknown[] }> | undefined) =>
    Object.values(requestItems ?? {}).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : (v.Keys?.length ?? 0)), 0);
  if (op === 'BatchWriteItem' || op === 'BatchGetItem') return count(input.RequestItems);
  if (op === 'TransactWriteItems' || op === 'TransactGetItems') return input.TransactItems?.length ?? 0;
  return 1;
};

/**
 * Counts, per operation: `ddb.calls.<op>`, `ddb.items.<op>`, `ddb.requestBytes.<op>`,
 * `ddb.wru.table` / `ddb.wru.<index>` and `ddb.rru.table` / `ddb.rru.<index>` (DynamoDB
 * Local's ConsumedCapacity), the same by operation (`ddb.wruByOp.<op>`, `ddb.rruByOp.<op>`),
 * `ddb.errors.<op>.<type>`, `ddb.unprocessed`, `ddb.responseBytes`.
 */
export const meterDynamo = (target: string, tally: Tally) =>
  startProxy(target, (req, original) => {
    const fn = caller(req.headers);
    const op = String(req.headers['x-amz-target'] ?? '').split('.').pop() || 'unknown';
    let input: any;
    try {
      input = original.length ? JSON.parse(original.toString('utf8')) : {};
    } catch {
      input = {};
    }
    tally.record(fn, `ddb.calls.${op}`);
    tally.record(fn, `ddb.items.${op}`, itemsOf(op, input));
    tally.record(fn, `ddb.requestBytes.${op}`, original.length);
    const measured = READS.has(op) || WRITES.has(op);
    const injected = measured && input.ReturnConsumedCapacity === undefined;
    const body = injected ? Buffer.from(JSON.stringify({ ...input, ReturnConsumedCapacity: 'INDEXES' })) : original;
    // The answer must be plain JSON to be read and rewritten.
    delete req.headers['accept-encoding'];
    return {
      body,
      answer: (up) => {
        tally.record(fn, 'ddb.responseBytes', up.body.length);
        let output: any;
        try {
          output = JSON.parse(up.body.toString('utf8'));
        } catch {
          return;
        }
        if (up.status !== 200) {
          const type = String(output?.__type ?? 'unknown').split('#').pop();
          tally.record(fn, `ddb.errors.${op}.${type}`);
          return;
        }
        const unit = READS.has(op) ? 'rru' : 'wru';
        const entries: Capacity[] = Array.isArray(output.ConsumedCapacity) ? output.ConsumedCapacity : output.ConsumedCapacity ? [output.ConsumedCapacity] : [];
        for (const c of entries) {
          const indexes = { ...(c.GlobalSecondaryIndexes ?? {}), ...(c.LocalSecondaryIndexes ?? {}) };
          const onIndexes = Object.values(indexes).reduce((n, i) => n + (i.CapacityUnits ?? 0), 0);
          const onTable = c.Table?.CapacityUnits ?? Math.max(0, (c.CapacityUnits ?? 0) - onIndexes);
          tally.record(fn, `ddb.${unit}.table`, onTable);
          for (const [name, i] of Object.entries(indexes)) tally.record(fn, `ddb.${unit}.${name}`, i.CapacityUnits ?? 0);
          tally.record(fn, `ddb.${unit}ByOp.${op}`, onTable + onIndexes);
        }
        if (measured && !entries.length) tally.record(fn, `ddb.capacityMissing.${op}`);
        const unprocessed = itemsOf('BatchWriteItem', { RequestItems: output.UnprocessedItems }) + itemsOf('BatchGetItem', { RequestItems: output.UnprocessedKeys });
        tally.record(fn, 'ddb.unprocessed', unprocessed);
        if (!injected) return;
        delete output.ConsumedCapacity;
        return Buffer.from(JSON.stringify(output));
      },
    };
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
    ? q.get('list-type') === '2' ? 'ListObjectsV2' : q.has('location') ? 'GetBucketLocation' : 'ListObjects'
    : method === 'GET' ? 'GetObject'
    : method === 'HEAD' ? (key ? 'HeadObject' : 'HeadBucket')
    : method === 'PUT' ? (key ? (headers['x-amz-copy-source'] ? 'CopyObject' : 'PutObject') : 'CreateBucket')
    : method === 'DELETE' ? (key ? 'DeleteObject' : 'DeleteBucket')
    : method === 'POST' && q.has('delete') ? 'DeleteObjects'
    : `${method}-other`;
  const area = (listing ? (q.get('prefix') ?? '') : key).startsWith(ARTWORK_PREFIX) ? 'artwork' : 'media';
  return { kind, area };
};

/** `s3.calls.<kind>`, `s3.calls.<kind>@<area>`, `s3.bytesOut.<kind>`, `s3.bytesIn.<kind>`, `s3.status.<kind>.<status>` (not 2xx). */
export const meterS3 = (target: string, tally: Tally) =>
  startProxy(target, (req, body) => {
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
  startProxy(target, (req, body) => {
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
  startProxy(target, (req, body) => {
    const fn = caller(req.headers);
    const op = String(req.headers['x-amz-target'] ?? '').split('.').pop() || 'unknown';
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

const emptyUse = (): LambdaUse => ({ invocations: 0, billedMs: 0, coldStarts: 0, logEvents: 0, logBytes: 0, platformEvents: 0, platformBytes: 0 });

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
  const digits = n.replace(/^[-+]/, '').replace(/[eE].*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
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
