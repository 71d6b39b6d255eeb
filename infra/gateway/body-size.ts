// API Gateway's payload cap: a body over 10 MiB is refused with a 413 problem, whether its
// size is declared (refused before anything is read) or it comes chunked (counted as it
// streams, refused once past the limit).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { bodyTooLarge } from '../../lib/errors';
import { startProblem } from './problems';

export const GATEWAY_MAX_BODY_BYTES = 10 * 1024 * 1024;

const refused = new WeakSet<IncomingMessage>();

/** Whether the gateway refused this request's body (and answered it) itself. */
export const wasRefused = (req: IncomingMessage) => refused.has(req);

/**
 * Answers 413 at once but finishes the response only once the upload has been read into the
 * void: finishing earlier lets the server close a `Connection: close` socket under a client
 * that is still sending, which then sees a broken pipe instead of the answer. Past twice the
 * limit the connection is cut.
 */
const refuseBody = (req: IncomingMessage, res: ServerResponse, limit: number, cancelUpstream: (req: IncomingMessage) => void) => {
  refused.add(req);
  cancelUpstream(req);
  req.unpipe();
  if (res.headersSent) return void req.socket.destroy();
  startProblem(req, res, bodyTooLarge(limit));
  let drained = 0;
  req.removeAllListeners('data');
  req.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > 2 * limit) req.socket.destroy();
  });
  req.once('end', () => res.end());
  req.resume();
};

/**
 * Holds the request's body to `limit` bytes: false when it is refused at once (declared too
 * large); a chunked body is refused later, as it passes the limit, and `cancelUpstream` stops
 * what was already sent on.
 */
export const capBody = (
  req: IncomingMessage,
  res: ServerResponse,
  limit: number,
  cancelUpstream: (req: IncomingMessage) => void,
): boolean => {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    refuseBody(req, res, limit, cancelUpstream);
    return false;
  }
  if (req.headers['transfer-encoding']) {
    // A chunked body has no declared size: count it as it streams.
    let seen = 0;
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > limit && !refused.has(req)) refuseBody(req, res, limit, cancelUpstream);
    });
  }
  return true;
};
