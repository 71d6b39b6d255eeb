// The segments conversions made, on disk under DATA_DIR/playback/<session>/<n>.ts, so a player
// that asks again (a retry, a seek back) gets the same bytes at once. Bounded three ways, so a
// film never piles up on the disk: at most `perSession` segments a session (the least recently
// asked for go first), at most `maxBytes` in all (the oldest anywhere go first), and a session
// nobody asked anything of for the idle time goes whole (the runner sweeps, sweep()). Each
// session's folder holds a `.seen` marker whose time is its last request's.
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isNoSpace } from '../util/disk-space';
import { diskFull } from '../errors';
import { parseSessionId } from './session-id';

export interface SegmentCacheOptions {
  dir: string;
  perSession: number;
  maxBytes: number;
}

const SEEN = '.seen';
const SEGMENT = /^(\d{1,6})\.ts$/;
/** Session folders are named by their session's id, the only names under the folder. */
const isSessionDir = (name: string) => parseSessionId(name) !== undefined;

interface CachedFile {
  path: string;
  size: number;
  usedMs: number;
}

/** The session's folder is gone: it ended while a segment of it was asked for or made. */
export class SessionEnded extends Error {
  constructor(readonly sessionId: string) {
    super(`Playback session ${sessionId} ended`);
  }
}

export class SegmentCache {
  /** Segments being made by this process, so two requests for one segment share one ffmpeg. */
  private readonly making = new Map<string, Promise<string>>();
  /** Of those, the ones not whole yet: the room they need is kept for them. */
  private readonly writing = new Set<string>();

  constructor(readonly options: SegmentCacheOptions) {}

  sessionDir(sessionId: string) {
    if (!isSessionDir(sessionId)) throw new Error(`Not a session id: ${JSON.stringify(sessionId)}`);
    return join(this.options.dir, sessionId);
  }

  /** Marks the session as asked for now (its folder made on the first request). */
  async seen(sessionId: string): Promise<void> {
    const marker = join(this.sessionDir(sessionId), SEEN);
    const now = new Date();
    await utimes(marker, now, now).catch(async () => {
      await mkdir(this.sessionDir(sessionId), { recursive: true });
      await writeFile(marker, '');
    });
  }

  /**
   * The segment's file, made by `make` (which writes the path it is given) when it is not kept
   * already. A segment is renamed into place only once whole: a reader never sees half of one.
   */
  async segment(sessionId: string, index: number, make: (output: string) => Promise<void>): Promise<string> {
    const path = join(this.sessionDir(sessionId), `${index}.ts`);
    const kept = await stat(path).catch(() => undefined);
    if (kept) {
      const now = new Date();
      await utimes(path, now, now).catch(() => undefined);
      return path;
    }
    let pending = this.making.get(path);
    if (!pending) {
      pending = this.make(sessionId, path, make).finally(() => this.making.delete(path));
      this.making.set(path, pending);
    }
    return pending;
  }

  private async make(sessionId: string, path: string, make: (output: string) => Promise<void>): Promise<string> {
    const temp = join(this.sessionDir(sessionId), `.${randomBytes(6).toString('hex')}.tmp.ts`);
    this.writing.add(path);
    try {
      // The folder is made when the session starts and goes when it ends: a segment made ahead
      // that comes after the end must not bring it back.
      if (!(await stat(this.sessionDir(sessionId)).catch(() => undefined))) throw new SessionEnded(sessionId);
      // Room first: the segments being written count against the cap as the whole ones do, so
      // the folder never holds more than the cap, not even while a segment is written.
      await this.trim(sessionId).catch(() => undefined);
      await make(temp);
      await rename(temp, path);
      await this.trim(sessionId, path).catch(() => undefined);
    } catch (err) {
      await rm(temp, { force: true });
      if (isNoSpace(err)) throw diskFull(this.options.dir);
      throw err;
    } finally {
      this.writing.delete(path);
    }
    return path;
  }

  /**
   * Keeps the session within its cap, with room for the segments still being written, and the
   * whole cache within its bytes; `keep` (just made) stays.
   */
  private async trim(sessionId: string, keep?: string): Promise<void> {
    const files = await this.allFiles();
    let total = files.reduce((sum, f) => sum + f.size, 0);
    const drop = async (file: CachedFile) => {
      await rm(file.path, { force: true });
      total -= file.size;
      file.size = -1;
    };
    const dir = this.sessionDir(sessionId);
    // Counted after the listing: one renamed meanwhile is either listed or still reserved.
    const listed = new Set(files.map((f) => f.path));
    let reserved = 0;
    for (const path of this.writing) if (dirname(path) === dir && !listed.has(path)) reserved++;
    const oldestFirst = files.filter((f) => f.path !== keep).sort((a, b) => a.usedMs - b.usedMs);
    const own = oldestFirst.filter((f) => dirname(f.path) === dir);
    const room = Math.max(0, this.options.perSession - reserved - (keep ? 1 : 0));
    for (let i = 0; own.length - i > room; i++) await drop(own[i]!);
    for (const file of oldestFirst) {
      if (total <= this.options.maxBytes) break;
      if (file.size >= 0) await drop(file);
    }
  }

  private async files(dir: string): Promise<CachedFile[]> {
    const names = await readdir(dir).catch(() => [] as string[]);
    const files = await Promise.all(
      names
        .filter((n) => SEGMENT.test(n))
        .map(async (n) => {
          const s = await stat(join(dir, n)).catch(() => undefined);
          return s ? { path: join(dir, n), size: s.size, usedMs: s.mtimeMs } : undefined;
        }),
    );
    return files.filter((f): f is CachedFile => f !== undefined);
  }

  private async sessions(): Promise<string[]> {
    return (await readdir(this.options.dir).catch(() => [] as string[])).filter(isSessionDir);
  }

  private async allFiles(): Promise<CachedFile[]> {
    return (await Promise.all((await this.sessions()).map((s) => this.files(join(this.options.dir, s))))).flat();
  }

  /** Bytes kept now, in all sessions. */
  async bytes(): Promise<number> {
    return (await this.allFiles()).reduce((sum, f) => sum + f.size, 0);
  }

  /** Ends a session's files. A run stopped a moment ago may still be writing one: rm tries again (ENOTEMPTY). */
  async remove(sessionId: string): Promise<void> {
    await rm(this.sessionDir(sessionId), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  }

  /** Removes sessions idle for longer than `idleMs` (or every one, with 0: the runner's start); the sessions removed. */
  async sweep(idleMs: number, now = Date.now()): Promise<string[]> {
    const removed: string[] = [];
    for (const id of await this.sessions()) {
      const seen = await stat(join(this.options.dir, id, SEEN)).catch(() => undefined);
      if (idleMs > 0 && seen && now - seen.mtimeMs <= idleMs) continue;
      await this.remove(id);
      removed.push(id);
    }
    // Anything else under the folder is no session's: a stray from an older version.
    for (const name of await readdir(this.options.dir).catch(() => [] as string[])) {
      if (!isSessionDir(name)) await rm(join(this.options.dir, name), { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
    }
    return removed;
  }

  /** Gives back the space of every finished segment (a player asking again gets it made anew); the bytes freed. */
  async clear(): Promise<number> {
    let freed = 0;
    for (const file of await this.allFiles()) {
      await rm(file.path, { force: true });
      freed += file.size;
    }
    return freed;
  }
}
