// The local stand-in for API Gateway (and for the CDN before the web client): one public port
// for REST, the WebSocket and the web client's files. Each policy is a module of its own,
// applied here in this order:
//   the web client's pages and assets ....... web-assets.ts
//   the route table (no dot segments) ....... path-checks.ts      else a 404 problem
//   the handlers not up yet ................. a 503 problem
//   the rate limit at the edge .............. edge-rate-limit.ts
//   the payload cap, bodies none is wanted .. body-size.ts, no-body.ts
//   forwarding headers ...................... forwarded-headers.ts
//   operations that send files .............. stream-route.ts     (stream-grants.ts, send-file.ts)
//   every other route, to the handlers ...... offline-proxy.ts    (offline-errors.ts)
//   /ws upgrades ............................ websocket.ts
//   what Node's parser refuses .............. client-errors.ts
// What it answers itself is the service's own problem (problems.ts): never offline's route
// list, never its Lambda invoke API.
import type { Duplex } from 'node:stream';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { internal, routeNotFound, serviceStarting } from '../../lib/errors';
import type { HitCounter, RateLimitSettings } from '../../lib/http/rate-limit';
import type { Log } from '../../lib/log';
import { capBody, GATEWAY_MAX_BODY_BYTES } from './body-size';
import { answerClientError } from './client-errors';
import { edgeRateLimit } from './edge-rate-limit';
import { setForwarded } from './forwarded-headers';
import { withoutUnwantedBody } from './no-body';
import { cancelUpstream, offlineProxies } from './offline-proxy';
import { hasDotSegment, routeOf } from './path-checks';
import { pathOf, sendProblem } from './problems';
import { streamRoute } from './stream-route';
import { serveWebClient } from './web-assets';
import { askToUpgrade, upgradeToWebSocket, WS_PATH } from './websocket';

export interface FrontDoorOptions {
  httpTarget: string;
  wsTarget: string;
  log: Log;
  maxBodyBytes?: number;
  /** Count requests here, per client address (the instance owns its database: nobody else counts). */
  rateLimit?: RateLimitSettings;
  /** Where they are counted, shared with the Jellyfin door's port. */
  rateLimitHits?: HitCounter;
  /** The built web client (web/dist), sent at its own addresses and /assets/*. */
  webDir?: string;
  /** Told of each operation the handlers answered, once answered (the folder monitor looks at libraries again after some). */
  onAnswer?: (operationId: string, status: number) => void;
}

export interface FrontDoor {
  server: Server;
  /** Until called, every request gets a 503 "starting" problem without touching offline. */
  markReady: () => void;
  /** Stops listening and ends every connection, WebSockets included. */
  close: () => Promise<void>;
}

export const createFrontDoor = (opts: FrontDoorOptions): FrontDoor => {
  let ready = false;
  const maxBodyBytes = opts.maxBodyBytes ?? GATEWAY_MAX_BODY_BYTES;
  const proxies = offlineProxies({ httpTarget: opts.httpTarget, wsTarget: opts.wsTarget, log: opts.log, maxBodyBytes });
  const handlers = proxies();
  const stream = streamRoute(proxies, opts.log);
  const admit = edgeRateLimit(opts.rateLimit, opts.rateLimitHits);

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const path = pathOf(req);
    if (path === WS_PATH) return askToUpgrade(res);
    if (opts.webDir && !hasDotSegment(path) && (await serveWebClient(opts.webDir, req, res, path))) return;
    const route = routeOf(method, path);
    if (route.kind === 'none') return sendProblem(req, res, routeNotFound(method, path));
    if (!ready) return sendProblem(req, res, serviceStarting());
    const op = route.kind === 'found' ? route.op : undefined;
    // Counted before the body is looked at (it stays paused meanwhile); a limited client's body is read into the void.
    if (op && !(await admit(req, res, op))) return void req.resume();
    if (!capBody(req, res, maxBodyBytes, cancelUpstream)) return;
    setForwarded(req);
    const body = withoutUnwantedBody(req, op);
    if (op?.sendsFile) return stream(req, res, body);
    const { onAnswer } = opts;
    // On close, not finish: a client gone before the end of the answer changed the library all the same.
    if (op && onAnswer) res.once('close', () => res.headersSent && onAnswer(op.id, res.statusCode));
    handlers.web(req, res, body);
  };
  // Node does not look at the listener's promise: a failure is answered (or the answer cut) here.
  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      opts.log.error({ err, method: req.method, path: pathOf(req) }, 'front door failed on a request');
      sendProblem(req, res, internal());
    });
  });
  server.on('clientError', answerClientError);
  const sockets = new Set<Duplex>();
  server.on(
    'upgrade',
    upgradeToWebSocket(() => ready, handlers, sockets),
  );
  server.keepAliveTimeout = 65_000;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
  return { server, markReady: () => void (ready = true), close };
};
