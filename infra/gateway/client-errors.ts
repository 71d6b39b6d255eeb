// What Node's HTTP parser refuses before any route is looked at (bytes outside ASCII in the
// target, a head over its size limit, conflicting lengths) gets a problem too, not a bare
// status line: written straight to the socket, which then closes.
import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { headersTooLarge, unreadableRequest } from '../../lib/errors';
import { renderProblem } from './problems';

export const answerClientError = (err: NodeJS.ErrnoException, socket: Duplex) => {
  if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
  const problem = err.code === 'HPE_HEADER_OVERFLOW' ? headersTooLarge(maxHeaderSize) : unreadableRequest();
  // The parser failed, but the method is the first word of what arrived: a HEAD gets no body.
  const method = (err as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD ' ? 'HEAD' : undefined;
  const { status, headers, body } = renderProblem({ method, path: '/', requestId: randomUUID() }, problem);
  const head = Object.entries({ ...headers, Connection: 'close' })
    .map(([k, v]) => `${k}: ${v}`)
    .join('\r\n');
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n\r\n${body}`);
};
