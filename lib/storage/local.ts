// Media in folders on this machine: a root is a canonical absolute directory path.
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { usableDirectory, within } from '../library/paths';
import { discover } from '../scan/discover';
import type { LocatedFile, MediaStorage } from './media-storage';

export const localStorage: MediaStorage = {
  kind: 'local',
  canonicalRoot: usableDirectory,
  relativeTo: within,
  discover,
  async locate(root, relPath) {
    try {
      // Resolved on both sides: a symlink may lead anywhere, and only files inside the root count.
      const [canonicalRoot, path] = await Promise.all([realpath(root), realpath(join(root, relPath))]);
      if (within(canonicalRoot, path) === undefined) return undefined;
      const info = await stat(path);
      if (!info.isFile()) return undefined;
      return { path, size: info.size, mtimeMs: info.mtimeMs } satisfies LocatedFile;
    } catch {
      return undefined;
    }
  },
};
