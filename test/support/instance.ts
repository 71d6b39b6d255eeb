// Starts and stops a real instance of the service (`tsx infra/run.ts`, as `npm start` does)
// on a free port with its own DATA_DIR. The test run's shared stack and the tests that need
// an instance of their own (restarts, faults, other settings) all come through here.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/ports';
import { PROJECT_DIR, type RunnerState } from '../../infra/service';

export interface Instance {
  url: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  output: () => string;
  state: () => RunnerState;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `mls-${prefix}-`));

export const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 60_000, everyMs = 100): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

export const startInstance = async (env: Record<string, string> = {}, dataDir = tempDir('data')): Promise<Instance> => {
  const port = Number(env.PORT ?? (await freePort()));
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_DIR, 'infra/run.ts')], {
    cwd: PROJECT_DIR,
    env: { ...process.env, NODE_ENV: 'production', RATE_LIMIT_MAX: '100000', ...env, PORT: String(port), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  await Promise.race([
    waitFor('the banner', async () => (output.includes('is up') ? true : undefined), 120_000, 50),
    exited.then((code) => {
      throw new Error(`instance exited (${code}) while starting:\n${output}`);
    }),
  ]);
  return {
    url,
    port,
    dataDir,
    child,
    output: () => output,
    state: () => JSON.parse(readFileSync(join(dataDir, 'runner.json'), 'utf8')) as RunnerState,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
};
