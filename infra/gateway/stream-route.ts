// Stream requests at the front door, those of the operations marked `sendsFile` (streams,
// conversions' segments): from a live grant when there is one (stream-grants.ts, the range
// cache: further ranges of a URL the handler has answered, as S3 serves a presigned URL), else
// through the handler, whose answer may name a file and a range that the front door then
// sends from disk itself (send-file.ts, the internal redirect).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import { notFound } from '../../lib/errors';
import type { Log } from '../../lib/log';
import { FORWARDED_RANGE_HEADER } from '../../lib/stream/send-file';
import type { OfflineProxies } from './offline-proxy';
import { pathOf, sendProblem } from './problems';
import { relayOrSendFile, sendBytes } from './send-file';
import { StreamGrants } from './stream-grants';

/** The stream route: serves a request from a grant, or asks the handler. */
export const streamRoute = (proxies: OfflineProxies, log: Log) => {
  const grants = new StreamGrants();
  const mediaGone = (req: IncomingMessage, res: ServerResponse) => () =>
    sendProblem(req, res, notFound(`Media ${pathOf(req).split('/').pop()}`));
  const handler = proxies((proxyRes, req, res) => relayOrSendFile(proxyRes, req, res, log, grants, mediaGone(req, res)));

  return async (req: IncomingMessage, res: ServerResponse, body: Readable | undefined) => {
    const served = await grants
      .serve(req, res, (rq, rs, status, headers, bytes) => sendBytes(rs, status, headers, bytes, log, mediaGone(rq, rs)))
      .catch(() => false);
    if (served) return;
    // offline's HTTP server would apply a Range to a 200 answer itself: the handler gets it under a name of its own.
    delete req.headers[FORWARDED_RANGE_HEADER];
    if (req.headers.range !== undefined) req.headers[FORWARDED_RANGE_HEADER] = req.headers.range;
    delete req.headers.range;
    handler.web(req, res, body);
  };
};
