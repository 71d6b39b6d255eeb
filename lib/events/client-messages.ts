import type { ServerEvent } from '../api/schemas';

const MAX_FRAME = 32 * 1024;
const error = (code: string, message: string): ServerEvent => ({ type: 'error', error: { code, message } });

/** The reply to one client frame: pong for ping, an error frame for anything else. */
export const replyTo = (body: string | undefined): ServerEvent => {
  if (!body || body.length > MAX_FRAME) return error('invalid-message', 'Send a JSON object with a "type" (at most 32 KiB)');
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return error('invalid-message', 'The message is not valid JSON');
  }
  const type = (message as { type?: unknown } | null)?.type;
  if (type === 'ping') return { type: 'pong' };
  return error('unknown-message', typeof type === 'string' ? `Unknown message type "${type.slice(0, 64)}"` : 'The message has no "type"');
};
