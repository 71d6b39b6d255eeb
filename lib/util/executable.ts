// Outside programs the service runs (ffmpeg, ffprobe): found as a shell would, and run bounded
// in time and in what is kept of their output, at a lower CPU priority when asked, so that no
// child can hold the request path or grow the memory of the process that started it. A child
// stays in its parent's process group: stopping the service (which signals the group) takes
// it along.
import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { setPriority } from 'node:os';
import { delimiter, dirname, isAbsolute, join } from 'node:path';

/** The executable's path, or null when there is none (a name is looked up on PATH, as a shell would). */
export const findExecutable = (name: string): string | null => {
  if (name === '' || name === 'off') return null;
  const candidates = isAbsolute(name)
    ? [name]
    : (process.env.PATH ?? '')
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(dir, name));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
};

/** ffprobe beside the ffmpeg configured (FFMPEG_PATH names ffmpeg; its ffprobe sits in the same folder). */
export const ffprobeBeside = (ffmpeg: string): string => (isAbsolute(ffmpeg) ? join(dirname(ffmpeg), 'ffprobe') : 'ffprobe');

export interface RunOptions {
  /** The run is killed (SIGKILL) after this long. */
  timeoutMs: number;
  /** Standard output kept, at most (the rest is read and dropped); 0 ignores it. */
  maxStdoutBytes?: number;
  /** Standard output handed over line by line instead of kept (a listing of any length in bounded memory). */
  onLine?: (line: string) => void;
  /** Added to the child's nice value: above 0 yields the CPU to the request path. */
  niceness?: number;
  /** Ends the run early (a request whose client left). */
  signal?: AbortSignal;
}

export interface RunResult {
  /** 0 for success; null when killed. */
  code: number | null;
  timedOut: boolean;
  stdout: string;
  /** The last 2,000 characters of standard error. */
  stderr: string;
  /** Why it could not be started (not found, not executable). */
  startError?: string;
}

/** Runs a program to its end; never rejects (one that cannot start says why in startError). */
export const runBounded = (executable: string, args: readonly string[], options: RunOptions): Promise<RunResult> =>
  new Promise((resolve) => {
    const maxStdout = options.maxStdoutBytes ?? 0;
    const { onLine } = options;
    const child = spawn(executable, args, { stdio: ['ignore', maxStdout > 0 || onLine ? 'pipe' : 'ignore', 'pipe'] });
    if (options.niceness && child.pid !== undefined) {
      try {
        setPriority(child.pid, options.niceness);
      } catch {
        // gone already, or not allowed: it runs at the service's own priority
      }
    }
    const chunks: Buffer[] = [];
    let kept = 0;
    let partial = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      if (onLine) {
        const lines = (partial + chunk.toString('latin1')).split('\n');
        partial = lines.pop()!.slice(-4_096);
        for (const line of lines) onLine(line);
        return;
      }
      if (kept >= maxStdout) return;
      chunks.push(chunk.subarray(0, maxStdout - kept));
      kept += chunk.length;
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2_000);
    });
    let timedOut = false;
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, options.timeoutMs);
    options.signal?.addEventListener('abort', kill, { once: true });
    let settled = false;
    const settle = (code: number | null, startError?: string) => {
      if (settled) return;
      settled = true;
      if (onLine && partial) onLine(partial);
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', kill);
      resolve({ code, timedOut, stdout: Buffer.concat(chunks).toString('utf8'), stderr, ...(startError ? { startError } : {}) });
    };
    child.on('error', (err) => settle(null, err.message));
    child.on('close', (code) => settle(code));
  });

/** The line of a failed run worth showing: its last line of standard error, `path` (the server's own) named "the file". */
export const lastLine = (text: string, path?: string) => {
  const line = text.trim().split('\n').at(-1)?.trim() ?? '';
  return path ? line.replaceAll(`${path}: `, '').replaceAll(path, 'the file') : line;
};
