// The folder monitor's rules, as pure decisions over paths, times and error messages: which
// changes matter, how they collect per library between two scans (the folders where something
// changed, the files that may still be growing), when a quiet folder's changes go to a scan and
// of which one folder, whether a scan saw them already, and what a library's status says when its
// folder cannot be watched. The runner's watcher (infra/runner/monitor/) does the watching, the
// timers and the disk, and asks these; the upkeep function (upkeep.ts) starts the scans. Bounded:
// past MAX_FOLDERS distinct folders the whole library is scanned instead (still one incremental
// scan).
import { basename, dirname, relative, sep } from 'node:path';
import { SUBS_FOLDERS } from '../naming/sidecars';

const MAX_FOLDERS = 1_000;
const MAX_FILES = 1_000;

/** A folder that could not be watched is tried again after this long. */
export const RETRY_WATCH_MS = 5 * 60_000;

/** Changes of a library whose scan is running wait at least this long for the next one. */
const BUSY_WAIT_MS = 5_000;

/** Filesystems whose changes made on other machines send no events here, by statfs type. */
const NETWORK_FS: Record<number, string> = { 0x6969: 'NFS', 0x517b: 'SMB', 0xff534d42: 'CIFS', 0xfe534d42: 'SMB2', 0x65735546: 'FUSE' };

/** A change below a hidden file or folder (a name starting with `.`, inside the root) is no library's business. */
export const changeMatters = (root: string, path: string) =>
  !path
    .slice(root.length)
    .split(sep)
    .some((s) => s.startsWith('.'));

/** How long changes must still wait for their folder to be quiet: 0 once nothing came for `quietMs`. */
export const quietWait = (lastChangeAt: number, now: number, quietMs: number) => Math.max(0, quietMs - (now - lastChangeAt));

/** A changed file written within the quiet period may still be being copied: its changes wait another period. */
export const stillWritten = (mtimes: number[], now: number, quietMs: number) => mtimes.some((t) => t > now - quietMs);

/** How long changes wait when the scan they would start cannot (one of that library runs): they go with the next. */
export const busyWait = (quietMs: number) => Math.max(quietMs, BUSY_WAIT_MS);

/**
 * Whether a look at a library's root calls for a scan of the whole library: a root that went
 * away or came back since the last look, or at the first look one that disagrees with the
 * library's status (offline yet holding files, online yet empty or gone).
 */
export const rootNeedsScan = (seen: boolean, lastSeen: boolean | undefined, offline: boolean) =>
  lastSeen === undefined ? seen === offline : seen !== lastSeen;

/**
 * Whether a scan saw a change already, so that the change needs no scan of its own: a completed
 * scan of the change's library, of a folder holding the change's folder (`holds`), created at or
 * after `before`, the time by which the change had happened (when the monitor last heard of it,
 * or when the watch began that could not hear of what came before). A running scan may have
 * walked past the folder before the change: it waits until it has completed.
 */
export const scanSaw = (
  job: { libraryId: string; path: string; status: string; createdAt: string },
  change: { libraryId: string; path: string; before: number },
  holds: (folder: string, path: string) => boolean,
) =>
  job.status === 'completed' &&
  job.libraryId === change.libraryId &&
  Date.parse(job.createdAt) >= change.before &&
  holds(job.path, change.path);

/** The library status's line for a folder that could not be watched. */
export const watchProblem = (path: string, err: unknown) => {
  const message = (err as Error).message ?? String(err);
  return /ENOSPC|inotify|too many|limit/iu.test(message)
    ? `${path} cannot be watched: the system's limit of watched folders is reached (raise fs.inotify.max_user_watches); the schedule rescans it`
    : `${path} cannot be watched (${message}); the schedule rescans it`;
};

/** The library status's line for a folder watched on a network share (by its statfs type), or null when it is not on one. */
export const networkShareProblem = (path: string, fsType: number | undefined) => {
  const network = fsType === undefined ? undefined : NETWORK_FS[fsType];
  return network
    ? `${path} is on a network share (${network}): changes made from other machines may not be noticed; the schedule rescans it`
    : null;
};

/** The folder to scan when `folder` may have been removed meanwhile: its nearest remaining parent (the root at most). */
export const nearestRemaining = async (root: string, folder: string, isFolder: (path: string) => Promise<boolean>) => {
  let nearest = folder;
  while (nearest !== root && !(await isFolder(nearest))) nearest = dirname(nearest);
  return nearest;
};

export class PendingChanges {
  private folders = new Set<string>();
  private files = new Set<string>();
  private created = new Set<string>();
  /** When the last change came: every change collected had happened by then. */
  lastAt = 0;

  constructor(readonly root: string) {}

  get empty() {
    return this.folders.size === 0;
  }

  /** A changed path (created, written or deleted): its folder is scanned. */
  add(path: string, change: 'create' | 'update' | 'delete', now: number) {
    const written = change !== 'delete';
    if (change === 'create' && this.created.size < MAX_FILES) this.created.add(path);
    const rel = relative(this.root, path);
    if (rel.startsWith('..') || rel === '') this.folders.add(this.root);
    else this.folders.add(videoFolderOf(this.root, dirname(path)));
    if (this.folders.size > MAX_FOLDERS) this.folders = new Set([this.root]);
    if (written && this.files.size < MAX_FILES) this.files.add(path);
    this.lastAt = now;
  }

  /**
   * A folder to scan with the next changes, holding changes that had happened by `at`: one
   * whose scan could not start yet, or the root when what came before the watch is caught up.
   */
  addFolder(folder: string, at: number) {
    this.folders.add(folder);
    if (this.folders.size > MAX_FOLDERS) this.folders = new Set([this.root]);
    this.lastAt = Math.max(this.lastAt, at);
  }

  /** Files written since the last scan: one whose time is still recent is still being copied. */
  written(): string[] {
    return [...this.files];
  }

  /** Paths created since the last scan (a folder among them may hold files no event told of). */
  createdPaths(): string[] {
    return [...this.created];
  }

  /** The one folder to scan (the deepest holding every change) and a fresh start. */
  take(): string {
    const folders = [...this.folders];
    this.folders.clear();
    this.files.clear();
    this.created.clear();
    return commonFolder(this.root, folders);
  }
}

/**
 * A subtitle in `Subs/` (or a folder inside it) belongs to the videos of the folder above, so
 * that folder is the one to scan: a scan of `Subs/` alone holds no video to give it to.
 */
const videoFolderOf = (root: string, folder: string): string => {
  const isSubs = (dir: string) => dir !== root && relative(root, dir) !== '' && SUBS_FOLDERS.has(basename(dir).toLowerCase());
  if (isSubs(folder)) return dirname(folder);
  if (isSubs(dirname(folder))) return dirname(dirname(folder));
  return folder;
};

/** The deepest folder holding all of `folders` (never above `root`). */
export const commonFolder = (root: string, folders: string[]): string => {
  if (folders.length === 0) return root;
  const split = (f: string) =>
    relative(root, f)
      .split(sep)
      .filter((s) => s !== '' && s !== '.');
  let common = split(folders[0]!);
  for (const f of folders.slice(1)) {
    const parts = split(f);
    let i = 0;
    while (i < common.length && i < parts.length && common[i] === parts[i]) i++;
    common = common.slice(0, i);
  }
  if (common.some((s) => s === '..')) return root;
  return common.length ? `${root}${sep}${common.join(sep)}` : root;
};
