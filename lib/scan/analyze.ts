// The technical side of the analysing phase: duration, container, codecs and languages read
// from each new or changed video file's header (MediaInfoLib reads only the ranges it needs).
// Headers are read a few at a time, beside the item writes and never before them: a
// HeaderReader runs ahead of the writes in their order, and each write takes what has been
// read by then; what it has not is written by the second pass (phases/technical.ts). A file
// that cannot be read (broken, truncated, not media) gets `tech: null` and is counted for
// that step only.
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

interface ReadDeps {
  storage: MediaStorage;
  log: Log;
}

type Found = Map<string, TechnicalInfo | null>;
/** Headers read and not yet written, by file: what a later pass takes instead of reading again. */
export type HeadersRead = ReadonlyMap<string, TechnicalInfo | null>;

/** One file's header; null when it cannot be read. */
const readHeader = async (deps: ReadDeps, root: string, relPath: string): Promise<TechnicalInfo | null> => {
  const source = await deps.storage.byteSource(root, relPath).catch(() => undefined);
  try {
    if (!source) throw new Error('file gone');
    return await probeMedia(source);
  } catch (err) {
    deps.log.info({ file: relPath, reason: (err as { reason?: string }).reason ?? (err as Error).message }, 'no technical info for a file');
    return null;
  } finally {
    await source?.close().catch(() => undefined);
  }
};

/** The video files of `items` whose headers have not been read, each once (a file holding two episodes). */
export const unreadPaths = (items: readonly CatalogItem[]): string[] => [
  ...new Set(items.flatMap((i) => (i.entity === 'tvshow' ? [] : i.files.filter((f) => f.tech === undefined).map((f) => f.relPath)))),
];

/** The items with what `found` holds of their files, each file counted once in `tally`. */
const withFound = (items: CatalogItem[], found: Found, tally: ProbeTally): CatalogItem[] => {
  const counted = new Set<string>();
  const withTech = (f: FileRef): FileRef => {
    if (f.tech !== undefined || !found.has(f.relPath)) return f;
    const tech = found.get(f.relPath)!;
    if (!counted.has(f.relPath)) {
      counted.add(f.relPath);
      tally[tech ? 'probed' : 'failed']++;
    }
    return { ...f, tech };
  };
  return items.map((i) => (i.entity === 'tvshow' ? i : { ...i, files: i.files.map(withTech) }));
};

/** The items with `tech` on each of their files: what `known` holds is not read again. */
export const analyzeFiles = async (
  deps: ReadDeps,
  root: string,
  items: CatalogItem[],
  tally: ProbeTally,
  known?: HeadersRead,
): Promise<CatalogItem[]> => {
  const found: Found = new Map();
  const paths = unreadPaths(items);
  for (const p of paths) if (known?.has(p)) found.set(p, known.get(p)!);
  await eachLimited(
    paths.filter((p) => !found.has(p)),
    CONCURRENCY,
    async (relPath) => void found.set(relPath, await readHeader(deps, root, relPath)),
  );
  return withFound(items, found, tally);
};

/**
 * Reads the headers of `paths` in order, a few at a time, at most `maxAhead` files beyond what
 * the writes have taken (what it holds meanwhile). The writes never wait for it: `take` gives
 * what has been read.
 */
export class HeaderReader {
  private readonly found: Found = new Map();
  private readonly mine: ReadonlySet<string>;
  /** Files of this reader's list whose items were written (the list's order is the writes'). */
  private taken = 0;
  private stopped = false;
  private waiting: Array<() => void> = [];
  private readonly done: Promise<void>;

  constructor(deps: ReadDeps, root: string, paths: readonly string[], maxAhead: number) {
    this.mine = new Set(paths);
    let next = 0;
    this.done = eachLimited(Array.from({ length: Math.min(CONCURRENCY, paths.length) }), CONCURRENCY, async () => {
      for (;;) {
        while (!this.stopped && next - this.taken >= maxAhead) await new Promise<void>((r) => this.waiting.push(r));
        // Files whose items were written before they were read are left to the second pass.
        next = Math.max(next, this.taken);
        if (this.stopped || next >= paths.length) return;
        const relPath = paths[next++]!;
        this.found.set(relPath, await readHeader(deps, root, relPath));
      }
    });
  }

  private wake() {
    for (const resolve of this.waiting.splice(0)) resolve();
  }

  /** The items of one write with what has been read of their files; the reader may run on past them. */
  take(items: CatalogItem[], tally: ProbeTally): CatalogItem[] {
    const out = withFound(items, this.found, tally);
    for (const p of unreadPaths(items)) {
      this.found.delete(p);
      if (this.mine.has(p)) this.taken++;
    }
    this.wake();
    return out;
  }

  /** Stops reading; what was read and not taken is given back for the second pass. */
  async stop(): Promise<HeadersRead> {
    this.stopped = true;
    this.wake();
    await this.done;
    return this.found;
  }
}
