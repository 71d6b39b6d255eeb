// Discovery, the first phase of a scan: every video file under a library root, with the
// size and mtime that incremental rescans compare. Follows the naming rules for what to
// skip (hidden, samples, extras, folders holding an `.ignore` marker). The walk itself
// (lib/storage/walk.ts) is bounded: links to folders are followed once and never back into
// the library, above it or into system filesystems, and a tree too big or too deep ends the
// scan with an error instead of eating memory; a subfolder that cannot be read is skipped.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { IGNORE_MARKER, ignoreReason, isSidecarFile, isVideoFile } from '../naming';
import { walk, type WalkLimits } from './walk';

export interface DiscoveredFile {
  /** Relative to the library root, `/`-separated, as named on disk. */
  relPath: string;
  size: number;
  mtimeMs: number;
}

const STAT_CONCURRENCY = 64;

/** What a crawl finds: video files and the sidecar files beside them, with sizes and times. */
export interface DiscoveredTree {
  files: DiscoveredFile[];
  sidecars: DiscoveredFile[];
  /** Folders below the root that could not be read (no permission, an I/O error, gone meanwhile), root-relative: what they hold was not seen. */
  unreadable: string[];
}

export interface CrawlOptions {
  limits: WalkLimits;
  /** Canonical folders never entered (system filesystems, the service's data folder). */
  fences?: readonly string[];
  signal?: AbortSignal;
  /** Told of each folder below the root that could not be read. */
  onUnreadable?(relPath: string): void;
}

/** Relative paths of the video and sidecar files under root that the naming rules keep, sorted. */
export const crawl = (root: string, options: CrawlOptions): Promise<string[]> =>
  walk(root, {
    limits: options.limits,
    ...(options.fences ? { fences: options.fences } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onUnreadable ? { onSkip: (relPath: string, reason: string) => reason === 'unreadable' && options.onUnreadable!(relPath) } : {}),
    // Whole folders are pruned here, so extras and ignored trees are never walked.
    skipDir: (relPath, absPath) => ignoreReason(relPath) !== undefined || existsSync(join(absPath, IGNORE_MARKER)),
    keepFile: (path) => (isVideoFile(path) || isSidecarFile(path)) && ignoreReason(path) === undefined,
  });

/**
 * Sizes and modification times; a file that vanished since the crawl is left out, and so is a
 * file already met under another path (a symlinked folder, a hard link): one file, one item.
 */
export const statAll = async (root: string, relPaths: string[]): Promise<DiscoveredFile[]> => {
  const out: DiscoveredFile[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < relPaths.length; i += STAT_CONCURRENCY) {
    const batch = relPaths.slice(i, i + STAT_CONCURRENCY);
    const stats = await Promise.all(batch.map((p) => stat(join(root, p)).catch(() => undefined)));
    stats.forEach((s, j) => {
      if (!s?.isFile()) return;
      const identity = `${s.dev}:${s.ino}`;
      if (seen.has(identity)) return;
      seen.add(identity);
      out.push({ relPath: batch[j]!, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) });
    });
  }
  return out;
};

export const discoverTree = async (root: string, options: CrawlOptions): Promise<DiscoveredTree> => {
  const unreadable: string[] = [];
  const found = await crawl(root, { ...options, onUnreadable: (relPath) => unreadable.push(relPath) });
  const [files, sidecars] = await Promise.all([statAll(root, found.filter(isVideoFile)), statAll(root, found.filter((p) => !isVideoFile(p)))]);
  return { files, sidecars, unreadable };
};

export const discover = async (root: string, options: CrawlOptions): Promise<DiscoveredFile[]> => (await discoverTree(root, options)).files;
