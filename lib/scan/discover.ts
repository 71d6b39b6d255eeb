// Discovery, the first phase of a scan: every video file under a library root, with the
// size and mtime that incremental rescans compare. Follows the naming rules for what to
// skip (hidden, samples, extras, folders holding an `.ignore` marker). Symlinked folders
// are followed once (fdir remembers where it has been, so a link loop ends); a subfolder
// that cannot be read is skipped rather than failing the scan.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fdir } from 'fdir';
import { IGNORE_MARKER, ignoreReason, isVideoFile } from '../naming';

/** Files next to the videos that say something about them: Kodi NFOs and local artwork. */
const SIDECAR = /\.(?:nfo|jpe?g|png|webp)$/iu;
export const isSidecarFile = (relPath: string) => SIDECAR.test(relPath);

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
}

/** Relative paths of the video and sidecar files under root that the naming rules keep. */
export const crawl = (root: string, signal?: AbortSignal): Promise<string[]> => {
  const builder = new fdir()
    .withRelativePaths()
    .withPathSeparator('/')
    .withSymlinks({ resolvePaths: false })
    // Whole folders are pruned here, so extras and ignored trees are never walked.
    .exclude((_name, dirPath) => ignoreReason(relative(root, dirPath)) !== undefined || existsSync(join(dirPath, IGNORE_MARKER)))
    .filter((path, isDirectory) => !isDirectory && (isVideoFile(path) || isSidecarFile(path)) && ignoreReason(path) === undefined);
  if (signal) builder.withAbortSignal(signal);
  return builder.crawl(root).withPromise();
};

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

export const discoverTree = async (root: string, signal?: AbortSignal): Promise<DiscoveredTree> => {
  const found = (await crawl(root, signal)).sort();
  const [files, sidecars] = await Promise.all([statAll(root, found.filter(isVideoFile)), statAll(root, found.filter((p) => !isVideoFile(p)))]);
  return { files, sidecars };
};

export const discover = async (root: string, signal?: AbortSignal): Promise<DiscoveredFile[]> => (await discoverTree(root, signal)).files;
