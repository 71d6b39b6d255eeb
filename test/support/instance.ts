// Starts and stops a real instance of the service (`tsx infra/run.ts`, as `npm start` does)
// on a free port with its own DATA_DIR. The test run's shared stack and the tests that need
// an instance of their own (restarts, faults, other settings) all come through here.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../infra/runner/ports';
import { PROJECT_DIR } from '../../infra/project';
import type { RunnerState } from '../../infra/runner/state';

export interface Instance {
  url: string;
  port: number;
  dataDir: string;
  /** Its table, on the database at `state().dynamodbEndpoint`. */
  tableName: string;
  child: ChildProcess;
  output: () => string;
  state: () => RunnerState;
  stop: (signal?: NodeJS.Signals) => Promise<number | null>;
}

/** A fresh folder under the test run's own temporary folder (removed when the run ends). */
export const tempDir = (prefix: string) => mkdtempSync(join(process.env.MLS_TEST_TMP ?? tmpdir(), `mls-${prefix}-`));

export const waitFor = async <T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 60_000,
  everyMs = 100,
  signal?: AbortSignal,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (signal?.aborted) throw new Error(`stopped waiting for ${what}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
};

export interface StartOptions {
  env?: Record<string, string>;
  dataDir?: string;
  /** Run `npm start` in a process group of its own, as a terminal does; stop() signals the group. */
  viaNpm?: boolean;
}

/**
 * The environment of an instance: the test run's own database settings never leak into it. The
 * folder monitor is off unless a test turns it on (LIBRARY_MONITOR=on): tests change their
 * folders and then scan, and a scan the monitor started meanwhile would take their changes.
 */
export const instanceEnv = (env: Record<string, string>, port: number, dataDir: string): NodeJS.ProcessEnv => {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    RATE_LIMIT_MAX: '100000',
    LIBRARY_MONITOR: 'off',
    // A name the box answers on besides its addresses: same-origin requests to it pass (test/integration/http.test.ts).
    ALLOWED_HOSTS: 'media-box.test',
    // Instances side by side: the Jellyfin door only where a test asks for it, on a port of its own.
    JELLYFIN_PORT: 'off',
    JELLYFIN_DISCOVERY: 'off',
    ...env,
    PORT: String(port),
    DATA_DIR: dataDir,
  };
  if (!env.DYNAMODB_ENDPOINT) delete childEnv.DYNAMODB_ENDPOINT;
  for (const key of ['WS_MANAGEMENT_ENDPOINT', 'LOG_DIR']) delete childEnv[key];
  return childEnv;
};

export const startInstance = async ({ env = {}, dataDir = tempDir('data'), viaNpm = false }: StartOptions = {}): Promise<Instance> => {
  const port = Number(env.PORT ?? (await freePort()));
  let output = '';
  const childEnv = instanceEnv(env, port, dataDir);
  const child = viaNpm
    ? spawn('npm', ['start', '--silent'], { cwd: PROJECT_DIR, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
    : spawn(process.execPath, ['--import', 'tsx', join(PROJECT_DIR, 'infra/run.ts')], {
        cwd: PROJECT_DIR,
        env: childEnv,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const gone = new AbortController();
  void exited.then(() => gone.abort());
  await Promise.race([
    waitFor('the banner', async () => (output.includes('is up') ? true : undefined), 120_000, 50, gone.signal),
    exited.then((code) => {
      throw new Error(`instance exited (${code}) while starting:\n${output}`);
    }),
  ]);
  return {
    url,
    port,
    dataDir,
    tableName: childEnv.TABLE_NAME ?? 'media',
    child,
    output: () => output,
    state: () => JSON.parse(readFileSync(join(dataDir, 'runner.json'), 'utf8')) as RunnerState,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) {
        if (viaNpm) process.kill(-child.pid!, signal);
        else child.kill(signal);
      }
      return exited;
    },
  };
};
