// `npm start` begins here: the runner's bundle for the code as it is now (built once per code
// version, infra/build.mjs) runs in this very process, so the service carries no TypeScript
// loader and no build tool. `npm run dev` and the tests run infra/run.ts through tsx instead.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt } from './build.mjs';

const build = await ensureBuilt();
await import(pathToFileURL(join(build.dir, 'infra', 'run.cjs')).href);
