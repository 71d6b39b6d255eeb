// The artifact of `npm run package`, built once per test run (the package and the cloud-shaped
// run share it; the first test file to ask builds it, the others wait) with no AWS credentials
// in sight, and kept between runs by its inputs: the same sources, template, lock file and
// patches give the same artifact, so a run whose inputs are unchanged takes the kept one.
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_DIR } from '../../infra/project';
import { waitFor } from './instance';

const KEPT_DIR = join(PROJECT_DIR, 'node_modules/.cache/mls-test/package');
/** Artifacts kept: the current inputs' and the one before (a branch switched back and forth). */
const KEPT = 2;
/** What does not go into the artifact. */
const NOT_INPUTS = /^(test|docs|bench)\/|\.md$/;

/** A digest of every file the artifact is made from (git's list: tracked and new, not ignored); undefined outside a git checkout. */
const inputsKey = (): string | undefined => {
  let listed: string;
  try {
    listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
      cwd: PROJECT_DIR,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
  } catch {
    return undefined;
  }
  const hash = createHash('sha256');
  for (const file of [...new Set(listed.split('\0'))].filter((f) => f && !NOT_INPUTS.test(f)).sort()) {
    const path = join(PROJECT_DIR, file);
    if (!existsSync(path) || !statSync(path).isFile()) continue; // deleted in the work tree
    hash.update(`${file}\0`).update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex').slice(0, 16);
};

const keep = (built: string, key: string) => {
  mkdirSync(KEPT_DIR, { recursive: true });
  const target = join(KEPT_DIR, key);
  rmSync(target, { recursive: true, force: true });
  cpSync(built, target, { recursive: true });
  writeFileSync(join(target, '.done'), '');
  const older = readdirSync(KEPT_DIR)
    .filter((name) => name !== key)
    .map((name) => ({ name, at: statSync(join(KEPT_DIR, name)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { name } of older.slice(KEPT - 1)) rmSync(join(KEPT_DIR, name), { recursive: true, force: true });
};

const build = async (dir: string) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AWS_ACCESS_KEY_ID: '',
    AWS_SECRET_ACCESS_KEY: '',
    AWS_PROFILE: '',
    SLS_TELEMETRY_DISABLED: '1',
  };
  delete env.DYNAMODB_ENDPOINT;
  await promisify(execFile)(process.execPath, ['--import', 'tsx', join(PROJECT_DIR, 'infra/package.ts'), '--package', dir], {
    cwd: PROJECT_DIR,
    env,
    maxBuffer: 16 << 20,
  });
};

export const packaged = async (): Promise<string> => {
  const runDir = join(process.env.MLS_TEST_TMP ?? tmpdir(), 'package');
  const done = join(runDir, '.done');
  const failed = join(runDir, '.failed');
  const pointer = join(runDir, '.at');
  try {
    mkdirSync(runDir);
  } catch {
    await waitFor(
      'npm run package in another test file',
      async () => (existsSync(done) || existsSync(failed) ? true : undefined),
      300_000,
      250,
    );
    if (existsSync(failed)) throw new Error(readFileSync(failed, 'utf8'));
    return readFileSync(pointer, 'utf8');
  }
  const key = inputsKey();
  let at: string;
  try {
    if (key && existsSync(join(KEPT_DIR, key, '.done'))) at = join(KEPT_DIR, key);
    else {
      await build(join(runDir, 'out'));
      at = join(runDir, 'out');
      if (key) {
        keep(at, key);
        at = join(KEPT_DIR, key);
      }
    }
  } catch (err) {
    const { stdout, stderr } = err as { stdout?: string; stderr?: string };
    writeFileSync(failed, `npm run package failed: ${stderr ?? ''}${stdout ?? ''}${stderr === undefined ? String(err) : ''}`);
    throw err;
  }
  writeFileSync(pointer, at);
  writeFileSync(done, '');
  return at;
};
