// The WebSocket at /ws (and the Jellyfin door's at /socket), as API Gateway's WebSocket API: an upgrade there goes to offline's
// WebSocket port once the handlers are up (503 before, 404 on any other path), with the
// gateway's forwarding headers; a plain request on /ws is a client that forgot to upgrade.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { setForwarded } from './forwarded-headers';
import type { OfflineProxy } from './offline-proxy';
import { pathOf } from './problems';

export const WS_PATH = '/ws';

/** A 426 that says how to use /ws. */
export const askToUpgrade = (res: ServerResponse) => {
  res.writeHead(426, { Upgrade: 'websocket', Connection: 'Upgrade', 'Content-Type': 'text/plain', 'X-Request-Id': randomUUID() });
  res.end('Upgrade to a WebSocket to use /ws\n');
};

/**
 * The server's `upgrade` listener. An upgraded socket is no longer the server's to close
 * (closeAllConnections leaves it be, and server.close would wait for it): each open one is
 * kept in `open` so that a stop can end them.
 */
export const upgradeToWebSocket =
  (ready: () => boolean, proxy: OfflineProxy, open: Set<Duplex>, isSocketPath: (path: string) => boolean = (path) => path === WS_PATH) =>
  (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isSocketPath(pathOf(req)) || !ready()) {
      socket.end(`HTTP/1.1 ${ready() ? '404 Not Found' : '503 Service Unavailable'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    setForwarded(req);
    proxy.ws(req, socket, head);
  };
