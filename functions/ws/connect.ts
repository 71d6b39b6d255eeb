// $connect: the same origin rules as REST (a public page must not open a socket to the box;
// the box's own web client may), then the connection is stored for fan-out.
import { config } from '../../lib/config';
import { connectionStore } from '../../lib/deps';
import { ws } from '../../lib/events/ws-stack';
import { originAccepted } from '../../lib/http/origin';

export const handler = ws(async (event, { log }) => {
  const origin = event.headers?.origin ?? event.headers?.Origin;
  if (!originAccepted(event.headers, config.http)) {
    log.info({ origin }, 'websocket origin refused');
    return { statusCode: 403 };
  }
  await connectionStore.add({
    connectionId: event.requestContext.connectionId,
    connectedAt: new Date().toISOString(),
    client: (event.requestContext as { identity?: { sourceIp?: string } }).identity?.sourceIp ?? 'unknown',
  });
  return { statusCode: 200 };
});
