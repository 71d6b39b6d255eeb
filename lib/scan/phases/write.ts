// Analysing, second half: new and changed items written (each file's headers read first, so
// the technical info costs no extra write), then what is gone removed with its artwork. In
// chunks, the catalogue's version moved and the job saved after each.
import { removeArtworkOf } from '../../artwork/store';
import type { ScanContext } from '../context';
import { analyzeFiles, type ProbeTally } from '../analyze';
import type { PlannedWrite } from '../plan';
import type { Planned } from './plan';

/**
 * Items written per step: each step is one checkpoint (a job save), one heartbeat and one
 * version bump. Big enough to keep four batch writes in flight, small enough to beat often.
 */
const CHUNK = 400;

/** False when the slice ended first. */
export const write = async (ctx: ScanContext, { plan, entries }: Planned): Promise<boolean> => {
  const { counts } = ctx;
  const total = counts.discovered;
  const written = await ctx.inSteps(plan.writes, CHUNK, async (chunk: PlannedWrite[]) => {
    const probes: ProbeTally = { probed: 0, failed: 0 };
    const analyzed = await analyzeFiles(ctx, ctx.library.path, chunk.map((w) => w.item), probes);
    await ctx.catalog.put(analyzed);
    for (const item of analyzed) {
      const entry = entries.get(item.id);
      if (entry && item.entity !== 'tvshow') entry.files = item.files;
    }
    counts.probed += probes.probed;
    counts.probeFailed += probes.failed;
    for (const w of chunk) {
      counts[w.change]++;
      counts.processed += w.files;
    }
    await ctx.catalog.bumpVersion();
    await ctx.step({ phase: 'analyzing', processed: counts.processed, total, counts, after: chunk.at(-1)!.item.id });
  });
  if (!written) return false;
  return ctx.inSteps(plan.removals, CHUNK, async (chunk) => {
    const ids = chunk.map((e) => e.id);
    await ctx.catalog.remove(ids);
    await removeArtworkOf(ctx.artworks, ids);
    counts.removed += chunk.length;
    await ctx.catalog.bumpVersion();
    await ctx.step({ phase: 'analyzing', processed: counts.processed, total, counts });
  });
};
