// The one counting proxy in front of DynamoDB Local: every call forwarded unchanged and noted
// (the operation, the key's entity, the items of a batch or transaction, bytes, how long it
// took, and the capacity units DynamoDB would bill: DynamoDB Local answers
// ReturnConsumedCapacity by DynamoDB's rules, so the proxy asks for INDEXES on every call that
// did not, and takes the figure out of the answer again). The cloud part runs it in the bench
// process; the shared stack (bench/library.ts) in a process of its own (`proxyProcess`), so the
// calls it forwards do not wait behind the bench's own clients, and the handlers are pointed at
// it by bench/handlers-dynamodb.cjs.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { PROJECT_DIR } from '../infra/project';
import { readState } from '../infra/runner/state';
import { caller, forwardingProxy } from './forwarding';

export interface DdbCall {
  /** The caller, by its SDK's user agent (the cloud part names each function so), else `unattributed`. */
  fn: string;
  op: string;
  /** `<operation> <entity>`: `GetItem profile`, `Query inprogress`, `BatchGetItem media`. */
  label: string;
  items: number;
  requestBytes: number;
  responseBytes: number;
  /** Capacity units by `wru.table`, `wru.<index>`, `rru.table`, `rru.<index>`. */
  units: Record<string, number>;
  /** The error type of a call that failed. */
  error?: string;
  unprocessed: number;
  /** performance.now() of the process that holds the call when it reached the proxy. */
  startedAt: number;
  ms: number;
}

export const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems']);
const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

const entity = (pk: unknown) => (typeof pk === 'string' ? pk : '?').split('#')[0]!;
const countOf = (requestItems: Record<string, unknown[] | { Keys?: unknown[] }> | undefined) =>
  Object.values(requestItems ?? {}).reduce<number>((n, v) => n + (Array.isArray(v) ? v.length : (v.Keys?.length ?? 0)), 0);

/** What a call is about: its label (the operation and the first key's entity) and how many items it names. */
export const describeCall = (op: string, input: any): { label: string; items: number } => {
  if (op === 'BatchGetItem' || op === 'BatchWriteItem') {
    const first: any = Object.values(input.RequestItems ?? {}).flatMap((r: any) => (Array.isArray(r) ? r : (r.Keys ?? [])))[0];
    return {
      label: `${op} ${entity(first?.pk?.S ?? first?.PutRequest?.Item?.pk?.S ?? first?.DeleteRequest?.Key?.pk?.S)}`,
      items: countOf(input.RequestItems),
    };
  }
  if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
    const part: any = input.TransactItems?.[0] && Object.values(input.TransactItems[0])[0];
    return { label: `${op} ${entity((part?.Key ?? part?.Item)?.pk?.S)}`, items: input.TransactItems?.length ?? 0 };
  }
  if (op === 'Query') return { label: `Query ${entity(input.ExpressionAttributeValues?.[':pk']?.S)}`, items: 1 };
  return { label: `${op} ${entity((input.Key ?? input.Item)?.pk?.S)}`, items: 1 };
};

interface Capacity {
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
}

