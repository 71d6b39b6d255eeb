// `npm run package`: the runtime layer (infra/runtime-layer.ts), then the serverless
// framework's package for the cloud stage. Arguments after `--` go to the framework
// (`--package <dir>` writes the artifact elsewhere than .serverless/).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { buildRuntimeLayer } from './runtime-layer';
import { PROJECT_DIR } from './project';

buildRuntimeLayer();
const { status } = spawnSync(
  process.execPath,
  [join(PROJECT_DIR, 'node_modules/serverless/bin/serverless.js'), 'package', '--stage', 'prod', ...process.argv.slice(2)],
  { cwd: PROJECT_DIR, stdio: 'inherit' },
);
process.exit(status ?? 1);
