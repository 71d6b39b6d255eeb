// The service's bundles, built once per code version and kept under .build/<key>/: the
// handlers (functions/**, run by serverless-offline from there), the runner itself
// (infra/run.ts, started by infra/start.mjs) and serverless.yml's table of functions
// (infra/functions.ts, read by offline through infra/serverless-functions.cjs). At home every handler runs in one module graph,
// `handlers.cjs`, so each piece of lib/ state (the catalogue snapshot, watch state written
// behind its answer) exists once per process and every handler sees every write; each
// `functions/<domain>/<file>.cjs` is a two-line door into it, where offline looks for the
// function. A module's code runs the first time its function is invoked, as before. The key hashes what the bundles are made of
// (sources, lockfile, bundle options, Node's major version), so a start with unchanged code
// runs no bundler at all and no build tool stays in memory: serverless-esbuild under offline
// kept esbuild's incremental service (1.2-1.8 GiB) alive for the life of the service.
// Plain JavaScript, because it runs before anything can load TypeScript; `npm run package`
// bundles for the cloud with serverless-esbuild from the same options (infra/bundle.json).
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Builds kept besides the current one, for an instance still running older code. */
const KEEP = 3;

export const BUILD_ROOT = '.build';

const filesBelow = (dir) =>
  readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesBelow(join(dir, e.name)) : [join(dir, e.name)]))
    .sort();

/** The project's folder: the nearest one above this file (bundled or not) holding package.json. */
export const findProjectDir = (from = dirname(fileURLToPath(import.meta.url))) => {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no package.json above ${from}`);
  }
};

/** What the bundles depend on: the code they are made of, the dependencies' versions, the options, Node. */
export const buildKey = (projectDir) => {
  const hash = createHash('sha256');
  const inputs = [
    ...['functions', 'lib', 'infra'].flatMap((dir) => filesBelow(join(projectDir, dir))),
    // The front door imports the web client's route list.
    join(projectDir, 'web', 'src', 'routes.ts'),
    ...['package.json', 'package-lock.json', 'tsconfig.json'].map((f) => join(projectDir, f)),
  ];
  for (const file of inputs) hash.update(relative(projectDir, file)).update('\0').update(readFileSync(file)).update('\0');
  hash.update(process.versions.node.split('.')[0]);
  return hash.digest('hex').slice(0, 16);
};

/** The handler modules, as `functions/<domain>/<file>` (no extension). */
const handlerModules = (projectDir) =>
  filesBelow(join(projectDir, 'functions'))
    .filter((f) => f.endsWith('.ts'))
    .map((f) => relative(projectDir, f).replaceAll('\\', '/').replace(/\.ts$/, ''));

/**
 * The one graph's entry: each handler module behind a function that loads it on first use
 * (a `require` of an ES module makes esbuild initialise it lazily), so a start loads only what
 * its first requests need.
 */
const graphEntry = (modules) =>
  `module.exports = {\n${modules.map((m) => `  ${JSON.stringify(m)}: () => require(${JSON.stringify(`./${m}.ts`)}),`).join('\n')}\n};\n`;

/** Where offline finds a function: its module, taken from the one graph. */
const handlerDoor = (module) => {
  const up = '../'.repeat(module.split('/').length - 1);
  return `// ${module}.ts, from the one graph of every handler (infra/build.mjs).\nmodule.exports = require('./${up}handlers.cjs')[${JSON.stringify(module)}]();\n`;
};

/**
 * The bundles of the code as it is now, `{ dir, key, built, ms }`: reused when this version was
 * built before, else built (and esbuild stopped afterwards).
 */
export const ensureBuilt = async (projectDir = findProjectDir()) => {
  const started = performance.now();
  const key = buildKey(projectDir);
  const root = join(projectDir, BUILD_ROOT);
  const dir = join(root, key);
  const result = (built) => ({ dir, key, built, ms: performance.now() - started });
  if (existsSync(join(dir, '.complete'))) return result(false);

  mkdirSync(root, { recursive: true });
  const scratch = `${dir}.tmp-${process.pid}`;
  rmSync(scratch, { recursive: true, force: true });
  const options = JSON.parse(readFileSync(join(projectDir, 'infra', 'bundle.json'), 'utf8'));
  const esbuild = await import('esbuild');
  const shared = {
    bundle: options.bundle,
    platform: options.platform,
    format: options.format,
    target: options.target,
    minify: options.minify,
    sourcemap: options.sourcemap,
    outExtension: { '.js': options.outputFileExtension },
    // Native and WebAssembly modules stay plain requires, found in the project's node_modules;
    // esbuild itself is loaded only to build (the runner's own bundle never builds).
    external: [...options.exclude, 'esbuild'],
    banner: options.banner,
    define: options.define,
    logLevel: 'warning',
  };
  const modules = handlerModules(projectDir);
  try {
    await Promise.all([
      // The runner, and serverless.yml's functions for offline (infra/serverless-functions.cjs).
      esbuild.build({
        ...shared,
        entryPoints: ['run.ts', 'functions.ts'].map((f) => join(projectDir, 'infra', f)),
        outbase: projectDir,
        outdir: scratch,
      }),
      esbuild.build({
        ...shared,
        stdin: { contents: graphEntry(modules), resolveDir: projectDir, sourcefile: 'handlers.cjs', loader: 'js' },
        outfile: join(scratch, 'handlers.cjs'),
      }),
    ]);
    for (const module of modules) {
      mkdirSync(dirname(join(scratch, module)), { recursive: true });
      writeFileSync(join(scratch, `${module}${options.outputFileExtension}`), handlerDoor(module));
    }
  } finally {
    // esbuild keeps a service process for later builds: there are none.
    await esbuild.stop();
  }
  mkdirSync(join(scratch, '.complete'));
  try {
    renameSync(scratch, dir);
  } catch (err) {
    // Another instance built the same version meanwhile: theirs is as good.
    rmSync(scratch, { recursive: true, force: true });
    if (!existsSync(join(dir, '.complete'))) throw err;
  }
  pruneOldBuilds(root, key);
  return result(true);
};

const pruneOldBuilds = (root, current) => {
  const others = readdirSync(root)
    // java/: the database's launcher, compiled apart (infra/runner/dynamodb/local.ts).
    .filter((name) => name !== current && name !== 'java' && !name.includes('.tmp-'))
    .map((name) => ({ name, at: statSync(join(root, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const old of others.slice(KEEP)) rmSync(join(root, old.name), { recursive: true, force: true });
};
