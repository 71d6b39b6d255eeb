// The Lambda layer of what the bundles leave out (infra/bundle.json `exclude`): sharp with its
// native addon and libvips for the cloud's architecture, and mediainfo.js with its WebAssembly.
// Lambda puts a layer's `nodejs/node_modules` on NODE_PATH, where a bundle's plain
// `require('sharp')` finds it. The packages are copied from the project's node_modules, so
// the layer holds the very versions the tests ran; a platform build that npm did not install
// here (packaging on a Mac, say) is an error that says how to get it.
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PROJECT_DIR } from './project';

/** Lambda's x86_64 (see docs/cloud.md, "Why x86_64": the layer is loaded and run here before it ships). */
export const LAMBDA_TARGET = { os: 'linux', cpu: 'x64', libc: 'glibc' } as const;

export const LAYER_DIR = join(PROJECT_DIR, '.layer');
const MODULES = join(LAYER_DIR, 'nodejs', 'node_modules');

/** What the functions load at run time besides their bundle. */
const ROOTS = ['sharp', 'mediainfo.js'];

/** The native parts sharp must find for the target; without them it cannot load there. */
const REQUIRED = [`@img/sharp-${LAMBDA_TARGET.os}-${LAMBDA_TARGET.cpu}`, `@img/sharp-libvips-${LAMBDA_TARGET.os}-${LAMBDA_TARGET.cpu}`];

/** Parts of a package the functions never load: mediainfo.js's command line (yargs) and its browser builds. */
const TRIM: Record<string, { skipDependencies: string[]; files: string[] }> = {
  'mediainfo.js': { skipDependencies: ['yargs'], files: ['package.json', 'LICENSE.txt', 'dist/cjs', 'dist/MediaInfoModule.wasm'] },
};

interface Manifest {
  name: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  os?: string[];
  cpu?: string[];
  libc?: string[];
}

const readManifest = (dir: string) => JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;

/** Node's lookup from a package's folder: its own node_modules, then each one above, up to the project's. */
const locate = (name: string, from: string): string | undefined => {
  for (let dir = from; dir.startsWith(PROJECT_DIR); dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dir === PROJECT_DIR) break;
  }
  return undefined;
};

const fitsTarget = (m: Manifest) =>
  (!m.os || m.os.includes(LAMBDA_TARGET.os)) &&
  (!m.cpu || m.cpu.includes(LAMBDA_TARGET.cpu)) &&
  (!m.libc || m.libc.includes(LAMBDA_TARGET.libc));

/** Every package folder the roots need on the target: dependencies, and the optional ones built for it. */
export const layerPackages = (): string[] => {
  const found = new Map<string, string>();
  const visit = (name: string, from: string, optional: boolean) => {
    const dir = locate(name, from);
    if (!dir) {
      if (optional) return;
      throw new Error(`${name} is not installed: run npm install`);
    }
    if (found.has(dir)) return;
    const manifest = readManifest(dir);
    if (!fitsTarget(manifest)) return;
    found.set(dir, name);
    const skip = new Set(TRIM[name]?.skipDependencies);
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (!skip.has(dep)) visit(dep, dir, false);
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) visit(dep, dir, true);
  };
  for (const root of ROOTS) visit(root, PROJECT_DIR, false);
  const names = new Set(found.values());
  const missing = REQUIRED.filter((name) => !names.has(name));
  if (missing.length)
    throw new Error(
      `the layer needs ${missing.join(' and ')} (sharp for Lambda's ${LAMBDA_TARGET.os}-${LAMBDA_TARGET.cpu}), which npm did not install on this machine: ` +
        `run npm install --os=${LAMBDA_TARGET.os} --cpu=${LAMBDA_TARGET.cpu} --libc=${LAMBDA_TARGET.libc} sharp`,
    );
  return [...found.keys()].sort();
};

/** Writes the layer's folder afresh; returns it. */
export const buildRuntimeLayer = (): string => {
  rmSync(LAYER_DIR, { recursive: true, force: true });
  for (const dir of layerPackages()) {
    const target = join(MODULES, dir.slice(join(PROJECT_DIR, 'node_modules').length + 1));
    const files = TRIM[readManifest(dir).name]?.files;
    mkdirSync(target, { recursive: true });
    if (!files) cpSync(dir, target, { recursive: true, filter: (src) => !src.slice(dir.length).includes('/node_modules') });
    else for (const file of files) cpSync(join(dir, file), join(target, file), { recursive: true });
  }
  return LAYER_DIR;
};
