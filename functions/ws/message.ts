// $default: every client frame. {"type":"ping"} gets {"type":"pong"}; anything else an
// error frame saying why. Replies go through the management API, as in the cloud.
import { eventPublisher } from '../../lib/deps';
import { ws } from '../../lib/events/ws-stack';
import { replyTo } from '../../lib/events/client-messages';

export const handler = ws(async (event) => {
  await eventPublisher().send(event.requestContext.connectionId, replyTo(event.body));
  return { statusCode: 200 };
});
