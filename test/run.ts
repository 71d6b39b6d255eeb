// `npm test` and its tiers, each run with node's test runner:
// - unit:   test/unit (and the import-order check): no stack, no web build, its files shared out
//           among a few processes (test/support/shard.ts), balanced by their last times;
// - stack:  the files that talk to the one shared stack (DynamoDB Local, serverless-offline, the
//           front door) that this runner starts, and the handler tests run in this process;
// - system: the files that start instances of their own, drive Chromium, or build and run the
//           package as the cloud would.
// `npm test` runs the three in that order and prints each tier's wall time; `npm run test:<tier>`
// runs one; `npm test -- <files>` runs those files (each in its tier). Within a tier the files
// that took longest last time start first, so the tier does not end waiting on one late file.
// Test files find the stack through MLS_TEST_* variables (test/support/stack.ts).
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { PROJECT_DIR } from '../infra/project';
import type { Instance } from './support/instance';

const TIERS = ['unit', 'stack', 'system'] as const;
type Tier = (typeof TIERS)[number];

/**
 * How many files of a tier run at once (for unit: how many processes share its files). A process
 * per core for unit: one more measured no faster (31.7-32.9 s against 32.8-34.6 s) and made the
 * tests that time a timeout miss their bounds under the extra load. Stack files mostly wait on
 * the one stack, so a few more than the cores.
 */
const CONCURRENCY: Record<Tier, number> = {
  unit: availableParallelism(),
  stack: Math.max(2, availableParallelism()),
  system: Math.max(2, availableParallelism()),
};

/** What survives between runs: each file's last time, and tsx's transform cache. */
const CACHE_DIR = join(PROJECT_DIR, 'node_modules/.cache/mls-test');
const DURATIONS = join(CACHE_DIR, 'durations.json');

const findTests = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? findTests(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  );

/** A file's tier: by its folder, and a file of the shared stack's folders that starts an instance of its own is a system test. */
const tierOf = (file: string): Tier => {
  const rel = relative(PROJECT_DIR, file);
  if (rel.startsWith('test/unit/') || rel === 'test/build/import-order.test.ts') return 'unit';
  if (rel.startsWith('test/browser/') || rel.startsWith('test/build/')) return 'system';
  return /\bstartInstance\(/.test(readFileSync(file, 'utf8')) ? 'system' : 'stack';
};

const readDurations = (): Record<string, number> => {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
};

interface Tally {
  files: Record<string, number>;
  counts: { tests: number; pass: number; fail: number; todo: number; skip: number };
}

const REPORTERS = (tallyFile: string, spec = 'stdout') => [
  '--test-reporter=spec',
  `--test-reporter-destination=${spec}`,
  `--test-reporter=${join(PROJECT_DIR, 'test/support/tally-reporter.mjs')}`,
  `--test-reporter-destination=${tallyFile}`,
];

const readTally = (file: string): Tally | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Tally;
  } catch {
    return undefined;
  }
};

const run = (args: string[], env: NodeJS.ProcessEnv) =>
  new Promise<number>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: PROJECT_DIR, stdio: 'inherit', env });
    child.on('exit', (c) => resolve(c ?? 1));
  });

/**
 * One tier's files through node's test runner, a process per file: spec on the terminal, the tally
 * to a file. A system file that says it runs in a process of its own runs after the others, by
 * itself: its load (a library of 10,000 films) would stretch their waits past their bounds.
 */
const runTier = async (tier: Tier, files: string[], env: NodeJS.ProcessEnv, tallyFile: string) => {
  const alone = tier === 'system' ? files.filter((f) => runsAlone(f)) : [];
  const parts = [files.filter((f) => !alone.includes(f)), ...alone.map((f) => [f])].filter((p) => p.length);
  let code = 0;
  let tally: Tally | undefined;
  for (const [i, part] of parts.entries()) {
    const partTally = `${tallyFile}.${i}`;
    const c = await run(
      ['--test', `--test-concurrency=${CONCURRENCY[tier]}`, ...REPORTERS(partTally), ...part.map((f) => relative(PROJECT_DIR, f))],
      env,
    );
    if (c !== 0) code = c;
    const t = readTally(partTally);
    if (!t) continue;
    tally ??= { files: {}, counts: { tests: 0, pass: 0, fail: 0, todo: 0, skip: 0 } };
    Object.assign(tally.files, t.files);
    for (const key of Object.keys(tally.counts) as (keyof Tally['counts'])[]) tally.counts[key] += t.counts[key];
  }
  return { code, tally };
};

