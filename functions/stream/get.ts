// The stream domain: a movie's or episode's bytes, with ranges. The handler is the authority
// (it resolves the id and decides status and headers); where the runner's front door stands
// in front, it names the file and range and the front door sends the bytes.
import { open } from 'node:fs/promises';
import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { services } from '../../lib/deps';
import { http, type ParsedRequest } from '../../lib/http/stack';
import { raw } from '../../lib/http/reply';
import { answerStream } from '../../lib/stream/respond';
import { resolveStream } from '../../lib/stream/resolve';
import { FORWARDED_RANGE_HEADER, GRANT_SECONDS, SEND_FILE_HEADER, type SendFile } from '../../lib/stream/send-file';

/** Lambda's response limit is 6 MB after base64: 4 MiB of bytes per answer. */
const INLINE_MAX_BYTES = 4 * 1024 * 1024;

const readBytes = async (path: string, start: number, end: number) => {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, end - start + 1));
    let read = 0;
    while (read < buffer.length) {
      const { bytesRead } = await file.read(buffer, read, buffer.length - read, start + read);
      if (bytesRead === 0) break;
      read += bytesRead;
    }
    return buffer.subarray(0, read);
  } finally {
    await file.close();
  }
};

const serve = async (method: 'GET' | 'HEAD', req: ParsedRequest<typeof operations.stream> | ParsedRequest<typeof operations.streamHead>) => {
  const found = await resolveStream(services, req.params.mediaId, req.query.part ?? 1);
  if (found.object && services.storage.signedUrl) {
    // In a bucket: S3 serves the bytes, ranges and conditionals of a presigned URL itself.
    const url = await services.storage.signedUrl(found, { contentType: found.contentType, expiresInSeconds: config.s3.streamUrlSeconds });
    return raw(307, '', { Location: url, 'Cache-Control': 'private, no-store' });
  }
  if (!found.path) throw new Error(`media ${req.params.mediaId} is neither on disk nor in a bucket`);
  const target = { ...found, path: found.path };
  const h = req.event.headers ?? {};
  const range = h[FORWARDED_RANGE_HEADER] ?? h.range;
  const answer = answerStream(target, { method, range, ifRange: h['if-range'], ifNoneMatch: h['if-none-match'], ifModifiedSince: h['if-modified-since'] });
  if (!answer.bytes) return raw(answer.status, '', answer.headers);
  const { start, end } = answer.bytes;
  if (config.streamDelivery === 'front-door') {
    const spec: SendFile = { path: target.path, start, end, head: method === 'HEAD', grant: { target, seconds: GRANT_SECONDS } };
    return raw(answer.status, '', { ...answer.headers, [SEND_FILE_HEADER]: JSON.stringify(spec) });
  }
  if (method === 'HEAD') return raw(answer.status, '', answer.headers);
  // Alone (no front door): at most INLINE_MAX_BYTES per answer, as a 206 the player continues from.
  const last = Math.min(end, start + INLINE_MAX_BYTES - 1);
  const headers =
    last === end
      ? answer.headers
      : { ...answer.headers, 'Content-Range': `bytes ${start}-${last}/${target.size}`, 'Content-Length': String(last - start + 1) };
  return raw(last === end ? answer.status : 206, await readBytes(target.path, start, last), headers);
};

export const handler = http(operations.stream, (req) => serve('GET', req));
export const head = http(operations.streamHead, (req) => serve('HEAD', req));
