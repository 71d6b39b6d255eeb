// The one place that says where MediaInfoLib's WebAssembly binary is (mediainfo.js loads it
// from disk when an instance is created).
//
// In a bundle (serverless-esbuild, for Lambda or serverless-offline) two things are needed:
// 1. Ship `MediaInfoModule.wasm` (node_modules/mediainfo.js/dist/, ~2.6 MB) beside the bundled
//    handler that probes, e.g. functions/scan/worker.cjs: a bundle is one .cjs file and carries
//    no node_modules, and the first place looked at below is the running module's folder.
// 2. Bundle with esbuild `conditions: ['node']`. Without custom conditions esbuild also honours
//    `module`, which mediainfo.js points at its browser build: that one fetches the wasm over
//    HTTP and cannot start in Node (probes then fail as `unavailable`; checked with esbuild 0.28).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MEDIAINFO_WASM_FILE = 'MediaInfoModule.wasm';

/** Where to look, in order: beside this module (or the bundle it is in), the package, the project's node_modules. */
const candidates = (): string[] => {
  const places = [fileURLToPath(new URL(MEDIAINFO_WASM_FILE, import.meta.url))];
  try {
    places.push(createRequire(import.meta.url).resolve(`mediainfo.js/${MEDIAINFO_WASM_FILE}`));
  } catch {
    // A bundle far from node_modules: the next place covers serverless-offline, run from the project.
  }
  places.push(join(process.cwd(), 'node_modules', 'mediainfo.js', 'dist', MEDIAINFO_WASM_FILE));
  return places;
};

/** The path of MediaInfoModule.wasm, or an error naming every place looked at. */
export const mediainfoWasmPath = (): string => {
  const places = candidates();
  const found = places.find((path) => existsSync(path));
  if (!found) throw new Error(`${MEDIAINFO_WASM_FILE} not found; looked at ${places.join(', ')}`);
  return found;
};