/** A unit file that says so in its first lines runs alone: it times real waits, which another file's leftover work would stretch (a system file: runTier). */
const OWN_PROCESS = /^\/\/.*runs in a process of its own/imu;
const runsAlone = (file: string) => OWN_PROCESS.test(readFileSync(file, 'utf8').slice(0, 600));

/**
 * The unit tier: its files shared out among a process per core, longest first to the least
 * loaded (the files come sorted longest first). Each lane runs its shared files in one process,
 * then each file that runs alone in one of its own. Each lane's report is printed whole at its end.
 */
const runShards = async (files: string[], env: NodeJS.ProcessEnv, dir: string, last: Record<string, number>) => {
  const lanes = Array.from({ length: Math.min(CONCURRENCY.unit, files.length) }, () => ({
    shared: [] as string[],
    alone: [] as string[],
    ms: 0,
  }));
  for (const f of files) {
    // A file that runs alone goes to the lane with the fewest of them: each costs a process start besides its time.
    const alone = runsAlone(f);
    const least = lanes.reduce((a, b) => ((alone ? b.alone.length - a.alone.length || b.ms - a.ms : b.ms - a.ms) < 0 ? b : a));
    (alone ? least.alone : least.shared).push(f);
    least.ms += last[relative(PROJECT_DIR, f)] ?? 1000;
  }
  let n = 0;
  const runOne = async (list: string[]) => {
    const i = n++;
    const tallyFile = join(dir, `tally-unit-${i}.json`);
    const specFile = join(dir, `spec-unit-${i}.txt`);
    const code = await run(
      [...REPORTERS(tallyFile, specFile), join(PROJECT_DIR, 'test/support/shard.ts'), ...list.map((f) => relative(PROJECT_DIR, f))],
      env,
    );
    return { code, tally: readTally(tallyFile), spec: readFileSync(specFile, 'utf8') };
  };
  const results = (
    await Promise.all(
      lanes.map(async (lane, i) => {
        const started = Date.now();
        const done = [];
        for (const list of [lane.shared, ...lane.alone.map((f) => [f])]) if (list.length) done.push(await runOne(list));
        for (const r of done) process.stdout.write(r.spec);
        const count = lane.shared.length + lane.alone.length;
        process.stdout.write(`-- unit lane ${i + 1}: ${count} files (${lane.alone.length} alone) in ${seconds(Date.now() - started)}\n`);
        return done;
      }),
    )
  ).flat();
  const tally: Tally = { files: {}, counts: { tests: 0, pass: 0, fail: 0, todo: 0, skip: 0 } };
  for (const r of results) {
    // A process that died before its reporter wrote counts as a failure; its files stay untimed.
    if (!r.tally) return { code: r.code || 1, tally: undefined };
    Object.assign(tally.files, r.tally.files);
    for (const key of Object.keys(tally.counts) as (keyof Tally['counts'])[]) tally.counts[key] += r.tally.counts[key];
  }
  return { code: results.find((r) => r.code !== 0)?.code ?? 0, tally };
};

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

