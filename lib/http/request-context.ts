// First in the stack: the request id (echo a sane incoming X-Request-Id, else a new one), a
// pino child bound to it, the caller's address, and one access-log line per request
// (4xx at info, 5xx at error with the cause).
import { randomUUID } from 'node:crypto';
import { rootLogger } from '../log';
import { clientAddress } from './client-address';
import { methodOf, pathOf, setHeader, type HttpMiddleware, type HttpRequest } from './context';

const VALID_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The client's X-Request-Id when it is a sane one, else a new id. */
export const requestIdFrom = (incoming: string | string[] | undefined) =>
  typeof incoming === 'string' && VALID_ID.test(incoming) ? incoming : randomUUID();

export const requestContext = (): HttpMiddleware => {
  const before = async (request: HttpRequest) => {
    const requestId = requestIdFrom(request.event.headers?.['x-request-id']);
    const ctx = request.context;
    ctx.requestId = requestId;
    ctx.startedAt = performance.now();
    ctx.clientAddress = clientAddress(request.event);
    ctx.log = rootLogger.child({ requestId });
  };

  const finish = async (request: HttpRequest) => {
    const { response, context: ctx, event } = request;
    if (!response) return;
    setHeader(response, 'X-Request-Id', ctx.requestId);
    const status = response.statusCode ?? 200;
    const line = {
      method: methodOf(event),
      path: pathOf(event),
      status,
      durationMs: Math.round((performance.now() - ctx.startedAt) * 10) / 10,
      client: ctx.clientAddress,
    };
    if (status >= 500) ctx.log.error({ ...line, err: request.error }, 'request failed');
    else ctx.log.info(line, 'request');
  };

  return { before, after: finish, onError: finish };
};
