// What serverless-offline answers by itself, before or instead of a handler (its HTTP server
// refusing a Content-Type, a method or a payload; a Lambda timeout or crash reported in its
// own JSON), reaches clients as the service's own problem+json, as every other error does.
// Every answer a handler gives carries X-Request-Id (the HTTP stack's first middleware sets
// it), so an answer without one is the machinery's.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { matchRoute } from '../../lib/api/routes';
import { isJsonContentType } from '../../lib/http/json-body';
import {
  bodyTooLarge,
  gatewayTimeout,
  internal,
  invalidRequest,
  methodNotAllowed,
  routeNotFound,
  unsupportedMediaType,
  type AppError,
} from '../../lib/errors';
import type { Log } from '../../lib/log';
import { pathOf, sendProblem } from './problems';

/** Enough of a machinery answer to tell what it was; the rest is drained. */
const MACHINERY_BODY_LIMIT = 16 * 1024;

export const isHandlerAnswer = (res: IncomingMessage) => typeof res.headers['x-request-id'] === 'string';

// RFC 9110 media type: type "/" subtype *( OWS ";" OWS parameter ).
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const MEDIA_TYPE = new RegExp(`^${TOKEN}/${TOKEN}(\\s*;\\s*${TOKEN}=(${TOKEN}|"(?:[^"\\\\]|\\\\.)*"))*\\s*$`);
/** No header is well formed too: only a header the HTTP layer could not read counts. */
const wellFormedMediaType = (value: string | undefined) => value === undefined || MEDIA_TYPE.test(value);

interface LambdaError {
  errorMessage?: unknown;
  errorType?: unknown;
}

const parse = (body: string): LambdaError | undefined => {
  try {
    const value = JSON.parse(body) as unknown;
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
};

/** The problem a client gets for the machinery's answer `status` + `body` to `req`. */
export const machineryProblem = (req: IncomingMessage, status: number, body: string, maxBodyBytes: number): AppError => {
  const lambda = parse(body);
  const message = typeof lambda?.errorMessage === 'string' ? lambda.errorMessage : '';
  const path = pathOf(req);
  const method = req.method ?? 'GET';
  if (status === 504 || lambda?.errorType === 'LambdaTimeoutError' || /\[504\]/.test(message)) return gatewayTimeout();
  if (lambda?.errorType !== undefined || lambda?.errorMessage !== undefined || status >= 500) return internal();
  if (status === 413) return bodyTooLarge(maxBodyBytes);
  const type = req.headers['content-type'];
  // A body the HTTP layer would not read, of a type the service would refuse anyway (415).
  if (status === 415 || (status === 400 && (!wellFormedMediaType(type) || (type !== undefined && !isJsonContentType(type))))) {
    return unsupportedMediaType(type ?? '', 'the Content-Type header cannot be read');
  }
  if (status === 404 || status === 405) {
    const route = matchRoute(method, path);
    if (route.kind === 'wrong-method') return methodNotAllowed(method, path, route.allowed);
    return routeNotFound(method, path);
  }
  return invalidRequest([{ field: 'request', message: 'could not be read by the HTTP layer (headers, method or payload)' }]);
};

/** The machinery's answer becomes the service's own problem; what it said goes to the log only. */
export const translateMachineryAnswer = (
  proxyRes: IncomingMessage,
  req: IncomingMessage,
  res: ServerResponse,
  log: Log,
  maxBodyBytes: number,
) => {
  const chunks: Buffer[] = [];
  let kept = 0;
  proxyRes.on('data', (chunk: Buffer) => {
    if (kept >= MACHINERY_BODY_LIMIT) return;
    chunks.push(chunk);
    kept += chunk.length;
  });
  proxyRes.once('end', () => {
    const body = Buffer.concat(chunks).toString('utf8').slice(0, MACHINERY_BODY_LIMIT);
    const problem = machineryProblem(req, proxyRes.statusCode ?? 502, body, maxBodyBytes);
    const level = problem.status >= 500 ? 'error' : 'info';
    log[level](
      { method: req.method, path: pathOf(req), upstreamStatus: proxyRes.statusCode, upstream: body.slice(0, 500), status: problem.status },
      'the HTTP layer answered without a handler',
    );
    sendProblem(req, res, problem);
  });
  proxyRes.once('error', () => sendProblem(req, res, machineryProblem(req, 502, '', maxBodyBytes)));
};
