// `npm test`: starts one real stack for the whole run (DynamoDB Local, serverless-offline,
// the front door), runs every test file against it with node's test runner, then stops it.
// Test files find the stack through MLS_TEST_* variables (test/support/stack.ts).
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PROJECT_DIR } from '../infra/project';
import { buildWeb } from '../infra/web-build';
import { startInstance } from './support/instance';

const findTests = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? findTests(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

const main = async () => {
  const only = process.argv.slice(2);
  const files = (only.length ? only.map((f) => join(PROJECT_DIR, f)) : findTests(join(PROJECT_DIR, 'test'))).sort();
  // Every data folder of this run (the stack's, each test's) lives here and goes at the end,
  // and so does whatever a tool writes to the temporary folder (TMPDIR: serverless package's
  // folders per function, say): a test run leaves nothing behind.
  const systemTmp = tmpdir();
  const before = new Set(readdirSync(systemTmp));
  const runTmp = mkdtempSync(join(systemTmp, 'mls-test-'));
  // Tests that drop to an unprivileged user (a folder the service cannot read) must reach their folders.
  chmodSync(runTmp, 0o755);
  process.env.MLS_TEST_TMP = runTmp;
  process.env.TMPDIR = runTmp;
  // The web client as the sources are now (npm install built it once; the browser tests load it).
  await buildWeb();
  process.stdout.write(`Starting the stack for ${files.length} test files...\n`);
  const started = Date.now();
  const stack = await startInstance();
  const state = stack.state();
  process.stdout.write(`Stack up at ${stack.url} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);

  const code = await new Promise<number>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files.map((f) => relative(PROJECT_DIR, f))],
      {
        cwd: PROJECT_DIR,
        stdio: 'inherit',
        env: {
          ...process.env,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          MLS_TEST_URL: stack.url,
          MLS_TEST_DATA_DIR: stack.dataDir,
          MLS_TEST_WS: stack.url.replace('http', 'ws') + '/ws',
          // Handler and adapter tests in the test process use the stack's database.
          DYNAMODB_ENDPOINT: state.dynamodbEndpoint,
          WS_MANAGEMENT_ENDPOINT: state.offlineWebsocket.replace('ws', 'http'),
          LAMBDA_ENDPOINT: state.lambdaEndpoint,
          LOG_DIR: join(stack.dataDir, 'logs'),
          LOG_LEVEL: 'warn',
        },
      },
    );
    child.on('exit', (c) => resolve(c ?? 1));
  });

  const stopping = Date.now();
  await stack.stop();
  process.stdout.write(`Stack stopped in ${((Date.now() - stopping) / 1000).toFixed(1)} s\n`);
  rmSync(runTmp, { recursive: true, force: true });
  // Other programs on a developer's machine write there too, so only CI (MLS_CHECK_TMP=1) fails on it.
  const left = readdirSync(systemTmp).filter((name) => !before.has(name));
  if (left.length) {
    process.stdout.write(`The temporary folder ${systemTmp} has ${left.length} new entries after the run: ${left.slice(0, 20).join(', ')}\n`);
    if (process.env.MLS_CHECK_TMP === '1' && code === 0) process.exit(1);
  }
  process.exit(code);
};

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
