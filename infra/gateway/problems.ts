// The gateway's own answers are problems too (RFC 9457), shaped as the handlers' stack shapes
// them (lib/http/problem.ts), with a request id, and headers only for a HEAD.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppError } from '../../lib/errors';
import { problemHeaders, toProblem } from '../../lib/http/problem';
import { requestIdFrom } from '../../lib/http/request-context';

export interface ProblemRequest {
  method: string | undefined;
  path: string;
  requestId: string;
}

/** The path of a request, without its query. */
export const pathOf = (req: IncomingMessage) => (req.url ?? '/').split('?')[0]!;

const requestOf = (req: IncomingMessage): ProblemRequest => ({
  method: req.method,
  path: pathOf(req),
  requestId: requestIdFrom(req.headers['x-request-id']),
});

/** A problem as the gateway answers it: status, headers and body. */
export const renderProblem = (request: ProblemRequest, err: AppError) => {
  const body = request.method === 'HEAD' ? '' : JSON.stringify(toProblem(err, request.path, request.requestId));
  return {
    status: err.status,
    headers: { ...problemHeaders(err), 'X-Request-Id': request.requestId, 'Content-Length': String(Buffer.byteLength(body)) },
    body,
  };
};

/** The problem as the whole answer to `req`; a response already under way is cut instead. */
export const sendProblem = (req: IncomingMessage, res: ServerResponse, err: AppError) => {
  if (res.headersSent) return void res.destroy();
  const { status, headers, body } = renderProblem(requestOf(req), err);
  res.writeHead(status, headers);
  res.end(body);
};

/** The problem's status and headers, its body written but the answer left open (the request is still being read). */
export const startProblem = (req: IncomingMessage, res: ServerResponse, err: AppError) => {
  const { status, headers, body } = renderProblem(requestOf(req), err);
  res.writeHead(status, headers);
  res.write(body);
};
