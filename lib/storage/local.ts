// Media in folders on this machine: a root is a canonical absolute directory path, never the
// filesystem's root, a system filesystem (/proc, /sys ...) or anything inside them, and never
// the service's own data folder or a folder holding it.
import { open, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { pathNotUsable } from '../errors';
import { holdsEntries, usableDirectory, within } from './local-paths';
import { fileByteSource } from './byte-source';
import { discoverTree } from './discover';
import type { LocatedFile, MediaStorage } from './media-storage';
import { systemFences, systemPathReason } from './system-paths';
import type { WalkLimits } from './walk';

export interface LocalStorageOptions {
  /** The service's data folder (DATA_DIR): never a library, never walked. */
  dataDir: string;
  limits: WalkLimits;
}

export const localMediaStorage = ({ dataDir, limits }: LocalStorageOptions): MediaStorage => ({
  kind: 'local',
  async canonicalRoot(input) {
    const canonical = await usableDirectory(input);
    // Read each time: a disk mounted since the start is known at once.
    const why = systemPathReason(canonical, systemFences({ dataDir }), dataDir);
    if (why) throw pathNotUsable(input, why);
    return canonical;
  },
  relativeTo: within,
  async probeRoot(root) {
    try {
      return { state: 'present', empty: !(await holdsEntries(root)) };
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'EIO';
      if (code === 'ENOENT' || code === 'ENOTDIR')
        return { state: 'missing', reason: `The folder ${root} is not there (${code}); is its disk mounted?` };
      return { state: 'unreadable', reason: `The folder ${root} cannot be read (${code})` };
    }
  },
  discover: (root, signal) => discoverTree(root, { limits, fences: systemFences({ dataDir }), ...(signal ? { signal } : {}) }),
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
  async byteSource(root, relPath) {
    const located = await this.locate(root, relPath);
    return located?.path ? fileByteSource(located.path, located.size) : undefined;
  },
  async readRange(file, start, end) {
    if (!file.path) throw new Error('not a file on this machine');
    const source = await fileByteSource(file.path, file.size);
    try {
      const bytes = await source.read(start, Math.max(0, end - start + 1));
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } finally {
      await source.close();
    }
  },
  async readSmall(root, relPath, maxBytes) {
    const located = await this.locate(root, relPath);
    if (!located?.path || located.size > maxBytes) return undefined;
    const file = await open(located.path, 'r').catch(() => undefined);
    if (!file) return undefined;
    try {
      const buffer = Buffer.alloc(located.size);
      const { bytesRead } = await file.read(buffer, 0, located.size, 0);
      return buffer.subarray(0, bytesRead);
    } finally {
      await file.close();
    }
  },
});
