// The catch-all route ($default): answers CORS preflight for every path, and for anything
// no function serves, the right problem: 404 unknown route, 405 wrong method.
import { matchRoute } from '../../lib/api/routes';
import { methodNotAllowed, routeNotFound } from '../../lib/errors';
import { methodOf, pathOf } from '../../lib/http/context';
import { rawHttp } from '../../lib/http/stack';

export const handler = rawHttp(async (event) => {
  const method = methodOf(event);
  const path = pathOf(event);
  if (method === 'OPTIONS') return { statusCode: 204, headers: {} };
  const match = matchRoute(method, path);
  if (match.kind === 'none') throw routeNotFound(method, path);
  if (match.kind === 'wrong-method') throw methodNotAllowed(method, path, match.allowed);
  // Each operation has a function of its own (infra/functions.ts): one that lands here was
  // deployed without it, a fault of the deployment, answered as one (500).
  throw new Error(`${match.op.method} ${match.op.path} reached the catch-all: the function ${match.op.id} is missing`);
});
