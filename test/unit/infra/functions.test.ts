// serverless.yml's functions come from the operation registry (infra/functions.ts, through
// infra/serverless-functions.cjs): every operation is a function of its own with its route,
// nothing else is routed but the catch-all, and every function's handler is an export of a
// module under functions/, where infra/build.mjs and the packager look for it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildSync } from 'esbuild';
import { serverlessFunctions, type ServerlessFunction } from '../../../infra/functions';
import { PROJECT_DIR } from '../../../infra/project';
import { DOOR_AREAS } from '../../../lib/jellyfin/routes';
import { allOperations } from '../../../lib/api/operations';

const cloud = serverlessFunctions('prod');
const home = serverlessFunctions('local');

const httpRoutes = (fn: ServerlessFunction) =>
  (fn.events ?? []).flatMap((e) => ('httpApi' in e ? [e.httpApi === '*' ? '*' : `${e.httpApi.method} ${e.httpApi.path}`] : []));

/** The names a module exports, as esbuild reads them from its source. */
const exportsOf = (modules: string[]) => {
  const { metafile } = buildSync({
    entryPoints: modules.map((m) => join(PROJECT_DIR, `${m}.ts`)),
    absWorkingDir: PROJECT_DIR,
    bundle: false,
    format: 'esm',
    platform: 'node',
    write: false,
    metafile: true,
    outdir: 'out',
    logLevel: 'silent',
  });
  return new Map(Object.values(metafile.outputs).map((o) => [o.entryPoint!.replace(/\.ts$/, ''), o.exports]));
};

describe("serverless.yml's functions", () => {
  it('are the ones infra/functions.ts computes: serverless.yml writes none by hand', () => {
    const yaml = readFileSync(join(PROJECT_DIR, 'serverless.yml'), 'utf8');
    assert.match(yaml, /^functions: \$\{file\(\.\/infra\/serverless-functions\.cjs\)\}$/m);
  });

  it('reach serverless through the bridge as infra/functions.ts computes them, for each stage', async () => {
    const bridge = createRequire(import.meta.url)(join(PROJECT_DIR, 'infra', 'serverless-functions.cjs')) as (sls: {
      resolveVariable: (name: string) => Promise<string>;
    }) => Promise<unknown>;
    const asked: string[] = [];
    const resolved = (stage: string) => bridge({ resolveVariable: async (name) => (asked.push(name), stage) });
    assert.deepEqual(await resolved('prod'), cloud);
    assert.deepEqual(await resolved('local'), home);
    assert.deepEqual(asked, ['sls:stage', 'sls:stage']);
  });

  it('give each operation of the registry a function named by its id, with its handler, method and path', () => {
    for (const op of allOperations) {
      const fn = cloud[op.id];
      assert.ok(fn, `no function for the operation ${op.id}`);
      assert.equal(fn.handler, op.handler, op.id);
      assert.deepEqual(httpRoutes(fn), [`${op.method} ${op.path}`], op.id);
    }
  });

  it('route nothing else over HTTP but one catch-all, which answers 404 and 405 from the registry, and the Jellyfin door by area', () => {
    const operationIds = new Set(allOperations.map((o) => o.id));
    const others = Object.entries(cloud).filter(([name, fn]) => !operationIds.has(name) && httpRoutes(fn).length);
    assert.deepEqual(
      others.map(([name, fn]) => [name, httpRoutes(fn)]),
      [
        ...DOOR_AREAS.map((area) => [`jellyfin${area[0]!.toUpperCase()}${area.slice(1)}`, [`* /jellyfin/${area}/{proxy+}`]]),
        ['fallback', ['*']],
      ],
    );
  });

  it('point at handlers that exist: an export of a module under functions/', () => {
    const all = { ...home, ...cloud };
    const modules = [...new Set(Object.values(all).map((fn) => fn.handler.slice(0, fn.handler.lastIndexOf('.'))))];
    for (const module of modules)
      assert.ok(module.startsWith('functions/') && existsSync(join(PROJECT_DIR, `${module}.ts`)), `no handler file ${module}.ts`);
    const exported = exportsOf(modules);
    for (const [name, fn] of Object.entries(all)) {
      const dot = fn.handler.lastIndexOf('.');
      assert.ok(exported.get(fn.handler.slice(0, dot))?.includes(fn.handler.slice(dot + 1)), `${name}: ${fn.handler} is not exported`);
    }
  });

  it('schedule the library upkeep in the cloud only: at home the runner invokes it', () => {
    assert.deepEqual(cloud.libraryUpkeep?.events, [{ schedule: 'rate(15 minutes)' }]);
    assert.deepEqual(home.libraryUpkeep?.events, []);
  });
});
