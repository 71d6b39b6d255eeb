// Discovering: the files under the scanned folder, and the library's index to compare them
// with, read at the same time (one reads the disk, the other the database). Always redone,
// resumed or not: it is cheap, and the disk may have changed since the last run.
import type { IndexEntry } from '../../catalog/model';
import type { DiscoveredFile } from '../../storage/discover';
import type { ScanContext } from '../context';
import { checkNotEmptied, markOnline } from '../offline';

export interface Discovered {
  /** Video files, library-relative. */
  files: DiscoveredFile[];
  /** NFO and image files beside them, library-relative. */
  sidecars: DiscoveredFile[];
  /** Folders that could not be read, library-relative: nothing below them is removed. */
  unreadable: string[];
  index: IndexEntry[];
  /** Whether the index came from the manifest the last completed scan wrote. */
  fromManifest: boolean;
  timing: { startedAt: number; discoveredMs: number; indexedMs: number };
}

/** The library's index: its manifest when a whole one is there, else one item per file. */
const readIndex = async (ctx: ScanContext) => {
  try {
    const index = await ctx.manifests.read(ctx.library.id);
    if (index) return { index, fromManifest: true };
  } catch (err) {
    ctx.log.warn({ err, libraryId: ctx.library.id }, 'library manifest unreadable; reading the index');
  }
  return { index: await ctx.catalog.index(ctx.library.id), fromManifest: false };
};

export const discover = async (ctx: ScanContext): Promise<Discovered> => {
  await ctx.step({ phase: 'discovering', processed: 0, total: 0 });
  const timing = { startedAt: ctx.clock(), discoveredMs: 0, indexedMs: 0 };
  const [tree, { index, fromManifest }] = await Promise.all([
    ctx.storage.discover(ctx.job.path).finally(() => (timing.discoveredMs = ctx.clock() - timing.startedAt)),
    readIndex(ctx).finally(() => (timing.indexedMs = ctx.clock() - timing.startedAt)),
  ]);
  checkNotEmptied(ctx.library, ctx.rootEmpty, index);
  await markOnline(ctx, ctx.library);
  const inLibrary = (f: DiscoveredFile) => ({ ...f, relPath: ctx.scope ? `${ctx.scope}/${f.relPath}` : f.relPath });
  const files = tree.files.map(inLibrary);
  ctx.counts.discovered = files.length;
  await ctx.step({ phase: 'discovering', processed: files.length, total: files.length, counts: ctx.counts });
  const unreadable = tree.unreadable.map((relPath) => (ctx.scope ? `${ctx.scope}/${relPath}` : relPath));
  return { files, sidecars: tree.sidecars.map(inLibrary), unreadable, index, fromManifest, timing };
};
