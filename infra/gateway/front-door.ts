// The local stand-in for API Gateway: one public port for REST and the WebSocket.
// Routes of the contract go to serverless-offline's HTTP port, upgrades on /ws to its
// WebSocket port, the web client's pages and assets are sent from web/dist (web-assets.ts),
// everything else gets the service's own 404 problem (never offline's
// route list, never its Lambda invoke API). It also does what API Gateway does before a
// function runs: caps the payload (10 MiB) and sets X-Forwarded-For from the socket.
import { randomUUID } from 'node:crypto';
import { Agent, createServer, maxHeaderSize, STATUS_CODES, type ClientRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable, type Duplex } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import { matchRoute, type OperationDef } from '../../lib/api/operations';
import { AppError, bodyTooLarge, dependencyUnavailable, headersTooLarge, notFound, rateLimited, routeNotFound, serviceStarting, unreadableRequest } from '../../lib/errors';
import { problemHeaders, toProblem } from '../../lib/http/problem';
import { countHit, memoryHitCounter, rateLimitHeaders, type RateLimitSettings } from '../../lib/http/rate-limit';
import { requestIdFrom } from '../../lib/http/request-context';
import type { Log } from '../../lib/log';
import { FORWARDED_RANGE_HEADER } from '../../lib/stream/send-file';
import { isHandlerAnswer, MACHINERY_BODY_LIMIT, machineryProblem } from './offline-errors';
import { relayOrSendFile, sendBytes } from './send-file';
import { StreamGrants } from './stream-grants';
import { sendWebFile, webFileOf } from './web-assets';

export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;
export const WS_PATH = '/ws';

export interface FrontDoorOptions {
  httpTarget: string;
  wsTarget: string;
  log: Log;
  maxBodyBytes?: number;
  /** Count requests here, per client address (the instance owns its database: nobody else counts). */
  rateLimit?: RateLimitSettings;
  /** The built web client (web/dist), sent at its own addresses and /assets/*. */
  webDir?: string;
}

const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]!;

/** A problem as the front door answers it; a HEAD gets the headers only. */
const renderProblem = (request: { method: string | undefined; path: string; requestId: string }, err: AppError) => {
  const body = request.method === 'HEAD' ? '' : JSON.stringify(toProblem(err, request.path, request.requestId));
  return { status: err.status, headers: { ...problemHeaders(err), 'X-Request-Id': request.requestId, 'Content-Length': String(Buffer.byteLength(body)) }, body };
};

const requestOf = (req: IncomingMessage) => ({ method: req.method, path: pathOf(req), requestId: requestIdFrom(req.headers['x-request-id']) });

const sendProblem = (req: IncomingMessage, res: ServerResponse, err: AppError) => {
  if (res.headersSent) return void res.destroy();
  const { status, headers, body } = renderProblem(requestOf(req), err);
  res.writeHead(status, headers);
  res.end(body);
};

/** Relays a handler's answer as it is. */
const relay = (proxyRes: IncomingMessage, res: ServerResponse) => {
  res.writeHead(proxyRes.statusCode ?? 502, proxyRes.headers);
  proxyRes.pipe(res);
};

/**
 * An answer serverless-offline gave by itself (no handler ran, or its Lambda timed out or
 * crashed) becomes the service's own problem; what it said goes to the log only.
 */
const translateMachineryAnswer = (proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse, log: Log, maxBody: number) => {
  const chunks: Buffer[] = [];
  let kept = 0;
  proxyRes.on('data', (chunk: Buffer) => {
    if (kept >= MACHINERY_BODY_LIMIT) return;
    chunks.push(chunk);
    kept += chunk.length;
  });
  proxyRes.once('end', () => {
    const body = Buffer.concat(chunks).toString('utf8').slice(0, MACHINERY_BODY_LIMIT);
    const problem = machineryProblem(req, proxyRes.statusCode ?? 502, body, maxBody);
    const level = problem.status >= 500 ? 'error' : 'info';
    log[level]({ method: req.method, path: pathOf(req), upstreamStatus: proxyRes.statusCode, upstream: body.slice(0, 500), status: problem.status }, 'the HTTP layer answered without a handler');
    sendProblem(req, res, problem);
  });
  proxyRes.once('error', () => sendProblem(req, res, machineryProblem(req, 502, '', maxBody)));
};

const refused = new WeakSet<IncomingMessage>();
const inFlight = new WeakMap<IncomingMessage, ClientRequest>();

