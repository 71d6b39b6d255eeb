// Compares two recursive file watchers for the library scanner: @parcel/watcher (native, one
// inotify watch per folder) and chokidar (fs.watch per folder and per file), on a tree shaped
// like a movie library: <folders> movie folders "Title (Year)/Title (Year).mkv" spread over
// about sqrt(<folders>) top folders.
//
//   npx tsx bench/watchers.ts [--folders 10000] [--dir /var/tmp] [--trials 10] [--idle 10] [--no-limit]
//
// chokidar is not a dependency of the project: install it outside the repo and point at it,
//   npm install --prefix /var/tmp/watchcmp chokidar@5
//   CHOKIDAR_PATH=/var/tmp/watchcmp/node_modules/chokidar npx tsx bench/watchers.ts
// Without it only @parcel/watcher is measured.
//
// Each library runs in its own fresh child process (so RSS and CPU are its own), with plain
// `node` on a JS copy of this file: under tsx a process carries ~50 MiB of loader that a
// server started with `node` does not. The tree, the child's copy and everything else the
// bench makes live in one temporary folder that is removed at the end.
import { spawn, spawnSync } from 'node:child_process';
import {
  watch as fsWatch,
  type FSWatcher,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { cpus, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

type Lib = 'parcel' | 'chokidar';
type ParcelModule = typeof import('@parcel/watcher');

/** The part of chokidar's API used here (it is not installed in the project, so no types). */
interface ChokidarWatcher {
  on(event: 'all', fn: (type: string, path: string) => void): ChokidarWatcher;
  on(event: 'error', fn: (err: unknown) => void): ChokidarWatcher;
  once(event: 'ready', fn: () => void): ChokidarWatcher;
  close(): Promise<void>;
}
interface ChokidarModule {
  watch(path: string, options: Record<string, unknown>): ChokidarWatcher;
}

const { values: opts } = parseArgs({
  options: {
    folders: { type: 'string', default: '10000' },
    dir: { type: 'string' },
    trials: { type: 'string', default: '10' },
    idle: { type: 'string', default: '10' },
    'no-limit': { type: 'boolean', default: false },
    // Set by the parent for its children only.
    child: { type: 'string' },
    lib: { type: 'string' },
    entry: { type: 'string' },
    base: { type: 'string' },
  },
});

// ---------------------------------------------------------------------------------------------
// The tree: <root>/Shelf NN/Title NNNNN (YYYY)/Title NNNNN (YYYY).mkv, plus folders outside the
// root for the children's scratch work (folders to move in, spare folders to spend watches on).

interface Shape {
  tops: number;
  perTop: number;
}

const shapeFor = (folders: number): Shape => {
  const tops = Math.max(1, Math.round(Math.sqrt(folders)));
  return { tops, perTop: Math.ceil(folders / tops) };
};
const pad = (n: number, width: number) => String(n).padStart(width, '0');
const topDir = (root: string, t: number) => join(root, `Shelf ${pad(t, 3)}`);
const movieName = (t: number, m: number, shape: Shape) => {
  const n = t * shape.perTop + m;
  return `Title ${pad(n, 5)} (${1950 + (n % 75)})`;
};
const movieDir = (root: string, t: number, m: number, shape: Shape) => join(topDir(root, t), movieName(t, m, shape));

const paths = (base: string) => ({
  root: join(base, 'library'),
  staging: join(base, 'staging'),
  spare: join(base, 'spare'),
  childScript: join(base, 'child.mjs'),
});
const SPARE_FOLDERS = 256;

const buildTree = (base: string, shape: Shape) => {
  const { root, staging, spare } = paths(base);
  for (let t = 0; t < shape.tops; t++) {
    for (let m = 0; m < shape.perTop; m++) {
      const dir = movieDir(root, t, m, shape);
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `${movieName(t, m, shape)}.mkv`), 'not a movie\n');
    }
  }
  mkdirSync(staging);
  for (let i = 0; i < SPARE_FOLDERS; i++) mkdirSync(join(spare, `spare-${pad(i, 3)}`), { recursive: true });
};