/** The proxy; `onCall` is told of each call once it is answered. */
export const countingProxy = (target: string | (() => string | undefined), onCall: (call: DdbCall) => void) =>
  forwardingProxy(target, (req, original) => {
    const startedAt = performance.now();
    const op =
      String(req.headers['x-amz-target'] ?? '')
        .split('.')
        .pop() || 'unknown';
    let input: any = {};
    try {
      input = original.length ? JSON.parse(original.toString('utf8')) : {};
    } catch {
      input = {};
    }
    const injected = (READS.has(op) || WRITES.has(op)) && input.ReturnConsumedCapacity === undefined;
    // The answer must be plain JSON to be read and rewritten.
    delete req.headers['accept-encoding'];
    return {
      body: injected ? Buffer.from(JSON.stringify({ ...input, ReturnConsumedCapacity: 'INDEXES' })) : original,
      answer: (up) => {
        const call: DdbCall = {
          fn: caller(req.headers),
          op,
          ...describeCall(op, input),
          requestBytes: original.length,
          responseBytes: up.body.length,
          units: {},
          unprocessed: 0,
          startedAt,
          ms: performance.now() - startedAt,
        };
        let output: any;
        try {
          output = JSON.parse(up.body.toString('utf8'));
        } catch {
          output = undefined;
        }
        if (up.status !== 200)
          call.error = String(output?.__type ?? up.status)
            .split('#')
            .pop();
        const unit = READS.has(op) ? 'rru' : 'wru';
        const entries: Capacity[] = !output?.ConsumedCapacity
          ? []
          : Array.isArray(output.ConsumedCapacity)
            ? output.ConsumedCapacity
            : [output.ConsumedCapacity];
        const add = (key: string, n: number) => n && (call.units[key] = (call.units[key] ?? 0) + n);
        for (const c of entries) {
          const indexes = { ...(c.GlobalSecondaryIndexes ?? {}), ...(c.LocalSecondaryIndexes ?? {}) };
          const onIndexes = Object.values(indexes).reduce((n, i) => n + (i.CapacityUnits ?? 0), 0);
          add(`${unit}.table`, c.Table?.CapacityUnits ?? Math.max(0, (c.CapacityUnits ?? 0) - onIndexes));
          for (const [name, i] of Object.entries(indexes)) add(`${unit}.${name}`, i.CapacityUnits ?? 0);
        }
        if (output && up.status === 200) call.unprocessed = countOf(output.UnprocessedItems) + countOf(output.UnprocessedKeys);
        onCall(call);
        if (!injected || !output || up.status !== 200) return;
        delete output.ConsumedCapacity;
        return Buffer.from(JSON.stringify(output));
      },
    };
  });

// ---- In a process of its own ----------------------------------------------------------------

interface Take {
  take: number;
}

const child = async (dataDir: string) => {
  const calls: DdbCall[] = [];
  const proxy = await countingProxy(
    () => readState(dataDir)?.dynamodbEndpoint,
    (c) => calls.push(c),
  );
  process.on('message', (message: Take) => {
    // Sent with wall-clock start times: the two processes' performance.now() differ.
    process.send!({ take: message.take, calls: calls.splice(0).map((c) => ({ ...c, startedAt: performance.timeOrigin + c.startedAt })) });
  });
  process.once('disconnect', () => void proxy.close().finally(() => process.exit(0)));
  process.send!({ url: proxy.url });
};

export interface ProxyProcess {
  url: string;
  pid: number;
  /** The calls counted since the last take, their startedAt on this process's performance.now(). */
  take(): Promise<DdbCall[]>;
  close(): Promise<void>;
}

/** Starts the proxy process in front of the database of the instance that will run on `dataDir`. */
export const proxyProcess = async (dataDir: string): Promise<ProxyProcess> => {
  const proc = fork(join(PROJECT_DIR, 'bench/ddb-proxy.ts'), ['--child', dataDir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(proc, 'exit');
  const [first] = (await Promise.race([
    once(proc, 'message'),
    exited.then(() => {
      throw new Error('the counting proxy exited while starting');
    }),
  ])) as [{ url: string }];
  let next = 0;
  const waiting = new Map<number, (calls: DdbCall[]) => void>();
  proc.on('message', (m: { take?: number; calls?: DdbCall[] }) => {
    if (m.take === undefined) return;
    waiting.get(m.take)?.((m.calls ?? []).map((c) => ({ ...c, startedAt: c.startedAt - performance.timeOrigin })));
    waiting.delete(m.take);
  });
  return {
    url: first.url,
    pid: proc.pid!,
    take: () =>
      new Promise<DdbCall[]>((resolve, reject) => {
        const id = next++;
        waiting.set(id, resolve);
        if (!proc.send({ take: id } satisfies Take)) reject(new Error('the counting proxy is gone'));
      }),
    close: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.disconnect();
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
};

/** `GetItem 12, Query 3`: calls by a key (the operation by default), most first; per request when `per` is given. */
export const byKey = (calls: DdbCall[], per?: number, key: (c: DdbCall) => string = (c) => c.op) => {
  const counts = new Map<string, number>();
  for (const c of calls) counts.set(key(c), (counts.get(key(c)) ?? 0) + 1);
  const entries = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return entries.length ? entries.map(([k, n]) => `${k} ${per ? (n / per).toFixed(2) : n}`).join(', ') : 'none';
};

if (process.argv[2] === '--child' && process.argv[3]) void child(process.argv[3]);
