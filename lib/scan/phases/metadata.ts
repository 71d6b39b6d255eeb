// Metadata: what the NFOs beside the files say, then what the provider knows (lib/scan/enrich/),
// and the film collections the films point at; the headers of their files not yet read are read
// beside the provider's answers, and each batch's pictures are stored (artwork.ts), so one write
// carries all three (technical.ts leaves the headers here). The next batch's provider calls run
// while this batch's pictures are fetched and it is written, so the provider's pace is not
// broken by a pause at every batch, and posters fill in as its answers come.
import type { CatalogItem, IndexEntry } from '../../catalog/model';
import type { ScanContext } from '../context';
import { analyzeFiles, type HeadersRead, type ProbeTally } from '../analyze';
import { enrichBatch, type EnrichDeps, type EnrichTally } from '../enrich/batch';
import type { CollectionsSeen } from '../enrich/collections';
import { collectAll, scanCollecting } from './artwork';
import { recordEnrichment, type Planned } from './plan';

/** Items per metadata step: each costs a few provider requests, so a step stays well inside the time reserve. */
const METADATA_CHUNK = 50;

export const KEY_REFUSED_WARNING =
  'The TMDB API key was refused (401): this scan added no provider metadata or artwork. Check the key in settings, then scan again.';

export interface Described {
  /** False when the slice ended first. */
  finished: boolean;
  /** The provider refused the key: the artwork phase does not ask it either. */
  keyRefused: boolean;
}

/** What describing items needs in a scan: its stores, its provider, and where the films' collections go. */
export const enrichDeps = (ctx: ScanContext): EnrichDeps => {
  const collections = { store: ctx.collections, artworks: ctx.enrichment.artwork ? ctx.artworks : undefined, clock: ctx.clock };
  return { catalog: ctx.catalog, locks: ctx.locks, storage: ctx.storage, provider: ctx.enrichment.provider, log: ctx.log, collections };
};

export const metadata = async (ctx: ScanContext, planned: Planned, alreadyRead: HeadersRead): Promise<Described> => {
  const { counts } = ctx;
  const work = planned.metadataWork;
  const deps = enrichDeps(ctx);
  const sidecarChanges = new Map(planned.plan.sidecarChanges.map((c) => [c.id, c]));
  const tally: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: false };
  await ctx.step({ phase: 'metadata', processed: 0, total: work.length, counts }, { persist: work.length > 0 });
  // Episodes in a later batch find the shows of an earlier one here, before the table has them.
  const shows = new Map<string, CatalogItem>();
  // Film collections asked for in this scan: once each, whichever batch's film names it first.
  const seen: CollectionsSeen = new Map();
  const describeBatch = async (chunk: IndexEntry[]) => {
    const own: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: tally.keyRefused };
    const probes: ProbeTally = { probed: 0, failed: 0 };
    const described = await enrichBatch(
      deps,
      ctx.library.path,
      chunk.map((e) => e.id),
      own,
      { shows, sidecarChanges, collections: seen },
    );
    const found = await analyzeFiles(ctx, ctx.library.path, described, probes, alreadyRead);
    // Known before the next batch starts (it starts once this one is found).
    for (const item of found) if (item.entity === 'tvshow') shows.set(item.id, item);
    return { found, own, probes };
  };
  const finished = await ctx.inStepsAhead(work, METADATA_CHUNK, describeBatch, async (batch, chunk, done) => {
    const { own, probes } = batch;
    let { found } = batch;
    // The batch's pictures while the next batch asks the provider: posters fill in as its answers come.
    const c = scanCollecting(ctx, tally.keyRefused || own.keyRefused);
    if (c) {
      const pictured = new Map(
        (
          await collectAll(
            c,
            found.filter((i) => i.enrich === 'artwork'),
          )
        ).map((i) => [i.id, i]),
      );
      found = found.map((i) => pictured.get(i.id) ?? i);
      counts.artwork += c.tally.stored;
      counts.failed += c.tally.failed;
    }
    await ctx.catalog.put(found, { quiet: true });
    recordEnrichment(planned, found);
    counts.probed += probes.probed;
    counts.probeFailed += probes.failed;
    tally.keyRefused ||= own.keyRefused;
    counts.matched += own.matched;
    counts.unmatched += own.unmatched;
    counts.failed += own.failed;
    await ctx.step({
      phase: 'metadata',
      processed: done,
      total: work.length,
      counts,
      after: chunk.at(-1)!.id,
      ...(tally.keyRefused ? { warning: KEY_REFUSED_WARNING } : {}),
    });
  });
  return { finished, keyRefused: tally.keyRefused };
};
