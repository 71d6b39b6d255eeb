// The Jellyfin door's port (JELLYFIN_PORT, docs/jellyfin.md): the apps connect here as they
// connect to a Jellyfin server. Like the front door it answers nothing itself but what no
// handler may: the route found case-insensitively (lib/jellyfin/routes.ts, the `/emby` prefix
// dropped) and sent to its area's function at `/jellyfin/<area>/<path>` on the same
// serverless-offline, a 404 for a path the door does not know, 503 while the handlers start,
// the body cap, the forwarding headers. With JELLYFIN_WEB_DIR, the owner's build of Jellyfin's
// web client is served at /web (and / leads there).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { countHit, type HitCounter, type RateLimitSettings } from '../../lib/http/rate-limit';
import { callerOf } from '../../lib/jellyfin/auth';
import { doorPath, matchDoorRoute } from '../../lib/jellyfin/routes';
import type { Log } from '../../lib/log';
import { capBody, GATEWAY_MAX_BODY_BYTES } from './body-size';
import { countAtEdge } from './edge-rate-limit';
import { answerClientError } from './client-errors';
import { setForwarded } from './forwarded-headers';
import { cancelUpstream, offlineProxies } from './offline-proxy';
import { hasDotSegment } from './path-checks';
import { pathOf } from './problems';
import { serveJellyfinWeb } from './jellyfin-web';
import { streamRoute } from './stream-route';
import { upgradeToWebSocket } from './websocket';

export interface JellyfinDoorOptions {
  httpTarget: string;
  wsTarget: string;
  log: Log;
  /** A build of Jellyfin's web client, served at /web. */
  webDir?: string | undefined;
  /** Counted here when the front door counts (the same counter): requests without a token, and those whose token was refused. */
  rateLimit?: { settings: RateLimitSettings; hits: HitCounter } | undefined;
}

export interface JellyfinDoor {
  server: Server;
  markReady: () => void;
  close: () => Promise<void>;
}

const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(text);
};

/**
 * A logged-in device is the household's: a request with a token is not counted, unless the
 * handler refuses the token (401), which then counts after the fact, so made-up tokens do not
 * slip past the limit. Requests without one count as on the API's port.
 */
const doorRateLimit =
  (limit: JellyfinDoorOptions['rateLimit']) =>
  async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    if (!limit || req.method === 'OPTIONS') return true;
    const query = new URLSearchParams((req.url ?? '').split('?')[1] ?? '');
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    const keys = new Map([...query].map(([k, v]) => [k.toLowerCase(), v]));
    if (callerOf(headers, keys).token) {
      res.once('finish', () => {
        if (res.statusCode === 401) void countHit(limit.settings, req.socket.remoteAddress ?? 'unknown', limit.hits).catch(() => undefined);
      });
      return true;
    }
    const wait = await countAtEdge(limit.settings, limit.hits, req, res);
    if (wait === undefined) return true;
    answer(res, 429, 'Too many requests', { 'Retry-After': String(wait) });
    return false;
  };

export const createJellyfinDoor = (opts: JellyfinDoorOptions): JellyfinDoor => {
  let ready = false;
  const admit = doorRateLimit(opts.rateLimit);
  const proxies = offlineProxies({
    httpTarget: opts.httpTarget,
    wsTarget: opts.wsTarget,
    log: opts.log,
    maxBodyBytes: GATEWAY_MAX_BODY_BYTES,
  });
  const handlers = proxies();
  // A file's bytes and a conversion's segments leave from disk here, as on the API's port.
  const stream = streamRoute(proxies, opts.log);

  const route = async (req: IncomingMessage, res: ServerResponse) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = pathOf(req);
    const path = doorPath(raw);
    // The path as sent: the routes' form drops the trailing slash, which `/web/` needs.
    if (opts.webDir && (await serveJellyfinWeb(opts.webDir, req, res, raw))) return;
    if (hasDotSegment(raw)) return answer(res, 404, 'Not found');
    if (method === 'OPTIONS') {
      res.writeHead(204, { Allow: 'GET, HEAD, POST, DELETE, OPTIONS' });
      return void res.end();
    }
    const match = matchDoorRoute(method, path);
    if (match.kind === 'none') return answer(res, 404, 'Not found');
    if (match.kind === 'wrong-method') return answer(res, 405, 'Method not allowed', { Allow: match.allowed.join(', ') });
    if (!ready) return answer(res, 503, 'The server is starting', { 'Retry-After': '2' });
    // Playing is not counted: the apps fetch bytes, playlists and subtitles without a token.
    if (match.route.area !== 'playback' && !(await admit(req, res))) return void req.resume();
    if (!capBody(req, res, GATEWAY_MAX_BODY_BYTES, cancelUpstream)) return;
    setForwarded(req);
    const query = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
    req.url = `/jellyfin/${match.route.area}${path}${query}`;
    if (match.route.sendsFile) return stream(req, res, undefined);
    handlers.web(req, res);
  };

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      opts.log.error({ err, method: req.method, path: pathOf(req) }, 'the Jellyfin door failed on a request');
      if (!res.headersSent) answer(res, 500, 'The server could not answer');
      else res.destroy();
    });
  });
  server.on('clientError', answerClientError);
  const sockets = new Set<Duplex>();
  // The apps' socket (/socket, any case, the prefixes dropped): the same WebSocket route table as /ws.
  server.on(
    'upgrade',
    upgradeToWebSocket(
      () => ready,
      handlers,
      sockets,
      (path) => doorPath(path).toLowerCase() === '/socket',
    ),
  );
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 65_000;
  return {
    server,
    markReady: () => void (ready = true),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
      }),
  };
};
