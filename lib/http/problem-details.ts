// Last in the stack, so its onError runs first: it writes the problem+json response and
// leaves the error for nobody else. It does not return the response, so the middlewares
// before it (CORS, rate-limit headers, request id) still decorate error responses.
import { AppError } from '../errors';
import { pathOf, type HttpMiddleware } from './context';
import { problemHeaders, toProblem } from './problem';

export const problemDetails = (): HttpMiddleware => ({
  onError: async (request) => {
    const err = request.error;
    const { requestId } = request.context;
    const body = toProblem(err, pathOf(request.event), requestId ?? 'unknown');
    if (!(err instanceof AppError)) request.context.log?.error({ err }, 'unhandled error');
    request.response = {
      statusCode: body.status,
      headers: problemHeaders(err),
      body: request.event.requestContext?.http?.method === 'HEAD' ? '' : JSON.stringify(body),
    };
  },
});
