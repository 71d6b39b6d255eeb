// The catch-all route ($default): answers CORS preflight for every path, and for anything
// no function serves, the right problem: 404 unknown route, 405 wrong method, 501 planned.
import { matchRoute } from '../../lib/api/routes';
import { methodNotAllowed, notImplemented, routeNotFound } from '../../lib/errors';
import { methodOf, pathOf } from '../../lib/http/context';
import { rawHttp } from '../../lib/http/stack';

export const handler = rawHttp(async (event) => {
  const method = methodOf(event);
  const path = pathOf(event);
  if (method === 'OPTIONS') return { statusCode: 204, headers: {} };
  const match = matchRoute(method, path);
  if (match.kind === 'none') throw routeNotFound(method, path);
  if (match.kind === 'wrong-method') throw methodNotAllowed(method, path, match.allowed);
  throw notImplemented(`${match.op.method} ${match.op.path}`);
});
