// The DynamoDB calls a service makes, counted by a proxy of ours in front of DynamoDB Local: it
// forwards every call unchanged and notes what it was (the operation and the key's entity) and
// how long it took. Used in the bench process (bench/watching.ts, a second instance on the
// same table) and in a process of its own (bench/ddb-proxy-process.ts, the household part's
// one instance, whose handlers are pointed at it by bench/handlers-dynamodb.cjs).
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DdbCall {
  /** `<operation> <entity>`: `GetItem profile`, `Query inprogress`, `BatchGetItem media`. */
  label: string;
  items: number;
  /** performance.now() of the process that counted it when the call reached the proxy. */
  startedAt: number;
  ms: number;
}

/** The operation of a call's label. */
export const operationOf = (call: Pick<DdbCall, 'label'>) => call.label.split(' ')[0]!;

/** What a call is about: the operation and the key's entity (`GetItem profile`, `Query inprogress`, `BatchGetItem media`). */
export const describeCall = (target: string, body: Buffer): { label: string; items: number } => {
  const op = target.split('.').pop() || 'unknown';
  let input: any;
  try {
    input = JSON.parse(body.toString('utf8'));
  } catch {
    input = {};
  }
  // The key's text (its `S`), or ? when the call names none.
  const entity = (pk: unknown) => (typeof pk === 'string' ? pk : '?').split('#')[0];
  if (op === 'BatchGetItem' || op === 'BatchWriteItem') {
    const requests: any[] = Object.values(input.RequestItems ?? {}).flatMap((r: any) => (Array.isArray(r) ? r : r.Keys ?? []));
    const first = requests[0];
    const pk = first?.pk?.S ?? first?.PutRequest?.Item?.pk?.S ?? first?.DeleteRequest?.Key?.pk?.S;
    return { label: `${op} ${entity(pk)}`, items: requests.length };
  }
  if (op === 'TransactWriteItems' || op === 'TransactGetItems') {
    const first = input.TransactItems?.[0];
    const part = first && (Object.values(first)[0] as any);
    return { label: `${op} ${entity((part?.Key ?? part?.Item)?.pk?.S)}`, items: input.TransactItems?.length ?? 0 };
  }
  if (op === 'Query') return { label: `Query ${entity(input.ExpressionAttributeValues?.[':pk']?.S)}`, items: 1 };
  return { label: `${op} ${entity((input.Key ?? input.Item)?.pk?.S)}`, items: 1 };
};

/**
 * A proxy in front of DynamoDB Local that forwards every call unchanged and notes what it was
 * and how long it took. `target` may be given late (a function asked at each call until it
 * answers): the database of an instance that is still starting.
 */
export const countingProxy = async (target: string | (() => string | undefined)) => {
  let upstream = typeof target === 'string' ? new URL(target) : undefined;
  const resolve = () => {
    if (!upstream && typeof target === 'function') {
      const t = target();
      if (t) upstream = new URL(t);
    }
    return upstream;
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const calls: DdbCall[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const startedAt = performance.now();
      const to = resolve();
      if (!to) {
        res.writeHead(503);
        res.end('counting proxy: the database is not known yet');
        return;
      }
      const up = request({ hostname: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
        const parts: Buffer[] = [];
        answer.on('data', (c: Buffer) => parts.push(c));
        answer.on('end', () => {
          calls.push({ ...describeCall(String(req.headers['x-amz-target'] ?? ''), body), startedAt, ms: performance.now() - startedAt });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(Buffer.concat(parts));
        });
      });
      up.on('error', (err) => {
        res.writeHead(502);
        res.end(String(err));
      });
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    close: () => {
      agent.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
};
