// A forwarding HTTP proxy of our own, the base of every counter of the bench (DynamoDB in
// bench/ddb-proxy.ts; S3, the WebSocket management API and SSM in bench/cloud-meters.ts): it
// sends each request on unchanged (Host included, so a signature check still passes) unless
// told to rewrite its body, and tells its caller of the answer, which may be rewritten too.
import { once } from 'node:events';
import { Agent, createServer, request, type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

export interface Upstream {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Exchange {
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

/** `target` may be given late (asked at each request until it answers): the database of an instance still starting. */
export const forwardingProxy = async (
  target: string | (() => string | undefined),
  exchange: (req: IncomingMessage, body: Buffer) => Exchange,
): Promise<MeteredProxy> => {
  let upstream = typeof target === 'string' ? new URL(target) : undefined;
  const resolve = () => {
    if (!upstream && typeof target === 'function') {
      const t = target();
      if (t) upstream = new URL(t);
    }
    return upstream;
  };
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const to = resolve();
      if (!to) throw new Error('the upstream is not known yet');
      const original = Buffer.concat(chunks);
      const ex = exchange(req, original);
      const headers: OutgoingHttpHeaders = { ...req.headers };
      for (const h of HOP_BY_HOP) delete headers[h];
      if (ex.body !== original) {
        headers['content-length'] = String(ex.body.length);
        delete headers['transfer-encoding'];
      }
      const answer = await new Promise<Upstream>((done, reject) => {
        const out = request({ hostname: to.hostname, port: to.port, method: req.method, path: req.url, headers, agent }, (up) => {
          const parts: Buffer[] = [];
          up.on('data', (c: Buffer) => parts.push(c));
          up.on('end', () => done({ status: up.statusCode ?? 502, headers: up.headers, body: Buffer.concat(parts) }));
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
      res.end(`counting proxy: ${String(err)}`);
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

/** The function whose SDK made a request: `app/<id>` in its user agent (AWS_SDK_UA_APP_ID). */
export const caller = (headers: IncomingHttpHeaders) =>
  /(?:^|\s)app\/([\w.-]+)/.exec(`${String(headers['x-amz-user-agent'] ?? '')} ${headers['user-agent'] ?? ''}`)?.[1] ?? 'unattributed';
