import { connectionStore } from '../../lib/deps';
import { ws } from '../../lib/events/ws-stack';

export const handler = ws(async (event) => {
  await connectionStore.remove(event.requestContext.connectionId);
  return { statusCode: 200 };
});
