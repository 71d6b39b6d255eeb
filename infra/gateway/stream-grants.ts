// Stream grants at the front door: after the stream handler has answered a URL (resolved the
// id, checked the file, decided the headers), the front door may answer further range
// requests for the same URL and origin itself for the grant's lifetime, as S3 serves a
// presigned URL without asking anyone. The file must keep the size and mtime the handler saw;
// anything unusual (another origin, a changed file, a range it would refuse) goes back to the
// handler, which stays the authority.
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { answerStream } from '../../lib/stream/respond';
import type { SendFile } from '../../lib/stream/send-file';
import type { LocalStreamTarget } from '../../lib/stream/resolve';
import { BoundedMap } from '../../lib/util/bounded-map';

const MAX_GRANTS = 1_000;
// Headers that belong to one response, not to the grant.
const PER_RESPONSE = [
  'content-length',
  'content-range',
  'x-request-id',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'ratelimit',
  'ratelimit-policy',
];

interface Grant {
  target: LocalStreamTarget;
  origin: string | undefined;
  headers: OutgoingHttpHeaders;
  expires: number;
}

type Send = (
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: OutgoingHttpHeaders,
  bytes: { path: string; start: number; end: number },
) => void;

export class StreamGrants {
  private readonly grants = new BoundedMap<string, Grant>({ maxSize: MAX_GRANTS });

  constructor(private readonly clock: () => number = Date.now) {}

  remember(req: IncomingMessage, spec: SendFile, headers: OutgoingHttpHeaders) {
    if (!spec.grant || !req.url) return;
    const kept: OutgoingHttpHeaders = { ...headers };
    for (const h of PER_RESPONSE) delete kept[h];
    this.grants.set(req.url, {
      target: spec.grant.target,
      origin: req.headers.origin,
      headers: kept,
      expires: this.clock() + spec.grant.seconds * 1000,
    });
  }

  /** Answers the request from a live grant; false when the handler must answer it. */
  async serve(req: IncomingMessage, res: ServerResponse, send: Send): Promise<boolean> {
    const grant = req.url ? this.grants.get(req.url) : undefined;
    if (!grant || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
    if (grant.expires <= this.clock() || grant.origin !== req.headers.origin) return false;
    const info = await stat(grant.target.path).catch(() => undefined);
    if (!info || info.size !== grant.target.size || info.mtimeMs !== grant.target.mtimeMs) {
      this.grants.delete(req.url!);
      return false;
    }
    const header = (name: string) => (typeof req.headers[name] === 'string' ? req.headers[name] : undefined);
    let answer;
    try {
      answer = answerStream(grant.target, {
        method: req.method,
        range: header('range'),
        ifRange: header('if-range'),
        ifNoneMatch: header('if-none-match'),
        ifModifiedSince: header('if-modified-since'),
      });
    } catch {
      return false; // a 416: the handler writes the problem
    }
    // Node would send a header twice if two keys differ only in case: everything lowercase.
    const decided = Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v]));
    const headers: OutgoingHttpHeaders = { ...grant.headers, ...decided, 'x-request-id': randomUUID() };
    if (!answer.bytes || req.method === 'HEAD') {
      res.writeHead(answer.status, headers);
      res.end();
      return true;
    }
    send(req, res, answer.status, headers, { path: grant.target.path, ...answer.bytes });
    return true;
  }
}
