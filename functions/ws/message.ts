// $default: every client frame. {"type":"ping"} gets {"type":"pong"}; anything else an
// error frame saying why. A Jellyfin app's frame (it has a MessageType) gets the door's reply,
// KeepAlive to KeepAlive, or none. Replies go through the management API, as in the cloud.
import { eventPublisher } from '../../lib/deps';
import { ws } from '../../lib/events/ws-stack';
import { replyTo } from '../../lib/events/client-messages';
import { doorReplyTo } from '../../lib/jellyfin/socket';

const doorFrame = (body: string | undefined): unknown => {
  if (!body?.includes('MessageType')) return undefined;
  try {
    const frame: unknown = JSON.parse(body);
    return frame && typeof frame === 'object' && 'MessageType' in frame ? frame : undefined;
  } catch {
    return undefined;
  }
};

export const handler = ws(async (event) => {
  const frame = doorFrame(event.body);
  const reply = frame ? doorReplyTo(frame) : replyTo(event.body);
  if (reply) await eventPublisher().send(event.requestContext.connectionId, reply);
  return { statusCode: 200 };
});