/**
 * Answers 413 at once but finishes the response only once the upload has been read into the
 * void: finishing earlier lets the server close a `Connection: close` socket under a client
 * that is still sending, which then sees a broken pipe instead of the answer. Past twice the
 * limit the connection is cut.
 */
const refuseBody = (req: IncomingMessage, res: ServerResponse, limit: number) => {
  refused.add(req);
  inFlight.get(req)?.destroy();
  req.unpipe();
  if (res.headersSent) return void req.socket.destroy();
  const { status, headers, body } = renderProblem(requestOf(req), bodyTooLarge(limit));
  res.writeHead(status, headers);
  res.write(body);
  let drained = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > 2 * limit) req.socket.destroy();
  });
  req.once('end', () => res.end());
  req.resume();
};

/**
 * What Node's HTTP parser refuses before any handler (bytes outside ASCII in the target, a head
 * over its size limit, conflicting lengths) gets a problem too, not a bare status line.
 */
const answerClientError = (err: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable || (err as { code?: string }).code === 'ECONNRESET') return void socket.destroy();
  const problem = err.code === 'HPE_HEADER_OVERFLOW' ? headersTooLarge(maxHeaderSize) : unreadableRequest();
  // The parser failed, but the method is the first word of what arrived: a HEAD gets no body.
  const method = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ' ? 'HEAD' : undefined;
  const { status, headers, body } = renderProblem({ method, path: '/', requestId: randomUUID() }, problem);
  const head = Object.entries({ ...headers, Connection: 'close' }).map(([k, v]) => `${k}: ${v}`).join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
};

/** A `.` or `..` segment (also percent-encoded): offline would resolve it and answer another route. */
const hasDotSegment = (path: string) =>
  path.split('/').some((segment) => {
    try {
      const decoded = decodeURIComponent(segment);
      return decoded === '.' || decoded === '..';
    } catch {
      return false;
    }
  });

const hasBody = (req: IncomingMessage) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/**
 * An operation that takes no body gets none: the client's bytes are read into the void here,
 * for offline does not read them and closes the connection under a proxy still sending them.
 */
const withoutBody = (req: IncomingMessage) => {
  delete req.headers['content-length'];
  delete req.headers['transfer-encoding'];
  req.resume();
  return Readable.from([]);
};

/** Forwarding headers are ours to set: a client's own X-Forwarded-* never passes. */
const setForwarded = (req: IncomingMessage) => {
  for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-')) delete req.headers[name];
  req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
  req.headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) req.headers['x-forwarded-host'] = req.headers.host;
};

export interface FrontDoor {
  server: Server;
  /** Until called, every request gets a 503 "starting" problem without touching offline. */
  markReady(): void;
}

