// Discovery, the first phase of a scan: every video file under a library root, with the
// size and mtime that incremental rescans compare. Follows the naming rules for what to
// skip (hidden, samples, extras, folders holding an `.ignore` marker). The walk itself
// (lib/storage/walk.ts) is bounded: links to folders are followed once and never back into
// the library, above it or into system filesystems, and a tree too big or too deep ends the
// scan with an error instead of eating memory; a subfolder that cannot be read is skipped.
import { existsSync, stat, type Stats } from 'node:fs';
import { join } from 'node:path';
import { IGNORE_MARKER, ignoreReason, isSidecarFile, isVideoFile } from '../naming';
import { JobPool } from '../util/pool';
import { walk, type WalkLimits } from './walk';

export interface DiscoveredFile {
  /** Relative to the library root, `/`-separated, as named on disk. */
  relPath: string;
  size: number;
  mtimeMs: number;
}

/**
 * Stats in flight at once, each started as soon as one finishes. With callbacks rather than
 * fs/promises: 10,000 stats took 155-280 ms so, 230-400 ms in slices of 64 awaited whole, and
 * 250-530 ms through a promise per stat (this machine, loaded; docs/benchmarks.md, catalogue).
 */
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
    ...(options.onUnreadable
      ? { onSkip: (relPath: string, reason: string) => reason === 'unreadable' && options.onUnreadable!(relPath) }
      : {}),
    // Whole folders are pruned here, so extras and ignored trees are never walked.
    skipDir: (relPath, absPath) => ignoreReason(relPath) !== undefined || existsSync(join(absPath, IGNORE_MARKER)),
    keepFile: (path) => (isVideoFile(path) || isSidecarFile(path)) && ignoreReason(path) === undefined,
  });

/**
 * Sizes and modification times; a file that vanished since the crawl is left out, and so is a
 * file already met under another path (a symlinked folder, a hard link): one file, one item.
 */
export const statAll = async (root: string, relPaths: string[]): Promise<DiscoveredFile[]> => {
  const stats = new Array<Stats | undefined>(relPaths.length);
  const pool = new JobPool(STAT_CONCURRENCY);
  pool.pushAll(
    relPaths.map((relPath, i) => (done: () => void) => stat(join(root, relPath), (err, s) => ((stats[i] = err ? undefined : s), done()))),
  );
  await pool.finished();
  // In path order, whatever order the answers came in: of one file met twice, the first path is kept.
  const out: DiscoveredFile[] = [];
  const seen = new Set<string>();
  stats.forEach((s, i) => {
    if (!s?.isFile()) return;
    const identity = `${s.dev}:${s.ino}`;
    if (seen.has(identity)) return;
    seen.add(identity);
    out.push({ relPath: relPaths[i]!, size: s.size, mtimeMs: Math.trunc(s.mtimeMs) });
  });
  return out;
};

export const discoverTree = async (root: string, options: CrawlOptions): Promise<DiscoveredTree> => {
  const unreadable: string[] = [];
  const found = await crawl(root, { ...options, onUnreadable: (relPath) => unreadable.push(relPath) });
  const [files, sidecars] = await Promise.all([
    statAll(root, found.filter(isVideoFile)),
    statAll(
      root,
      found.filter((p) => !isVideoFile(p)),
    ),
  ]);
  return { files, sidecars, unreadable };
};

export const discover = async (root: string, options: CrawlOptions): Promise<DiscoveredFile[]> => (await discoverTree(root, options)).files;
