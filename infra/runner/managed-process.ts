// A child process the runner owns: started in its own process group (so stopping it stops
// its children too), optionally restarted with backoff when it dies on its own, and stopped
// with SIGTERM then SIGKILL.
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import type { Log } from '../../lib/log';

export interface ManagedOptions {
  name: string;
  command: string;
  args: string[];
  options?: SpawnOptions;
  log: Log;
  /** Restart when the process exits without being asked to. */
  restart?: boolean;
  /** Runs after every start (e.g. wait until ready); a failure counts as a crash. */
  onStart?: (child: ChildProcess) => Promise<void>;
  onOutput?: (child: ChildProcess) => void;
}

const HAS_PROCFS = existsSync('/proc/self/stat');

/**
 * Whether a process still runs. A zombie counts as gone: when a runner is killed outright its
 * children are re-parented, and where PID 1 does not reap (many containers) they stay zombies
 * after they exit, which `kill(pid, 0)` alone would still report as alive.
 */
export const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (!HAS_PROCFS) return true; // macOS: the signal check is all there is
  try {
    // /proc/<pid>/stat: "pid (comm) S ..."; comm may hold spaces and parentheses.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return false; // gone between the two checks
  }
};

/** Signals a whole process group, ignoring one that is already gone. */
export const killGroup = (pid: number, signal: NodeJS.Signals) => {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      /* already gone */
    }
  }
};

export const stopGroup = async (pid: number, graceMs = 5_000) => {
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  if (isAlive(pid)) killGroup(pid, 'SIGKILL');
  // The group may outlive its leader by a moment (esbuild, JVM threads): sweep it.
  killGroup(pid, 'SIGKILL');
};

/** The most a start's failure quotes of what the child wrote: its last lines, where the cause is. */
const LAST_WORDS = 2_000;

/**
 * The end of what a starting child writes, so a start that fails says why (a port taken, a
 * missing module) even where the log shows only JSON records. Both streams: serverless prints
 * some of its errors to stdout.
 */
const lastWords = (child: ChildProcess) => {
  let tail = '';
  const keep = (chunk: Buffer | string) => {
    tail = (tail + String(chunk)).slice(-LAST_WORDS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return {
    text: () => tail.trim(),
    stop: () => {
      child.stdout?.off('data', keep);
      child.stderr?.off('data', keep);
    },
  };
};

export class ManagedProcess {
  private child: ChildProcess | undefined;
  private stopping = false;
  private restarts = 0;

  constructor(private readonly opts: ManagedOptions) {}

  get pid() {
    return this.child?.pid;
  }

  async start(): Promise<void> {
    const { command, args, options, log, name } = this.opts;
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...options, detached: true });
    this.child = child;
    this.opts.onOutput?.(child);
    const said = lastWords(child);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => {
        // Its last words may still be in the pipes: wait a moment for them to close.
        const closed = new Promise((r) => child.once('close', r));
        void Promise.race([closed, new Promise((r) => setTimeout(r, 500))]).then(() =>
          reject(new Error(`${name} exited (${signal ?? code}) while starting${said.text() ? `: ${said.text()}` : ''}`)),
        );
      }),
    );
    exited.catch(() => {});
    let ready = false;
    child.once('exit', (code, signal) => {
      // A child that dies while starting fails start(); the caller decides what happens then.
      if (!ready || this.stopping || this.child !== child) return;
      log.error({ process: name, code, signal }, 'process exited unexpectedly');
      if (this.opts.restart) void this.restartLater();
    });
    try {
      await Promise.race([this.opts.onStart?.(child) ?? Promise.resolve(), exited]);
    } catch (err) {
      killGroup(child.pid!, 'SIGKILL');
      throw err;
    } finally {
      said.stop();
    }
    ready = true;
  }

  private async restartLater() {
    const delay = Math.min(30_000, 500 * 2 ** Math.min(this.restarts++, 6));
    await new Promise((r) => setTimeout(r, delay));
    if (this.stopping) return;
    try {
      await this.start();
      this.opts.log.warn({ process: this.opts.name, restarts: this.restarts }, 'process restarted');
      this.restarts = 0;
    } catch (err) {
      this.opts.log.error({ process: this.opts.name, err }, 'restart failed');
      if (!this.stopping) void this.restartLater();
    }
  }

  async stop(graceMs?: number) {
    this.stopping = true;
    const pid = this.child?.pid;
    if (pid !== undefined) await stopGroup(pid, graceMs);
  }
}
