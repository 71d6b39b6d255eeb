// Analysing, second pass: the technical info (duration, codecs, languages) of every video file
// that has none yet (the reader beside the writes did not get to it in time, write.ts), read
// from its header once the items are listed, so the list never waits for the disk. Files are
// read a few at a time (lib/scan/analyze.ts), in path order (a NAS reads neighbours faster),
// and the next chunk is read while this one is written. Items the metadata phase describes
// next are left to it: it reads their headers beside the provider's answers and writes both
// at once, one write fewer per film. A resumed or later scan finds what is still unread in
// the index: nothing is read twice.
import type { CatalogItem, IndexEntry } from '../../catalog/model';
import { ascending } from '../../util/order';
import type { ScanContext } from '../context';
import { analyzeFiles, type HeadersRead, type ProbeTally } from '../analyze';
import { RunningCounts } from '../plan';
import type { Planned } from './plan';

/** Items per step: one checkpoint and one batch write each. */
const CHUNK = 200;

/** The analysing phase's bar: the writes fill the first half, this pass the second. */
export const WRITES_SHARE: [number, number] = [0, 0.5];
export const TECHNICAL_SHARE: [number, number] = [0.5, 1];

const unread = (e: IndexEntry) => e.entity !== 'tvshow' && (e.files ?? []).some((f) => f.tech === undefined);
const firstPath = (e: IndexEntry) => e.files?.[0]?.relPath ?? '';

/** False when the slice ended first. */
export const technical = async (ctx: ScanContext, { plan, entries, metadataWork }: Planned, alreadyRead: HeadersRead): Promise<boolean> => {
  const { counts } = ctx;
  const described = new Set(metadataWork.map((e) => e.id));
  const work = [...entries.values()]
    .filter((e) => unread(e) && !described.has(e.id))
    .sort((a, b) => ascending(firstPath(a), firstPath(b)) || ascending(a.id, b.id));
  // This run's own writes are at hand; anything else (an earlier run's, a stopped scan's) is read.
  const written = new Map(plan.writes.filter((w) => w.change !== 'moved').map((w) => [w.item.id, w.item]));
  const itemsOf = async (chunk: IndexEntry[]): Promise<CatalogItem[]> => {
    const missing = chunk.filter((e) => !written.has(e.id)).map((e) => e.id);
    const stored = new Map((missing.length ? await ctx.catalog.getMany(missing) : []).map((i) => [i.id, i]));
    // An item gone since (removed meanwhile) is not brought back.
    return chunk.flatMap((e) => written.get(e.id) ?? stored.get(e.id) ?? []);
  };
  const read = async (chunk: IndexEntry[]) => {
    const tally: ProbeTally = { probed: 0, failed: 0 };
    return { items: await analyzeFiles(ctx, ctx.library.path, await itemsOf(chunk), tally, alreadyRead), tally };
  };
  // The library's total duration grows with what is read.
  const live = new RunningCounts();
  for (const e of entries.values()) live.set(e);
  await ctx.step({ phase: 'analyzing', processed: 0, total: work.length, share: TECHNICAL_SHARE, counts }, { persist: false });
  return ctx.inStepsAhead(work, CHUNK, read, async ({ items, tally }, chunk, done) => {
    await ctx.catalog.put(items, { quiet: true });
    for (const item of items) {
      const entry = entries.get(item.id);
      if (!entry || item.entity === 'tvshow') continue;
      entry.files = item.files;
      live.set(entry);
    }
    counts.probed += tally.probed;
    counts.probeFailed += tally.failed;
    await ctx.libraries.recordCounts(ctx.library.id, live.value);
    await ctx.step({ phase: 'analyzing', processed: done, total: work.length, share: TECHNICAL_SHARE, counts, after: chunk.at(-1)!.id });
  });
};