// ---------------------------------------------------------------------------------------------
// Measuring inside a child.

const MiB = 1024 * 1024;
const round1 = (n: number) => Math.round(n * 10) / 10;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A line of /proc/self/status in KiB (VmRSS, VmHWM). */
const statusKiB = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

interface Mem {
  rssMiB: number; // process.memoryUsage().rss
  vmRssMiB: number; // /proc/self/status VmRSS (should agree; both are read from the kernel)
  vmHwmMiB: number; // peak RSS so far
  heapMiB: number;
}
const mem = (): Mem => ({
  rssMiB: round1(process.memoryUsage().rss / MiB),
  vmRssMiB: round1(statusKiB('VmRSS') / 1024),
  vmHwmMiB: round1(statusKiB('VmHWM') / 1024),
  heapMiB: round1(process.memoryUsage().heapUsed / MiB),
});
const cpuMs = (since?: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since); // all threads of the process: parcel's native threads count too
  return round1((u.user + u.system) / 1000);
};

/** inotify watches this process holds: the "inotify wd:" lines of each inotify fd's fdinfo. */
const inotifyWatches = () => {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) !== 'anon_inode:inotify') continue;
      n += readFileSync(`/proc/self/fdinfo/${fd}`, 'utf8').split('\n').filter((l) => l.startsWith('inotify wd:')).length;
    } catch {
      // an fd closed while we looked
    }
  }
  return n;
};

interface ErrorInfo {
  message: string;
  code?: string;
  name?: string;
}
const errorInfo = (err: unknown): ErrorInfo => {
  const e = err as { message?: string; code?: string; name?: string };
  return { message: String(e?.message ?? err), code: e?.code, name: e?.name };
};

interface WatchEvent {
  type: string;
  path: string;
  at: number;
}

/** Every event and error the watcher reported, with waits on the next matching event. */
class EventLog {
  readonly events: WatchEvent[] = [];
  readonly errors: ErrorInfo[] = [];
  private readonly waiters = new Set<{ match: (e: WatchEvent) => boolean; done: (e: WatchEvent) => void }>();

  event = (type: string, path: string) => {
    const e = { type, path, at: performance.now() }; // when JS sees it: what a server's handler would
    this.events.push(e);
    for (const w of this.waiters) if (w.match(e)) w.done(e);
  };

  error = (err: unknown) => {
    this.errors.push(errorInfo(err));
  };

  /** The first event from index `since` on that matches, or null after `timeoutMs`. */
  waitFor(match: (e: WatchEvent) => boolean, since: number, timeoutMs = 1500): Promise<WatchEvent | null> {
    const seen = this.events.slice(since).find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve) => {
      const waiter = {
        match,
        done: (e: WatchEvent | null) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(e);
        },
      };
      const timer = setTimeout(() => waiter.done(null), timeoutMs);
      this.waiters.add(waiter);
    });
  }
}

type Start = (root: string, log: EventLog) => Promise<() => Promise<void>>;

/** Imports the library and returns how to start it, so import cost stays out of the start time. */
const loadLibrary = async (lib: Lib, entry: string): Promise<Start> => {
  const mod: unknown = await import(pathToFileURL(entry).href);
  if (lib === 'parcel') {
    const parcel = ((mod as { default?: ParcelModule }).default ?? mod) as ParcelModule;
    return async (root, log) => {
      const sub = await parcel.subscribe(root, (err, events) => {
        if (err) log.error(err);
        else for (const e of events) log.event(e.type, e.path);
      });
      return () => sub.unsubscribe();
    };
  }
  const chokidar = mod as ChokidarModule;
  return (root, log) =>
    new Promise((ready) => {
      // What a server would use: no initial add storm, no polling, and no awaitWriteFinish
      // (we debounce ourselves, and it would add its own 2 s of stat polling to every event).
      const w = chokidar.watch(root, { ignoreInitial: true, awaitWriteFinish: false, usePolling: false });
      w.on('all', log.event);
      w.on('error', log.error);
      w.once('ready', () => ready(() => w.close()));
    });
};

