// The technical side of the analysing phase: duration, container, codecs and languages read
// from each new or changed video file's headers (MediaInfoLib reads only the ranges it needs),
// before the items are written, so it costs no extra write. A file that cannot be read
// (broken, truncated, not media) gets `tech: null` and is counted for this step only.
import type { CatalogItem, FileRef } from '../catalog/model';
import { eachLimited } from '../util/pool';
import type { Log } from '../log';
import { probeMedia } from '../media/probe';
import type { TechnicalInfo } from '../media/technical-info';
import type { MediaStorage } from '../storage';

const CONCURRENCY = 4;

export interface ProbeTally {
  probed: number;
  failed: number;
}

/** The items with `tech` on each of their files. */
export const analyzeFiles = async (
  deps: { storage: MediaStorage; log: Log },
  root: string,
  items: CatalogItem[],
  tally: ProbeTally,
): Promise<CatalogItem[]> => {
  // A file holding two episodes is read once; one already read (a moved file) is not read again.
  const paths = [...new Set(items.flatMap((i) => (i.entity === 'tvshow' ? [] : i.files.filter((f) => f.tech === undefined).map((f) => f.relPath))))];
  const found = new Map<string, TechnicalInfo | null>();
  await eachLimited(paths, CONCURRENCY, async (relPath) => {
    const source = await deps.storage.byteSource(root, relPath).catch(() => undefined);
    try {
      if (!source) throw new Error('file gone');
      found.set(relPath, await probeMedia(source));
      tally.probed++;
    } catch (err) {
      found.set(relPath, null);
      tally.failed++;
      deps.log.info({ file: relPath, reason: (err as { reason?: string }).reason ?? (err as Error).message }, 'no technical info for a file');
    } finally {
      await source?.close().catch(() => undefined);
    }
  });
  const withTech = (f: FileRef): FileRef => (f.tech !== undefined ? f : { ...f, tech: found.get(f.relPath) ?? null });
  return items.map((i) => (i.entity === 'tvshow' ? i : { ...i, files: i.files.map(withTech) }));
};
