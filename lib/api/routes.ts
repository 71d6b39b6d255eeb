// Which operation of the contract a request is (for the catch-all route and the front door): the
// method and path matched against every definition, a literal segment before a parameter.
import type { HttpMethod, OperationDef } from './operation-def';
import { allOperations } from './operations';

const compiled = allOperations.map((o) => ({
  op: o,
  regex: new RegExp(`^${o.path.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

export type RouteMatch = { kind: 'found'; op: OperationDef } | { kind: 'wrong-method'; allowed: HttpMethod[] } | { kind: 'none' };

export const matchRoute = (method: string, path: string): RouteMatch => {
  const onPath = compiled.filter((c) => c.regex.test(path)).map((c) => c.op);
  if (!onPath.length) return { kind: 'none' };
  // A literal segment beats a parameter: /api/v1/library/stats is not library {libraryId}.
  const exact = onPath.filter((o) => o.path === path);
  const candidates = exact.length ? exact : onPath;
  const wanted = method.toUpperCase();
  const found = candidates.find((o) => o.method === wanted);
  if (found) return { kind: 'found', op: found };
  return { kind: 'wrong-method', allowed: [...new Set(candidates.map((o) => o.method))] };
};
