// The watcher itself: @parcel/watcher's recursive watch of a folder (inotify on Linux;
// docs/benchmarks.md has why this one), and the few looks at the disk the monitor needs beside
// it. Loaded on first use, so an instance that watches nothing never loads its native module.
import { readdir, stat, statfs } from 'node:fs/promises';
import { sep } from 'node:path';
import type { AsyncSubscription, Event } from '@parcel/watcher';

export type FolderWatch = AsyncSubscription;
export type FolderEvent = Event;

/** Watches `path` and everything below it; `onEvents` gets each batch of changes, or the watch's failure. */
export const watchFolder = async (path: string, onEvents: (err: Error | null, events: FolderEvent[]) => void): Promise<FolderWatch> => {
  const { subscribe } = await import('@parcel/watcher');
  // Named, so the watcher does not first look for watchman through a shell (a child left unreaped).
  const options = process.platform === 'linux' ? { backend: 'inotify' as const } : {};
  return subscribe(path, onEvents, options);
};

/** The statfs type of the filesystem holding `path`, or undefined when it cannot be told. */
export const filesystemType = (path: string): Promise<number | undefined> =>
  statfs(path).then(
    (s) => s.type,
    () => undefined,
  );

/** Folders below `roots` (at most 2,000 looked at) whose contents changed since `since`. */
export const changedFolders = async (roots: string[], since: number): Promise<string[]> => {
  const changed: string[] = [];
  const queue = [...roots];
  for (let looked = 0; queue.length && looked < 2_000; looked++) {
    const dir = queue.shift()!;
    const info = await stat(dir).catch(() => undefined);
    if (!info?.isDirectory()) continue;
    if (info.mtimeMs >= since) changed.push(dir);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) if (e.isDirectory()) queue.push(`${dir}${sep}${e.name}`);
  }
  return changed;
};
