// Types of infra/build.mjs (plain JavaScript, so that `npm start` needs no TypeScript loader).
export interface Build {
  /** Where the bundles are: `functions/<domain>/<file>.cjs`, `infra/run.cjs` and `infra/functions.cjs` below it. */
  dir: string;
  key: string;
  /** False when this code version's bundles were there already. */
  built: boolean;
  ms: number;
}
export const BUILD_ROOT: string;
export const findProjectDir: (from?: string) => string;
export const buildKey: (projectDir: string) => string;
export const ensureBuilt: (projectDir?: string) => Promise<Build>;
