// The front door's half of the internal redirect (lib/stream/send-file.ts): when a stream
// handler's answer names a file and a byte range, the front door strips that header and
// sends the bytes from disk itself, so video never passes through a Lambda response.
import { open } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parseSendFile, SEND_FILE_HEADER } from '../lib/stream/send-file';
import type { Log } from '../lib/log';
import type { StreamGrants } from './stream-grants';

const HEADER = SEND_FILE_HEADER.toLowerCase();
const READ_CHUNK = 1024 * 1024;

/** Sends bytes start..end of a file; a file gone since it was checked gets `onMissing`. */
export const sendBytes = (
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  bytes: { path: string; start: number; end: number },
  log: Log,
  onMissing: () => void,
) => {
  void open(bytes.path, 'r').then(
    (file) => {
      const stream = file.createReadStream({ start: bytes.start, end: bytes.end, highWaterMark: READ_CHUNK });
      res.writeHead(status, { ...headers, 'content-length': String(bytes.end - bytes.start + 1) });
      stream.pipe(res);
      stream.on('error', (err) => {
        log.warn({ err, path: bytes.path }, 'stream read failed');
        res.destroy();
      });
      // A client that seeks drops its connection: stop reading at once.
      res.on('close', () => stream.destroy());
    },
    () => onMissing(),
  );
};

export const relayOrSendFile = (
  proxyRes: IncomingMessage,
  req: IncomingMessage,
  res: ServerResponse,
  log: Log,
  grants: StreamGrants,
  onMissing: () => void,
) => {
  const named = proxyRes.headers[HEADER];
  const spec = typeof named === 'string' ? parseSendFile(named) : undefined;
  const headers: OutgoingHttpHeaders = { ...proxyRes.headers };
  delete headers[HEADER];
  const status = proxyRes.statusCode ?? 502;
  if (!spec) {
    res.writeHead(status, headers);
    proxyRes.pipe(res);
    return;
  }
  proxyRes.resume(); // the handler's body is empty
  delete headers['transfer-encoding'];
  grants.remember(req, spec, headers);
  const length = Math.max(0, spec.end - spec.start + 1);
  if (spec.head || req.method === 'HEAD' || length === 0) {
    res.writeHead(status, { ...headers, 'content-length': String(length) });
    res.end();
    return;
  }
  sendBytes(res, status, headers, spec, log, onMissing);
};