export const createFrontDoor = (opts: FrontDoorOptions): FrontDoor => {
  let ready = false;
  const maxBody = opts.maxBodyBytes ?? GATEWAY_MAX_BODY_BYTES;
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  // Answers are looked at before they are relayed: see translateMachineryAnswer.
  const proxy = createProxyServer({ agent, proxyTimeout: 60_000, selfHandleResponse: true });
  proxy.on('proxyRes', (proxyRes, req, res) => {
    if (isHandlerAnswer(proxyRes)) relay(proxyRes, res as ServerResponse);
    else translateMachineryAnswer(proxyRes, req as IncomingMessage, res as ServerResponse, opts.log, maxBody);
  });

  // Stream answers are read by the front door itself: a handler may name a file to send.
  const fileProxy = createProxyServer({ agent, proxyTimeout: 60_000, selfHandleResponse: true });
  const grants = new StreamGrants();
  const hits = memoryHitCounter();
  /**
   * Counts a request of a counted operation, as the handlers' middleware does in the table:
   * its headers go on whatever answer follows (set now, writeHead merges them); false when
   * the client is over the limit and has had its 429.
   */
  const admit = async (req: IncomingMessage, res: ServerResponse, op: OperationDef) => {
    const settings = opts.rateLimit;
    if (!settings || !op.counted || req.method === 'OPTIONS') return true;
    const state = await countHit(settings, req.socket.remoteAddress ?? 'unknown', hits);
    for (const [name, value] of Object.entries(rateLimitHeaders(settings, state))) res.setHeader(name, value);
    if (!state.limited) return true;
    sendProblem(req, res, rateLimited(state.resetSeconds));
    return false;
  };
  const mediaGone = (req: IncomingMessage, res: ServerResponse) => () => sendProblem(req, res, notFound(`Media ${pathOf(req).split('/').pop()}`));
  fileProxy.on('proxyRes', (proxyRes, req, res) => {
    if (!isHandlerAnswer(proxyRes)) return translateMachineryAnswer(proxyRes, req as IncomingMessage, res as ServerResponse, opts.log, maxBody);
    relayOrSendFile(proxyRes, req as IncomingMessage, res as ServerResponse, opts.log, grants, mediaGone(req as IncomingMessage, res as ServerResponse));
  });
  /** A stream request: from a live grant if there is one, else through the handler. */
  const stream = async (req: IncomingMessage, res: ServerResponse, buffer: Readable | undefined) => {
    const served = await grants
      .serve(req, res, (rq, rs, status, headers, bytes) => sendBytes(rs, status, headers, bytes, opts.log, mediaGone(rq, rs)))
      .catch(() => false);
    if (served) return;
    delete req.headers[FORWARDED_RANGE_HEADER];
    if (req.headers.range !== undefined) req.headers[FORWARDED_RANGE_HEADER] = req.headers.range;
    delete req.headers.range;
    fileProxy.web(req, res, { target: opts.httpTarget, ...(buffer ? { buffer } : {}) });
  };

  for (const p of [proxy, fileProxy]) {
    p.on('proxyReq', (proxyReq, req) => inFlight.set(req as IncomingMessage, proxyReq));
    p.on('error', (err, req, resOrSocket) => {
      if (refused.has(req as IncomingMessage)) return; // we cut it off ourselves and answered already
      opts.log.warn({ err, path: pathOf(req as IncomingMessage) }, 'front door could not reach the service');
      if (resOrSocket && 'writeHead' in resOrSocket) {
        sendProblem(req as IncomingMessage, resOrSocket as ServerResponse, dependencyUnavailable('API service', err));
      } else (resOrSocket as Duplex | undefined)?.destroy();
    });
  }

  const server = createServer(async (req, res) => {
    const path = pathOf(req);
    if (path === WS_PATH) {
      // A plain request on /ws is a client that forgot to upgrade.
      res.writeHead(426, { Upgrade: 'websocket', Connection: 'Upgrade', 'Content-Type': 'text/plain', 'X-Request-Id': randomUUID() });
      return void res.end('Upgrade to a WebSocket to use /ws\n');
    }
    const dotted = hasDotSegment(path);
    const web = opts.webDir && !dotted ? webFileOf(req.method ?? 'GET', path) : undefined;
    if (opts.webDir && web) {
      if (await sendWebFile(opts.webDir, web, req, res)) return;
      return sendProblem(req, res, web.kind === 'page' ? dependencyUnavailable('web client (not built: run npm run build:web)') : notFound(`The asset ${path}`));
    }
    const route = dotted ? ({ kind: 'none' } as const) : matchRoute(req.method ?? 'GET', path);
    if (route.kind === 'none') return sendProblem(req, res, routeNotFound(req.method ?? 'GET', path));
    if (!ready) return sendProblem(req, res, serviceStarting());
    // Counted before the body is looked at (it stays paused meanwhile); a limited client's body is read into the void.
    if (route.kind === 'found' && !(await admit(req, res, route.op))) return void req.resume();

    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > maxBody) return refuseBody(req, res, maxBody);
    if (req.headers['transfer-encoding']) {
      // A chunked body has no declared size: count it as it streams.
      let seen = 0;
      const count = (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > maxBody && !refused.has(req)) refuseBody(req, res, maxBody);
      };
      req.on('data', count);
    }
    setForwarded(req);
    const takesBody = route.kind === 'found' && route.op.body !== undefined;
    const buffer = !takesBody && hasBody(req) ? withoutBody(req) : undefined;
    if (route.kind === 'found' && (route.op.id === 'stream' || route.op.id === 'streamHead')) return void stream(req, res, buffer);
    proxy.web(req, res, { target: opts.httpTarget, ...(buffer ? { buffer } : {}) });
  });
  server.on('clientError', answerClientError);

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (pathOf(req) !== WS_PATH || !ready) {
      socket.end(`HTTP/1.1 ${ready ? '404 Not Found' : '503 Service Unavailable'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    setForwarded(req);
    proxy.ws(req, socket, head, { target: opts.wsTarget });
  });

  server.keepAliveTimeout = 65_000;
  return { server, markReady: () => void (ready = true) };
};
