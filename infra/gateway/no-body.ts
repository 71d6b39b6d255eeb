// An operation that takes no body gets none: the client's bytes are read into the void here,
// for offline does not read them and closes the connection under a proxy still sending them.
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { OperationDef } from '../../lib/api/operations';

const hasBody = (req: IncomingMessage) => Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;

/** The empty body to send on in place of the client's, or undefined when its body goes on as it is. */
export const withoutUnwantedBody = (req: IncomingMessage, op: OperationDef | undefined): Readable | undefined => {
  if (op?.body !== undefined || !hasBody(req)) return undefined;
  delete req.headers['content-length'];
  delete req.headers['transfer-encoding'];
  req.resume();
  return Readable.from([]);
};