const main = async () => {
  const args = process.argv.slice(2);
  const tierArg = args.indexOf('--tier');
  const onlyTier = tierArg >= 0 ? (args[tierArg + 1] as Tier) : undefined;
  if (onlyTier && !TIERS.includes(onlyTier)) throw new Error(`--tier takes one of ${TIERS.join(', ')}`);
  const named = args.filter((_, i) => tierArg < 0 || (i !== tierArg && i !== tierArg + 1));
  const files = (named.length ? named.map((f) => join(PROJECT_DIR, f)) : findTests(join(PROJECT_DIR, 'test'))).sort();
  const last = readDurations();
  const byTier = new Map<Tier, string[]>(TIERS.map((t) => [t, []]));
  for (const f of files) byTier.get(tierOf(f))!.push(f);
  // Longest first; a file never timed counts as long (it may be).
  for (const list of byTier.values())
    list.sort((a, b) => (last[relative(PROJECT_DIR, b)] ?? 1e9) - (last[relative(PROJECT_DIR, a)] ?? 1e9));
  const tiers = TIERS.filter((t) => (!onlyTier || t === onlyTier) && byTier.get(t)!.length > 0);

  // Every data folder of this run (the stack's, each test's) lives here and goes at the end,
  // and so does whatever a tool writes to the temporary folder (TMPDIR: serverless package's
  // folders per function, say): a test run leaves nothing behind. tsx's transform cache is the
  // exception: it is kept between runs (a link to the project's cache), as it is outside tests.
  const systemTmp = tmpdir();
  const before = new Set(readdirSync(systemTmp));
  const runTmp = mkdtempSync(join(systemTmp, 'mls-test-'));
  // Tests that drop to an unprivileged user (a folder the service cannot read) must reach their folders.
  chmodSync(runTmp, 0o755);
  mkdirSync(join(CACHE_DIR, 'tsx'), { recursive: true });
  symlinkSync(join(CACHE_DIR, 'tsx'), join(runTmp, `tsx-${process.geteuid?.() ?? 0}`));
  process.env.MLS_TEST_TMP = runTmp;
  process.env.TMPDIR = runTmp;
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

  let stack: Instance | undefined;
  const times: string[] = [];
  const total: Tally['counts'] = { tests: 0, pass: 0, fail: 0, todo: 0, skip: 0 };
  let code = 0;
  try {
    for (const tier of tiers) {
      const started = Date.now();
      if (tier !== 'unit' && !stack) {
        // The web client as the sources are now (npm install built it once; the browser tests load it).
        // Loaded here, so that the unit tier does not wait for what only a stack needs.
        const [{ buildWeb }, { startInstance }] = await Promise.all([import('../infra/web-build'), import('./support/instance')]);
        await buildWeb();
        const { freePort } = await import('../infra/runner/ports');
        const jellyfinPort = await freePort();
        stack = await startInstance({ env: { JELLYFIN_PORT: String(jellyfinPort) } });
        const state = stack.state();
        process.stdout.write(`Stack up at ${stack.url} in ${seconds(Date.now() - started)}\n`);
        Object.assign(env, {
          MLS_TEST_URL: stack.url,
          MLS_TEST_DATA_DIR: stack.dataDir,
          MLS_TEST_WS: stack.url.replace('http', 'ws') + '/ws',
          MLS_TEST_JELLYFIN_URL: `http://127.0.0.1:${jellyfinPort}`,
          // Handler and adapter tests in the test process, and the instances tests start, use the stack's database.
          DYNAMODB_ENDPOINT: state.dynamodbEndpoint,
          WS_MANAGEMENT_ENDPOINT: state.offlineWebsocket.replace('ws', 'http'),
          LAMBDA_ENDPOINT: state.lambdaEndpoint,
          LOG_DIR: join(stack.dataDir, 'logs'),
          LOG_LEVEL: 'warn',
        });
      }
      const list = byTier.get(tier)!;
      process.stdout.write(`\n== ${tier}: ${list.length} files, ${CONCURRENCY[tier]} ${tier === 'unit' ? 'processes' : 'at a time'}\n`);
      const { code: tierCode, tally } =
        tier === 'unit' ? await runShards(list, env, runTmp, last) : await runTier(tier, list, env, join(runTmp, `tally-${tier}.json`));
      const took = Date.now() - started;
      if (tally) {
        for (const [file, ms] of Object.entries(tally.files)) last[relative(PROJECT_DIR, file)] = Math.round(ms);
        for (const key of Object.keys(total) as (keyof Tally['counts'])[]) total[key] += tally.counts[key];
      }
      const counted = tally ? `${tally.counts.tests} tests, ${tally.counts.fail} failed` : 'no tally';
      times.push(`${tier} ${seconds(took)} (${counted})`);
      process.stdout.write(`== ${tier} took ${seconds(took)}: ${counted}\n`);
      if (tierCode !== 0) code = tierCode;
    }
  } finally {
    if (stack) {
      const stopping = Date.now();
      await stack.stop();
      process.stdout.write(`Stack stopped in ${seconds(Date.now() - stopping)}\n`);
    }
    writeFileSync(DURATIONS, `${JSON.stringify(last, null, 1)}\n`);
    rmSync(runTmp, { recursive: true, force: true });
  }
  process.stdout.write(`\nTiers: ${times.join('; ')}\n`);
  process.stdout.write(`All: ${total.tests} tests, ${total.pass} pass, ${total.fail} fail, ${total.todo} todo, ${total.skip} skipped\n`);
  // Other programs on a developer's machine write there too, so only CI (MLS_CHECK_TMP=1) fails on it.
  const left = readdirSync(systemTmp).filter((name) => !before.has(name));
  if (left.length) {
    process.stdout.write(
      `The temporary folder ${systemTmp} has ${left.length} new entries after the run: ${left.slice(0, 20).join(', ')}\n`,
    );
    if (process.env.MLS_CHECK_TMP === '1' && code === 0) process.exit(1);
  }
  process.exit(code);
};

main().catch((err) => {
  process.stderr.write(`${err instanceof Error ? err.stack : err}\n`);
  process.exit(1);
});
