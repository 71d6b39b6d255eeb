// The front door's half of the internal redirect (lib/stream/send-file.ts): when a stream
// handler's answer names a file and a byte range, the front door strips that header and
// sends the bytes from disk itself, so video never passes through a Lambda response.
import { open } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parseSendFile, SEND_FILE_HEADER } from '../lib/stream/send-file';
import type { Log } from '../lib/log';

const HEADER = SEND_FILE_HEADER.toLowerCase();
const READ_CHUNK = 1024 * 1024;

export const relayOrSendFile = (proxyRes: IncomingMessage, req: IncomingMessage, res: ServerResponse, log: Log, onMissing: () => void) => {
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
  const length = Math.max(0, spec.end - spec.start + 1);
  headers['content-length'] = String(length);
  if (spec.head || req.method === 'HEAD' || length === 0) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  void open(spec.path, 'r').then(
    (file) => {
      const bytes = file.createReadStream({ start: spec.start, end: spec.end, highWaterMark: READ_CHUNK });
      res.writeHead(status, headers);
      bytes.pipe(res);
      bytes.on('error', (err) => {
        log.warn({ err, path: spec.path }, 'stream read failed');
        res.destroy();
      });
      // A client that seeks drops its connection: stop reading at once.
      res.on('close', () => bytes.destroy());
    },
    () => onMissing(), // gone since the handler looked: the same 404 it would have answered
  );
};
