// The way to the handlers: serverless-offline's HTTP port for requests, its WebSocket port for
// upgrades, over one pool of kept-alive connections. Every answer is looked at before it is
// relayed: a handler's goes to the route's own relay, the machinery's own (no handler ran, or
// its Lambda timed out or crashed) becomes the service's problem (offline-errors.ts), and an
// offline that cannot be reached is a 503.
import { Agent, type ClientRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex, Readable } from 'node:stream';
import { createProxyServer } from 'http-proxy-3';
import { dependencyUnavailable } from '../../lib/errors';
import type { Log } from '../../lib/log';
import { wasRefused } from './body-size';
import { isHandlerAnswer, translateMachineryAnswer } from './offline-errors';
import { pathOf, sendProblem } from './problems';

export interface OfflineTargets {
  httpTarget: string;
  wsTarget: string;
  log: Log;
  /** The body cap, for the problem that replaces offline's own 413. */
  maxBodyBytes: number;
}

/** What a route does with a handler's answer. */
export type HandlerAnswer = (proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse) => void;

/** A route's way to the handlers. */
export interface OfflineProxy {
  web(req: IncomingMessage, res: ServerResponse, body?: Readable): void;
  ws(req: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Relays a handler's answer as it is. */
export const relay: HandlerAnswer = (proxyRes, _req, res) => {
  res.writeHead(proxyRes.statusCode ?? 502, proxyRes.headers);
  proxyRes.pipe(res);
};

const inFlight = new WeakMap<IncomingMessage, ClientRequest>();

/** Stops what was already sent on for `req` (its client has been answered meanwhile). */
export const cancelUpstream = (req: IncomingMessage) => inFlight.get(req)?.destroy();

/** Makes a proxy to offline per route, all sharing one connection pool; `answer` handles the handlers' answers. */
export type OfflineProxies = (answer?: HandlerAnswer) => OfflineProxy;

export const offlineProxies = (targets: OfflineTargets): OfflineProxies => {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  return (answer: HandlerAnswer = relay): OfflineProxy => {
    const proxy = createProxyServer({ agent, proxyTimeout: 60_000, selfHandleResponse: true });
    proxy.on('proxyRes', (proxyRes, req, res) => {
      if (isHandlerAnswer(proxyRes)) answer(proxyRes, req, res);
      else translateMachineryAnswer(proxyRes, req, res, targets.log, targets.maxBodyBytes);
    });
    proxy.on('proxyReq', (proxyReq, req) => inFlight.set(req, proxyReq));
    proxy.on('error', (err, req, resOrSocket) => {
      if (wasRefused(req)) return; // cut off by the gateway, which answered already
      targets.log.warn({ err, path: pathOf(req) }, 'front door could not reach the service');
      if (resOrSocket && 'writeHead' in resOrSocket) {
        sendProblem(req, resOrSocket, dependencyUnavailable('API service', err));
      } else (resOrSocket as Duplex | undefined)?.destroy();
    });
    return {
      web: (req, res, body) => proxy.web(req, res, { target: targets.httpTarget, ...(body ? { buffer: body } : {}) }),
      ws: (req, socket, head) => proxy.ws(req, socket, head, { target: targets.wsTarget }),
    };
  };
};
