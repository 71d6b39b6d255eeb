// The artifact of `npm run package`, built once per test run (the package and the cloud-shaped
// run share it; the first test file to ask builds it, the others wait) under the run's
// temporary folder, with no AWS credentials in sight.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_DIR } from '../../infra/project';
import { waitFor } from './instance';

export const packaged = async (): Promise<string> => {
  const dir = join(process.env.MLS_TEST_TMP ?? tmpdir(), 'package');
  const done = join(dir, '.done');
  const failed = join(dir, '.failed');
  try {
    mkdirSync(dir);
  } catch {
    await waitFor('npm run package in another test file', async () => (existsSync(done) || existsSync(failed) ? true : undefined), 300_000, 250);
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    return dir;
  }
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_ACCESS_KEY_ID: '', AWS_SECRET_ACCESS_KEY: '', AWS_PROFILE: '', SLS_TELEMETRY_DISABLED: '1' };
  delete env.DYNAMODB_ENDPOINT;
  try {
    await promisify(execFile)(process.execPath, ['--import', 'tsx', join(PROJECT_DIR, 'infra/package.ts'), '--package', dir], { cwd: PROJECT_DIR, env, maxBuffer: 16 << 20 });
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    writeFileSync(failed, `npm run package failed: ${stderr ?? ''}${stdout ?? ''}`);
    throw err;
  }
  writeFileSync(done, '');
  return dir;
};