// parcel batches events: the first change after 500 ms of quiet goes out at once, later ones
// wait 50 ms for more. Trials are spaced past that so each measures a lone change.
const GAP_MS = 600;

interface Tally {
  seen: number;
  of: number;
}

interface BenchResult {
  lib: Lib;
  mem: { beforeImport: Mem; beforeWatch: Mem; ready: Mem; idle: Mem };
  importMs: number;
  startMs: number;
  startCpuMs: number;
  idleCpuMs: number;
  watches: number;
  fileLatencyMs: (number | null)[];
  folderLatencyMs: (number | null)[];
  /** A file written right after its folder's mkdir (races the watch on the new folder). */
  freshFolderFileAtOnce: Tally;
  /** A file written 250 ms after its folder's mkdir: is a new folder watched at all? */
  freshFolderFileLater: Tally;
  /** A folder with a file and a subfolder (with a file) renamed in from outside the root. */
  movedInContents: Tally;
  movedInLaterWrite: Tally;
  movedInSubfolderLaterWrite: Tally;
  errors: ErrorInfo[];
}

/** The child: start, sit idle, then time events. Prints one JSON line. */
const benchChild = async (lib: Lib, entry: string, base: string, shape: Shape, trials: number, idleS: number) => {
  const { root, staging } = paths(base);
  const log = new EventLog();
  const made: string[] = []; // removed at the end, so the next library sees the same tree
  const beforeImport = mem();
  const t0 = performance.now();
  const start = await loadLibrary(lib, entry);
  const importMs = performance.now() - t0;
  const beforeWatch = mem();

  const cpu0 = process.cpuUsage();
  const t1 = performance.now();
  const stop = await start(root, log);
  const startMs = performance.now() - t1;
  const startCpuMs = cpuMs(cpu0);
  const ready = mem();
  const watches = inotifyWatches();

  const cpu1 = process.cpuUsage();
  await sleep(idleS * 1000);
  const idleCpuMs = cpuMs(cpu1);
  const idle = mem();

  const reported = async (file: string, since: number) => (await log.waitFor((e) => e.path === file, since)) !== null;
  const fileLatencyMs: (number | null)[] = [];
  const folderLatencyMs: (number | null)[] = [];
  const freshFolderFileAtOnce = { seen: 0, of: 0 };
  for (let i = 0; i < trials; i++) {
    // A new file in an existing movie folder, the last ones of each shelf (deepest in walk order).
    const t = i % shape.tops;
    const file = join(movieDir(root, t, shape.perTop - 1 - (i % shape.perTop), shape), `extra-${i}.mkv`);
    made.push(file);
    let since = log.events.length;
    let w0 = performance.now();
    writeFileSync(file, 'x');
    let e = await log.waitFor((ev) => ev.path === file, since);
    fileLatencyMs.push(e ? round1(e.at - w0) : null);
    await sleep(GAP_MS);

    // A new movie folder with its file in it, as a downloader that writes in place makes it.
    const dir = join(topDir(root, t), `New Title ${i} (2025)`);
    const inner = join(dir, `New Title ${i} (2025).mkv`);
    made.push(dir);
    since = log.events.length;
    w0 = performance.now();
    mkdirSync(dir);
    writeFileSync(inner, 'x');
    e = await log.waitFor((ev) => ev.path === dir || ev.path.startsWith(`${dir}/`), since);
    folderLatencyMs.push(e ? round1(e.at - w0) : null);
    freshFolderFileAtOnce.of++;
    if (await reported(inner, since)) freshFolderFileAtOnce.seen++;
    await sleep(GAP_MS);
  }

  const fewer = Math.min(3, trials);
  const freshFolderFileLater = { seen: 0, of: 0 };
  const movedInContents = { seen: 0, of: 0 };
  const movedInLaterWrite = { seen: 0, of: 0 };
  const movedInSubfolderLaterWrite = { seen: 0, of: 0 };
  for (let i = 0; i < fewer; i++) {
    const dir = join(topDir(root, i % shape.tops), `Later Title ${i} (2025)`);
    made.push(dir);
    mkdirSync(dir);
    await sleep(250);
    const inner = join(dir, 'movie.mkv');
    const since = log.events.length;
    writeFileSync(inner, 'x');
    freshFolderFileLater.of++;
    if (await reported(inner, since)) freshFolderFileLater.seen++;
    await sleep(GAP_MS);
  }
  for (let i = 0; i < fewer; i++) {
    // A finished download moved into the library (a rename on the same file system).
    const name = `Moved Title ${i} (2025)`;
    const src = join(staging, name);
    mkdirSync(join(src, 'Extras'), { recursive: true });
    writeFileSync(join(src, `${name}.mkv`), 'x');
    writeFileSync(join(src, 'Extras', 'trailer.mkv'), 'x');
    const dir = join(topDir(root, i % shape.tops), name);
    made.push(dir);
    let since = log.events.length;
    renameSync(src, dir);
    movedInContents.of += 2;
    if (await reported(join(dir, `${name}.mkv`), since)) movedInContents.seen++;
    if (await reported(join(dir, 'Extras', 'trailer.mkv'), since)) movedInContents.seen++;
    await sleep(GAP_MS);
    since = log.events.length;
    const later = join(dir, `${name}.srt`);
    writeFileSync(later, 'x');
    movedInLaterWrite.of++;
    if (await reported(later, since)) movedInLaterWrite.seen++;
    await sleep(GAP_MS);
    since = log.events.length;
    const nested = join(dir, 'Extras', 'interview.mkv');
    writeFileSync(nested, 'x');
    movedInSubfolderLaterWrite.of++;
    if (await reported(nested, since)) movedInSubfolderLaterWrite.seen++;
    await sleep(GAP_MS);
  }

  await stop();
  for (const p of made) rmSync(p, { recursive: true, force: true });
  const result: BenchResult = {
    lib,
    mem: { beforeImport, beforeWatch, ready, idle },
    importMs: round1(importMs),
    startMs: round1(startMs),
    startCpuMs,
    idleCpuMs,
    watches,
    fileLatencyMs,
    folderLatencyMs,
    freshFolderFileAtOnce,
    freshFolderFileLater,
    movedInContents,
    movedInLaterWrite,
    movedInSubfolderLaterWrite,
    errors: log.errors.slice(0, 5),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
};

interface LimitStartResult {
  lib: Lib;
  limit: number;
  started: boolean;
  ms: number;
  rejection?: ErrorInfo;
  watchesHeld: number;
  errorEvents: number;
  firstErrors: ErrorInfo[];
  /** A file written in the last movie folder of the walk, after start. */
  lastFolderReported?: boolean;
}

/** Run under a watch limit below what the tree needs: how does starting fail? */
const limitStartChild = async (lib: Lib, entry: string, base: string, shape: Shape, limit: number) => {
  const { root } = paths(base);
  const log = new EventLog();
  const start = await loadLibrary(lib, entry);
  const t0 = performance.now();
  const out: LimitStartResult = { lib, limit, started: false, ms: 0, watchesHeld: 0, errorEvents: 0, firstErrors: [] };
  let stop: (() => Promise<void>) | undefined;
  try {
    stop = await start(root, log);
    out.started = true;
  } catch (err) {
    out.rejection = errorInfo(err);
  }
  out.ms = round1(performance.now() - t0);
  out.watchesHeld = inotifyWatches();
  if (stop) {
    const file = join(movieDir(root, shape.tops - 1, shape.perTop - 1, shape), 'late.mkv');
    const since = log.events.length;
    writeFileSync(file, 'x');
    out.lastFolderReported = (await log.waitFor((e) => e.path === file, since)) !== null;
    await stop();
    rmSync(file, { force: true });
  }
  out.errorEvents = log.errors.length;
  out.firstErrors = log.errors.slice(0, 3);
  process.stdout.write(`${JSON.stringify(out)}\n`);
};

interface LimitRuntimeResult {
  lib: Lib;
  limit: number;
  spentOnFill: number;
  fillError?: ErrorInfo;
  existingFolderFileReported: boolean;
  newFolderReported: boolean;
  newFolderFileReported: boolean;
  /** The new folder's event, if it was held back, once something else happens. */
  newFolderReportedLate: boolean;
  errorEvents: number;
  firstErrors: ErrorInfo[];
}

/** Start within the limit, spend what is left, then add a folder: how does the watcher say so? */
const limitRuntimeChild = async (lib: Lib, entry: string, base: string, shape: Shape, limit: number) => {
  const { root, spare } = paths(base);
  const log = new EventLog();
  const start = await loadLibrary(lib, entry);
  const stop = await start(root, log);
  // Another watcher in the same process (or any process of the same user) uses up the rest.
  const fill: FSWatcher[] = [];
  let fillError: ErrorInfo | undefined;
  for (const d of readdirSync(spare)) {
    try {
      fill.push(fsWatch(join(spare, d)));
    } catch (err) {
      fillError = errorInfo(err);
      break;
    }
  }
  const existing = join(movieDir(root, 0, 0, shape), 'after-limit.mkv');
  let since = log.events.length;
  writeFileSync(existing, 'x');
  const existingFolderFileReported = (await log.waitFor((e) => e.path === existing, since)) !== null;
  await sleep(GAP_MS);

  const dir = join(topDir(root, 0), 'Over The Limit (2025)');
  const inner = join(dir, 'movie.mkv');
  since = log.events.length;
  mkdirSync(dir);
  const newFolderReported = (await log.waitFor((e) => e.path === dir, since)) !== null;
  await sleep(250);
  writeFileSync(inner, 'x');
  const newFolderFileReported = (await log.waitFor((e) => e.path === inner, since)) !== null;
  await sleep(GAP_MS);
  const nudge = join(movieDir(root, 0, 0, shape), 'nudge.mkv');
  writeFileSync(nudge, 'x');
  await log.waitFor((e) => e.path === nudge, since);
  const newFolderReportedLate = !newFolderReported && log.events.slice(since).some((e) => e.path === dir);

  for (const w of fill) w.close();
  await stop();
  rmSync(existing, { force: true });
  rmSync(nudge, { force: true });
  rmSync(dir, { recursive: true, force: true });
  const out: LimitRuntimeResult = {
    lib,
    limit,
    spentOnFill: fill.length,
    fillError,
    existingFolderFileReported,
    newFolderReported,
    newFolderFileReported,
    newFolderReportedLate,
    errorEvents: log.errors.length,
    firstErrors: log.errors.slice(0, 3),
  };
  process.stdout.write(`${JSON.stringify(out)}\n`);
};

// ---------------------------------------------------------------------------------------------
// The parent: build the tree, run the children one after another, print the tables.

const say = (s: string) => process.stderr.write(`watchers: ${s}\n`);

interface Target {
  lib: Lib;
  name: string;
  version: string;
  entry: string;
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

const findParcel = (): Target => {
  const entry = createRequire(import.meta.url).resolve('@parcel/watcher');
  const pkg = readJson(join(dirname(entry), 'package.json'));
  return { lib: 'parcel', name: '@parcel/watcher', version: String(pkg.version), entry };
};

/** CHOKIDAR_PATH: the package folder (or an npm prefix holding node_modules/chokidar). */
const findChokidar = async (): Promise<Target | string> => {
  const given = process.env.CHOKIDAR_PATH;
  if (!given) return 'CHOKIDAR_PATH is not set';
  const dir = existsSync(join(given, 'node_modules/chokidar/package.json')) ? join(given, 'node_modules/chokidar') : given;
  try {
    const pkg = readJson(join(dir, 'package.json'));
    // v4 and v5 have an exports map; take its ESM entry.
    const dot = ((pkg.exports as Record<string, unknown> | undefined)?.['.'] ?? pkg.exports) as
      | { import?: unknown; default?: unknown }
      | string
      | undefined;
    const entry = resolve(dir, String(typeof dot === 'string' ? dot : (dot?.import ?? dot?.default ?? pkg.main ?? 'index.js')));
    const mod = (await import(pathToFileURL(entry).href)) as Partial<ChokidarModule>;
    if (typeof mod.watch !== 'function') return `${entry} has no watch()`;
    return { lib: 'chokidar', name: 'chokidar', version: String(pkg.version), entry };
  } catch (err) {
    return `cannot import chokidar from ${dir}: ${errorInfo(err).message}`;
  }
};

/** The children run this file as JS under plain node (see the top); tsx's own as a fallback. */
const childCommand = async (base: string): Promise<{ argv: string[]; underTsx: boolean }> => {
  const self = fileURLToPath(import.meta.url);
  try {
    const { transformSync } = await import('esbuild'); // tsx's own compiler, already installed with it
    const { code } = transformSync(readFileSync(self, 'utf8'), { loader: 'ts', format: 'esm', target: 'node20' });
    writeFileSync(paths(base).childScript, code);
    return { argv: [process.execPath, paths(base).childScript], underTsx: false };
  } catch {
    return { argv: [process.execPath, ...process.execArgv, self], underTsx: true };
  }
};

/** Runs one child to completion and parses the JSON line it prints. */
const runChild = <T>(argv: string[], timeoutS = 300): Promise<T> =>
  new Promise((resolvePromise, reject) => {
    const [cmd, ...args] = argv;
    const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutS * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const line = out.trim().split('\n').pop();
      if (code === 0 && line) resolvePromise(JSON.parse(line) as T);
      else reject(new Error(`child ${args.join(' ')} ended with ${code ?? signal}: ${out.slice(-500)}`));
    });
  });

