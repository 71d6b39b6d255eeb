// The front door's half of the internal redirect (lib/stream/send-file.ts): when a stream
// handler's answer names a file and a byte range, the front door strips that header and
// sends the bytes from disk itself, so video never passes through a Lambda response.
import { open, type FileHandle } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { parseSendFile, SEND_FILE_HEADER } from '../../lib/stream/send-file';
import type { Log } from '../../lib/log';
import type { StreamGrants } from './stream-grants';

const HEADER = SEND_FILE_HEADER.toLowerCase();
const READ_CHUNK = 1024 * 1024;
/** Buffers kept for reuse: a few per concurrent reader. */
const POOL_MAX = 32;

// Chunks are read into reused buffers rather than fresh ones: a fresh megabyte per read makes
// V8 collect garbage for the external memory, and each collection walks this process's whole
// heap (measured: a third of the front door's CPU went to GC while streaming).
const pool: Buffer[] = [];
const takeBuffer = () => pool.pop() ?? Buffer.allocUnsafeSlow(READ_CHUNK);
const giveBack = (buffer: Buffer) => {
  if (pool.length < POOL_MAX) pool.push(buffer);
};

/** Resolves when the response can take more bytes or is gone. */
const writable = (res: ServerResponse) =>
  new Promise<void>((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });

type Chunk = { buffer: Buffer; length: number };

/**
 * Bytes start..end of an open file into the response, the next read overlapping the last
 * write. False when the file ended early or the client left.
 */
const pump = async (file: FileHandle, res: ServerResponse, start: number, end: number): Promise<boolean> => {
  const read = (at: number): Promise<Chunk> => {
    const buffer = takeBuffer();
    const chunk = file.read(buffer, 0, Math.min(READ_CHUNK, end - at + 1), at).then(({ bytesRead }) => ({ buffer, length: bytesRead }));
    // Awaited later: until then a failed read must not count as an unhandled rejection.
    chunk.catch(() => undefined);
    return chunk;
  };
  let at = start;
  let next: Promise<Chunk> | undefined = read(at);
  while (next) {
    const { buffer, length } = await next;
    if (length === 0 || res.destroyed) {
      giveBack(buffer);
      return false;
    }
    at += length;
    next = at <= end ? read(at) : undefined;
    // The buffer goes back to the pool once the socket has taken it.
    if (!res.write(buffer.subarray(0, length), () => giveBack(buffer))) await writable(res);
  }
  return true;
};

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
    async (file) => {
      res.writeHead(status, { ...headers, 'content-length': String(bytes.end - bytes.start + 1) });
      try {
        // A file that shrank since it was checked: the connection is cut, so the client sees a
        // short body for what it is rather than the start of the next response.
        if (await pump(file, res, bytes.start, bytes.end)) res.end();
        else res.destroy();
      } catch (err) {
        log.warn({ err, path: bytes.path }, 'stream read failed');
        res.destroy();
      } finally {
        await file.close().catch(() => undefined);
      }
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
