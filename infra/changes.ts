// What the folder monitor collects for one library between two scans: the folders where
// something changed, and the files that may still be growing. Bounded: past MAX_FOLDERS
// distinct folders the whole library is scanned instead (still one incremental scan).
import { basename, dirname, relative, sep } from 'node:path';
import { SUBS_FOLDERS } from '../lib/naming/sidecars';

const MAX_FOLDERS = 1_000;
const MAX_FILES = 1_000;

export class PendingChanges {
  private folders = new Set<string>();
  private files = new Set<string>();
  private created = new Set<string>();
  /** When the last change came. */
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

  /** A folder to scan with the next changes (one whose scan could not start yet). */
  addFolder(folder: string) {
    this.folders.add(folder);
    if (this.folders.size > MAX_FOLDERS) this.folders = new Set([this.root]);
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
  const split = (f: string) => relative(root, f).split(sep).filter((s) => s !== '' && s !== '.');
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
