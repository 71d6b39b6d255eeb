// The project's folder (the one holding package.json), found from this file's place, also when
// it runs bundled under .build/<key>/. Tools, the runner and the tests resolve paths from it.
import { findProjectDir } from './build.mjs';

export const PROJECT_DIR = findProjectDir();
