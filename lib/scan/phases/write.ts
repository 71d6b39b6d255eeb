// Analysing, first pass: new and changed items written as soon as their names are read, with
// whatever of their files' headers a reader running beside the writes has read by then (the
// list never waits for the disk: the rest follows, technical.ts), then what is gone removed
// with its artwork. In chunks, the catalogue's version moved and the job saved after each.
import { removeArtworkOf } from '../../artwork/store';
import type { CatalogItem } from '../../catalog/model';
import { HeaderReader, unreadPaths, type HeadersRead, type ProbeTally } from '../analyze';
import type { ScanContext } from '../context';
import { noteChanged } from '../job';
import { mergeMoved } from '../moved';
import { RunningCounts, type PlannedWrite } from '../plan';
import type { Planned } from './plan';
import { WRITES_SHARE } from './technical';

/**
 * Items written per step: each step is one checkpoint (a job save), one heartbeat and one
 * version bump naming its items, and it ends by waiting for its last batch calls. Steps of 400
 * listed 10,000 films at 67% of the bare batch-write rate, of 1,000 at 75-81%, of 2,000 at
 * 75-92% (82-84% in the middle of six runs; docs/benchmarks.md, catalogue); a step takes about
 * two seconds, and its move names half the ids one can (lib/catalog/changes.ts).
 */
export const WRITE_CHUNK = 2_000;

export interface Written {
  /** False when the slice ended first. */
  finished: boolean;
  /** Headers read beside the writes after their items were written: the later passes take them from here. */
  alreadyRead: HeadersRead;
}

export const write = async (ctx: ScanContext, planned: Planned): Promise<Written> => {
  // The reader may run a whole step ahead, so it can have read a step's files by the time the
  // step is written (1,000 ahead left half of each step to the second pass: a second write).
  const paths = unreadPaths(planned.plan.writes.filter((w) => w.change !== 'moved').map((w) => w.item));
  const reader = new HeaderReader(ctx, ctx.library.path, paths, WRITE_CHUNK);
  let finished: boolean;
  try {
    finished = await writeAll(ctx, planned, reader);
  } catch (err) {
    await reader.stop();
    throw err;
  }
  return { finished, alreadyRead: await reader.stop() };
};

const writeAll = async (ctx: ScanContext, { plan, entries }: Planned, reader: HeaderReader): Promise<boolean> => {
  const { counts } = ctx;
  const total = counts.discovered;
  // The library's counts follow the writes, so lists' totals count what is listed: what is
  // there now is the index-to-be without the items still to add, with those still to remove.
  const adding = new Set(plan.writes.filter((w) => w.change === 'added').map((w) => w.item.id));
  const live = new RunningCounts();
  for (const e of entries.values()) if (!adding.has(e.id)) live.set(e);
  for (const e of plan.removals) live.set(e);
  const recordCounts = () => ctx.libraries.recordCounts(ctx.library.id, live.value);
  const written = await ctx.inSteps(plan.writes, WRITE_CHUNK, async (chunk: PlannedWrite[]) => {
    const probes: ProbeTally = { probed: 0, failed: 0 };
    const items = reader.take(await withStored(ctx, chunk), probes);
    // Each put whole, shows before their episodes (the store's rule), and the stamp moved.
    await ctx.catalog.put(items, { quiet: true });
    for (const item of items) {
      const entry = entries.get(item.id);
      if (!entry) continue;
      if (item.entity !== 'tvshow') entry.files = item.files;
      live.set(entry);
    }
    for (const w of chunk) {
      counts[w.change]++;
      counts.processed += w.files;
      noteChanged(ctx.changedIds, w.change, [w.item.id]);
    }
    counts.probed += probes.probed;
    counts.probeFailed += probes.failed;
    // The job is saved after the counts, so a job that counts the chunk's items means the
    // library counts them too.
    await recordCounts();
    await ctx.step({
      phase: 'analyzing',
      processed: counts.processed,
      total,
      share: WRITES_SHARE,
      counts,
      changedIds: ctx.changedIds,
      after: chunk.at(-1)!.item.id,
    });
  });
  if (!written) return false;
  return ctx.inSteps(plan.removals, WRITE_CHUNK, async (chunk) => {
    const ids = chunk.map((e) => e.id);
    await ctx.catalog.remove(ids, { quiet: true });
    await removeArtworkOf(ctx.artworks, ids);
    await ctx.subtitleCache?.removeAll(ids);
    await ctx.watchState?.forget(ids);
    await ctx.locks.forget(ids);
    counts.removed += chunk.length;
    noteChanged(ctx.changedIds, 'removed', ids);
    for (const id of ids) live.delete(id);
    await recordCounts();
    await ctx.step({ phase: 'analyzing', processed: counts.processed, total, share: WRITES_SHARE, counts, changedIds: ctx.changedIds });
  });
};

/** The items to write: a moved item is its stored self at its new paths (lib/scan/moved.ts). */
const withStored = async (ctx: ScanContext, chunk: PlannedWrite[]): Promise<CatalogItem[]> => {
  const moves = chunk.filter((w) => w.change === 'moved');
  if (moves.length === 0) return chunk.map((w) => w.item);
  const stored = new Map((await ctx.catalog.getMany(moves.map((w) => w.item.id))).map((i) => [i.id, i]));
  return chunk.map((w) => (w.change === 'moved' ? mergeMoved(stored.get(w.item.id), w.item, w.renamed ?? false) : w.item));
};
