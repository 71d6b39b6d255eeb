// How a stream's bytes leave once the file is found (resolve.ts), whichever storage holds it and
// whoever stands in front. Storage that serves bytes itself gets a redirect to a short-lived URL
// (S3's presigned GET answers ranges and conditionals). Otherwise the range rules (respond.ts)
// decide the answer, and its bytes go either through the gateway in front, named in the internal
// redirect (send-file.ts: the runner's front door sends them from disk), or in the function's own
// response, read through the storage port, at most 4 MiB of them.
import type { StreamDelivery } from '../runtime';
import type { MediaStorage } from '../storage';
import type { StreamTarget } from './resolve';
import { answerStream, type StreamAnswer, type StreamRequest } from './respond';
import { FORWARDED_RANGE_HEADER, GRANT_SECONDS, SEND_FILE_HEADER, type SendFile } from './send-file';

export interface DeliveryOptions {
  /** How bytes the service sends leave (lib/runtime.ts): in the response, or through the gateway. */
  delivery: StreamDelivery;
  /** How long a presigned URL lives. */
  urlSeconds: number;
  /**
   * Whether the front door may serve later ranges of the URL alone (a grant); off where every
   * request must reach the handler (a conversion's segment keeps its session alive).
   */
  grants?: boolean;
}

/** What the handler answers: status, headers and the body (bytes, or empty). */
export interface StreamReply {
  status: number;
  headers: Record<string, string>;
  body: string | Buffer;
}

/** Lambda's response limit is 6 MB after base64: 4 MiB of bytes per answer. */
export const INLINE_MAX_BYTES = 4 * 1024 * 1024;

/** What of a request decides its answer. The gateway hands the client's Range over under its own name. */
export const streamRequestOf = (method: 'GET' | 'HEAD', headers: Record<string, string | undefined>): StreamRequest => ({
  method,
  range: headers[FORWARDED_RANGE_HEADER] ?? headers.range,
  ifRange: headers['if-range'],
  ifNoneMatch: headers['if-none-match'],
  ifModifiedSince: headers['if-modified-since'],
});

/** The storage serves the bytes, ranges and conditionals of a presigned URL itself. */
const presignedRedirect = async (storage: MediaStorage, target: StreamTarget, urlSeconds: number): Promise<StreamReply | undefined> => {
  if (!target.object || !storage.signedUrl) return undefined;
  const url = await storage.signedUrl(target, { contentType: target.contentType, expiresInSeconds: urlSeconds });
  return { status: 307, headers: { Location: url, 'Cache-Control': 'private, no-store' }, body: '' };
};

/** The gateway in front sends the range from the file on disk, and may serve later ranges of the URL on this grant. */
const internalRedirect = (
  target: StreamTarget & { path: string },
  answer: StreamAnswer,
  bytes: { start: number; end: number },
  method: 'GET' | 'HEAD',
  grant: boolean,
): StreamReply => {
  const spec: SendFile = {
    path: target.path,
    ...bytes,
    head: method === 'HEAD',
    ...(grant ? { grant: { target, seconds: GRANT_SECONDS } } : {}),
  };
  return { status: answer.status, headers: { ...answer.headers, [SEND_FILE_HEADER]: JSON.stringify(spec) }, body: '' };
};

/** The bytes in the response, read through the storage: past INLINE_MAX_BYTES, a 206 the player continues from. */
const inline = async (
  storage: MediaStorage,
  target: StreamTarget,
  answer: StreamAnswer,
  { start, end }: { start: number; end: number },
): Promise<StreamReply> => {
  const last = Math.min(end, start + INLINE_MAX_BYTES - 1);
  const body = await storage.readRange(target, start, last);
  if (last === end) return { status: answer.status, headers: answer.headers, body };
  const headers = {
    ...answer.headers,
    'Content-Range': `bytes ${start}-${last}/${target.size}`,
    'Content-Length': String(last - start + 1),
  };
  return { status: 206, headers, body };
};

export const deliverStream = async (
  storage: MediaStorage,
  target: StreamTarget,
  request: StreamRequest,
  options: DeliveryOptions,
): Promise<StreamReply> => {
  const redirect = await presignedRedirect(storage, target, options.urlSeconds);
  if (redirect) return redirect;
  const answer = answerStream(target, request);
  if (!answer.bytes) return { status: answer.status, headers: answer.headers, body: '' };
  if (options.delivery === 'front-door' && target.path)
    return internalRedirect({ ...target, path: target.path }, answer, answer.bytes, request.method, options.grants ?? true);
  if (request.method === 'HEAD') return { status: answer.status, headers: answer.headers, body: '' };
  return inline(storage, target, answer, answer.bytes);
};
