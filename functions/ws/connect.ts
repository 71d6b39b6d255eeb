// $connect: the same origin rules as REST (a public page must not open a socket to the box;
// the box's own web client may), then the connection is stored for fan-out. A socket of the
// Jellyfin door (/socket) comes with an app's token: it is stored as that profile's, gets the
// door's messages (lib/jellyfin/socket.ts), and an unknown token is refused.
import { config } from '../../lib/config';
import { connectionStore, doorStore, eventPublisher } from '../../lib/deps';
import { ws } from '../../lib/events/ws-stack';
import { originAccepted } from '../../lib/http/origin';
import { callerOf } from '../../lib/jellyfin/auth';
import { forceKeepAlive } from '../../lib/jellyfin/socket';
import type { Log } from '../../lib/log';

/**
 * The apps wait for ForceKeepAlive before they send their own keep-alives. A connection can be
 * written to only once $connect has answered: in a long-lived process the greeting follows a
 * moment later (a few tries); a Lambda is frozen once it answers, so there it is not sent.
 */
const greet = (connectionId: string, log: Log) => {
  let tries = 0;
  const attempt = () => {
    eventPublisher()
      .send(connectionId, forceKeepAlive())
      .then((sent) => {
        if (!sent && ++tries < 5) setTimeout(attempt, 200).unref();
      })
      .catch((err: unknown) => log.warn({ err }, 'could not greet a door socket'));
  };
  setTimeout(attempt, 50).unref();
};

export const handler = ws(async (event, { log }) => {
  const origin = event.headers?.origin ?? event.headers?.Origin;
  if (!originAccepted(event.headers, config.http)) {
    log.info({ origin }, 'websocket origin refused');
    return { statusCode: 403 };
  }
  const headers = Object.fromEntries(Object.entries(event.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
  const query = new Map(Object.entries(event.queryStringParameters ?? {}).map(([k, v]) => [k.toLowerCase(), v ?? '']));
  const { token } = callerOf(headers, query);
  const session = token ? await doorStore.session(token) : undefined;
  if (token && !session) return { statusCode: 401 };
  const connectionId = event.requestContext.connectionId;
  await connectionStore.add({
    connectionId,
    connectedAt: new Date().toISOString(),
    client: (event.requestContext as { identity?: { sourceIp?: string } }).identity?.sourceIp ?? 'unknown',
    ...(session ? { door: { profileId: session.profileId } } : {}),
  });
  if (session && config.hosting === 'shared-process') greet(connectionId, log);
  return { statusCode: 200 };
});
