// serverless.yml names each HTTP function and its route again (YAML cannot import the operation
// registry): this keeps the two in step. Every built operation of lib/api/operations.ts has a
// function of the same name with its method and path, and serverless.yml routes nothing else
// but the catch-all. The file is read line by line in the one form it writes routes in; a route
// written in another form fails the test rather than slip past it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_DIR } from '../../../infra/project';
import { allOperations } from '../../../lib/api/operations';

interface DeclaredRoute {
  fn: string;
  route: string;
}

/** The HTTP routes of serverless.yml's `functions:` block, with the function each belongs to. */
const declaredRoutes = (yaml: string): DeclaredRoute[] => {
  const lines = yaml.split('\n');
  const start = lines.indexOf('functions:');
  assert.ok(start >= 0, 'serverless.yml has a top-level functions: block');
  const routes: DeclaredRoute[] = [];
  let fn: string | undefined;
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line) && !line.startsWith('#')) break; // the next top-level key
    const name = /^ {2}([A-Za-z][A-Za-z0-9]*):\s*$/.exec(line);
    if (name) fn = name[1];
    if (!line.includes('httpApi')) continue;
    const route = /^ {6}- httpApi: \{ method: ([A-Z]+), path: (?:'([^']+)'|([^\s'{}]+)) \}\s*$/.exec(line);
    const catchAll = /^ {6}- httpApi: '\*'\s*$/.test(line);
    assert.ok(fn && (route || catchAll), `a route this test can read, under a function: ${JSON.stringify(line)}`);
    routes.push({ fn, route: catchAll ? '*' : `${route![1]} ${route![2] ?? route![3]}` });
  }
  return routes;
};

describe('serverless.yml and the operation registry', () => {
  const declared = () => declaredRoutes(readFileSync(join(PROJECT_DIR, 'serverless.yml'), 'utf8'));

  it('routes each built operation to a function named by its id, with its method and path, and nothing else', () => {
    const fromYaml = declared().filter((d) => d.route !== '*').map((d) => `${d.fn}: ${d.route}`).sort();
    const fromRegistry = allOperations.filter((o) => o.implemented).map((o) => `${o.id}: ${o.method} ${o.path}`).sort();
    assert.deepEqual(fromYaml, fromRegistry);
  });

  it('sends every other request to one catch-all, which answers 404, 405 and 501 from the registry', () => {
    assert.deepEqual(declared().filter((d) => d.route === '*'), [{ fn: 'fallback', route: '*' }]);
  });
});