/**
 * Runs `argv` in a new user namespace with its own inotify watch limit, so the limit can be
 * lowered without root and without touching the machine's (user.max_inotify_watches is per
 * user namespace and also caps everything below it).
 */
const inUserNamespace = (limit: number, argv: string[]) => [
  'unshare',
  '-U',
  '-r',
  'sh',
  '-c',
  'echo "$0" > /proc/sys/user/max_inotify_watches && exec "$@"',
  String(limit),
  ...argv,
];
const canLowerLimit = () =>
  spawnSync('unshare', ['-U', '-r', 'sh', '-c', 'echo 100 > /proc/sys/user/max_inotify_watches'], { stdio: 'ignore' })
    .status === 0;

const median = (xs: (number | null)[]) => {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return NaN;
  const mid = Math.floor(v.length / 2);
  return v.length % 2 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
};
const fmt = (n: number) => (Number.isNaN(n) ? 'n/a' : String(round1(n)));
const tally = (t: Tally) => `${t.seen}/${t.of}`;
const errText = (e?: ErrorInfo) => {
  if (!e) return '';
  const prefix = e.code && !e.message.startsWith(e.code) ? `${e.code}: ` : ''; // Node's messages start with it
  return `${prefix}${e.message}${e.code || !e.name || e.name === 'Error' ? '' : ` (${e.name})`}`;
};
const table = (head: string[], rows: (string | number)[][]) =>
  [`| ${head.join(' | ')} |`, `| ${head.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join(
    '\n',
  );

const main = async () => {
  const folders = Number(opts.folders);
  const trials = Number(opts.trials);
  const idleS = Number(opts.idle);
  const shape = shapeFor(folders);

  const targets: Target[] = [findParcel()];
  const chokidar = await findChokidar();
  if (typeof chokidar === 'string') {
    say(`chokidar skipped (${chokidar}). To include it, install it outside the repo and point at it:`);
    say('  npm install --prefix /var/tmp/watchcmp chokidar@5');
    say('  CHOKIDAR_PATH=/var/tmp/watchcmp/node_modules/chokidar npx tsx bench/watchers.ts');
  } else targets.push(chokidar);

  const base = mkdtempSync(join(resolve(opts.dir ?? tmpdir()), 'watchers-bench-'));
  const cleanup = () => rmSync(base, { recursive: true, force: true });
  process.once('SIGINT', () => {
    cleanup();
    process.exit(130);
  });
  try {
    const t0 = performance.now();
    buildTree(base, shape);
    const dirs = 1 + shape.tops + shape.tops * shape.perTop;
    const built = Math.round(performance.now() - t0);
    say(`tree: ${shape.tops} x ${shape.perTop} movie folders (${dirs} folders) in ${base} (${built} ms)`);
    const child = await childCommand(base);
    if (child.underTsx) say('esbuild not found: children run under tsx, whose loader adds ~50 MiB to every RSS figure');
    const childArgs = (t: Target, mode: string) => [
      ...child.argv,
      `--child=${mode}`,
      `--lib=${t.lib}`,
      `--entry=${t.entry}`,
      `--base=${base}`,
      `--folders=${folders}`,
      `--trials=${trials}`,
      `--idle=${idleS}`,
    ];

    const bench: (BenchResult & { target: Target })[] = [];
    for (const t of targets) {
      say(`${t.name} ${t.version}: start, ${idleS} s idle, ${trials} latency trials...`);
      bench.push({ ...(await runChild<BenchResult>(childArgs(t, 'bench'))), target: t });
    }

    const limitStart: LimitStartResult[] = [];
    const limitRuntime: LimitRuntimeResult[] = [];
    const limitNote = opts['no-limit']
      ? 'skipped (--no-limit)'
      : canLowerLimit()
        ? ''
        : 'skipped: cannot make a user namespace (unshare -U -r) here';
    if (!limitNote) {
      for (const t of targets) {
        // Half of the folders: both libraries run out part-way through their first walk.
        const low = Math.floor(dirs / 2);
        say(`${t.name}: start under a limit of ${low} watches...`);
        limitStart.push(await runChild(inUserNamespace(low, childArgs(t, 'limit-start'))));
        // Enough to start with a little to spare, which the child then spends elsewhere.
        const fits = bench.find((b) => b.lib === t.lib)!.watches + 64;
        say(`${t.name}: run out of watches after start (limit ${fits})...`);
        limitRuntime.push(await runChild(inUserNamespace(fits, childArgs(t, 'limit-runtime'))));
      }
    }

    const out: string[] = [];
    out.push(`## File watchers on ${shape.tops * shape.perTop} movie folders (${dirs} folders, ${shape.tops * shape.perTop} files)`);
    out.push('');
    out.push(
      `${cpus().length} cores (${cpus()[0]?.model.trim()}), Node ${process.version}, Linux inotify; ` +
        `fs.inotify.max_user_watches = ${readFileSync('/proc/sys/fs/inotify/max_user_watches', 'utf8').trim()}. ` +
        `One fresh child process per library; latency = write() to the JS callback, median of ${trials}.`,
    );
    out.push('');
    out.push(
      table(
        [
          'library',
          'start ms',
          'RSS after ready MiB',
          'RSS delta MiB',
          'CPU ms at start',
          `CPU ms ${idleS} s idle`,
          'event latency p50 ms (new file)',
          'p50 ms (new folder + file)',
          'inotify watches',
        ],
        bench.map((b) => [
          `${b.target.name} ${b.target.version}`,
          fmt(b.startMs),
          fmt(b.mem.ready.rssMiB),
          fmt(b.mem.ready.rssMiB - b.mem.beforeWatch.rssMiB),
          fmt(b.startCpuMs),
          fmt(b.idleCpuMs),
          fmt(median(b.fileLatencyMs)),
          fmt(median(b.folderLatencyMs)),
          b.watches,
        ]),
      ),
    );
    out.push('');
    out.push('RSS in MiB as process.memoryUsage().rss / VmRSS (delta = after ready - before watch, library already imported):');
    out.push('');
    out.push(
      table(
        ['library', 'import ms', 'before import', 'before watch', 'after ready', `after ${idleS} s idle`, 'peak (VmHWM)', 'JS heap at ready'],
        bench.map((b) => {
          const m = (x: Mem) => `${x.rssMiB} / ${x.vmRssMiB}`;
          return [
            b.target.name,
            fmt(b.importMs),
            m(b.mem.beforeImport),
            m(b.mem.beforeWatch),
            m(b.mem.ready),
            m(b.mem.idle),
            b.mem.idle.vmHwmMiB,
            b.mem.ready.heapMiB,
          ];
        }),
      ),
    );
    out.push('');
    out.push('Latency samples ms (new file | new folder + file): ');
    for (const b of bench) out.push(`- ${b.target.name}: ${b.fileLatencyMs.join(', ')} | ${b.folderLatencyMs.join(', ')}`);
    out.push('');
    out.push('What gets reported after start (files seen / written):');
    out.push('');
    out.push(
      table(
        [
          'library',
          'file written right after mkdir',
          'file written 250 ms after mkdir',
          'moved-in folder: its files (incl. subfolder)',
          'later write in moved-in folder',
          'later write in its subfolder',
          'error callbacks',
        ],
        bench.map((b) => [
          b.target.name,
          tally(b.freshFolderFileAtOnce),
          tally(b.freshFolderFileLater),
          tally(b.movedInContents),
          tally(b.movedInLaterWrite),
          tally(b.movedInSubfolderLaterWrite),
          b.errors.length ? b.errors.map(errText).join('; ') : 'none',
        ]),
      ),
    );
    out.push('');
    out.push('### At the inotify watch limit');
    out.push('');
    if (limitNote) out.push(limitNote);
    else {
      out.push('(each in a user namespace whose own user.max_inotify_watches is lowered; the machine limit is untouched)');
      out.push('');
      out.push(
        table(
          ['library', 'limit', 'start', 'ms', 'rejected with', 'error events', 'first error event', 'watches held', 'late folder reported'],
          limitStart.map((r) => [
            r.lib,
            r.limit,
            r.started ? 'resolved/ready' : 'failed',
            fmt(r.ms),
            errText(r.rejection) || '-',
            r.errorEvents,
            errText(r.firstErrors[0]) || '-',
            r.watchesHeld,
            r.lastFolderReported === undefined ? '-' : r.lastFolderReported ? 'yes' : 'no',
          ]),
        ),
      );
      out.push('');
      out.push(
        table(
          ['library (limit hit after start)', 'limit', 'file in watched folder', 'new folder event', 'file in new folder', 'error events', 'first error event', 'what ran out'],
          limitRuntime.map((r) => [
            r.lib,
            r.limit,
            r.existingFolderFileReported ? 'reported' : 'missed',
            r.newFolderReported ? 'reported' : r.newFolderReportedLate ? 'held back until the next event' : 'missed',
            r.newFolderFileReported ? 'reported' : 'missed',
            r.errorEvents,
            errText(r.firstErrors[0]) || '-',
            `fs.watch x${r.spentOnFill}, then ${errText(r.fillError) || 'no error'}`,
          ]),
        ),
      );
    }
    process.stdout.write(`${out.join('\n')}\n`);
  } finally {
    cleanup();
  }
};

if (opts.child) {
  const lib = opts.lib as Lib;
  const shape = shapeFor(Number(opts.folders));
  const entry = opts.entry!;
  const base = opts.base!;
  const limit = Number(readFileSync('/proc/sys/user/max_inotify_watches', 'utf8'));
  if (opts.child === 'bench') await benchChild(lib, entry, base, shape, Number(opts.trials), Number(opts.idle));
  else if (opts.child === 'limit-start') await limitStartChild(lib, entry, base, shape, limit);
  else if (opts.child === 'limit-runtime') await limitRuntimeChild(lib, entry, base, shape, limit);
  process.exit(0); // chokidar or parcel may keep handles open past close(); the result is out
} else {
  await main();
}
