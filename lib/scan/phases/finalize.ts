// Finalizing: the library's manifest (its index in a few items, for the next rescan), its
// counts, and the catalogue's version.
import { nextScanAfter } from '../../library/model';
import type { ScanContext } from '../context';
import { DETAILS_SHARE } from './details';
import { countsOf } from '../plan';
import type { Planned } from './plan';

export const finalize = async (ctx: ScanContext, { entries, changing, fromManifest }: Planned): Promise<void> => {
  await ctx.step({ phase: 'finalizing', processed: 0, total: 1, share: [DETAILS_SHARE[1], 1], counts: ctx.counts });
  const index = [...entries.values()];
  if (changing || !fromManifest) await ctx.manifests.write(ctx.library.id, ctx.job.jobId, index);
  const now = ctx.clock();
  // A scan of the whole library is the schedule's scan too: the next one counts from here.
  const next = ctx.scope === '' ? nextScanAfter(now, ctx.library.scanIntervalHours) : undefined;
  await ctx.libraries.recordScan(ctx.library.id, countsOf(index), new Date(now).toISOString(), next);
  await ctx.catalog.bumpVersion();
};
