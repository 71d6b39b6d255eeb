// Finalizing, first part: the provider's details of the titles the metadata phase described
// from a search hit alone (cast, runtime, tagline, certification, collection, ids, other
// titles), asked by the id it kept, once every poster is in: browsing never waits for them. A
// title the provider no longer knows keeps its brief description; one it failed for waits for
// the next scan. The provider's pace is the client's, shared with every other call.
import type { CatalogItem, IndexEntry } from '../../catalog/model';
import type { ScanContext } from '../context';
import { enrichBatch, type EnrichTally } from '../enrich/batch';
import type { CollectionsSeen } from '../enrich/collections';
import { collectArtwork, scanCollecting } from './artwork';
import { enrichDeps } from './metadata';
import { recordEnrichment, type Planned } from './plan';

/** Titles per step: one request each, at the provider's pace. */
const DETAILS_CHUNK = 50;
/** The part of the finalizing bar the details fill; the manifest and the counts take the rest. */
export const DETAILS_SHARE = [0, 0.9] as const;

/** Described from the details now (not the search hit again, and not left unmatched). */
const detailed = (item: CatalogItem) => item.entity !== 'episode' && item.metadata?.matched === true && !item.metadata.brief;

/** The details name other pictures than the search hit did (the artwork phase has tried those). */
const newPictures = (item: CatalogItem, was: CatalogItem) =>
  Object.entries(item.artworkWanted ?? {}).some(([kind, want]) => {
    const had = was.artworkWanted?.[kind as keyof NonNullable<CatalogItem['artworkWanted']>];
    return had === undefined || had.source !== want.source || had.from !== want.from;
  });

const isBrief = (item: CatalogItem) => item.entity !== 'episode' && item.metadata?.brief === true;

/** False when the slice ended first. */
export const details = async (ctx: ScanContext, planned: Planned, { keyRefused }: { keyRefused: boolean }): Promise<boolean> => {
  const { counts } = ctx;
  const c = scanCollecting(ctx, keyRefused);
  // With artwork off, titles wait in 'artwork' for a scan that fetches pictures: their details come now all the same.
  const waiting = (e: IndexEntry) => e.enrich === 'details' || (!c && e.enrich === 'artwork' && e.entity !== 'episode');
  const work: IndexEntry[] = ctx.enrichment.provider && !keyRefused ? [...planned.entries.values()].filter(waiting) : [];
  await ctx.step({ phase: 'finalizing', processed: 0, total: work.length, share: DETAILS_SHARE, counts }, { persist: work.length > 0 });
  const deps = enrichDeps(ctx);
  const seen: CollectionsSeen = new Map();
  const tally: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: false };
  const describeChunk = async (chunk: IndexEntry[]) => {
    const before = new Map((await ctx.catalog.getMany(chunk.map((e) => e.id))).filter(isBrief).map((i) => [i.id, i]));
    const described =
      tally.keyRefused || before.size === 0
        ? []
        : await enrichBatch(deps, ctx.library.path, [...before.keys()], tally, { collections: seen, items: [...before.values()] });
    return { before, described };
  };
  // The next chunk asks the provider while this one is written, as in the metadata phase.
  return ctx.inStepsAhead(work, DETAILS_CHUNK, describeChunk, async ({ before, described }, chunk, done) => {
    const pictures = { ...(c?.tally ?? { stored: 0, failed: 0 }) };
    const written: CatalogItem[] = [];
    for (const item of described) {
      const was = before.get(item.id)!;
      if (detailed(item)) written.push(!c ? item : newPictures(item, was) ? await collectArtwork(c, item) : { ...item, enrich: 'done' });
      else if (item.enrich === 'local')
        written.push(item); // the provider failed for it: the next scan asks again
      else if (!tally.keyRefused) written.push({ ...was, enrich: was.enrich === 'details' ? 'done' : was.enrich }); // the id is gone: the search's description stays
      // (The key refused: it stays as it was, waiting for its details.)
    }
    await ctx.catalog.put(written, { quiet: true });
    recordEnrichment(planned, written);
    // Only the provider's failures count here: an NFO that cannot be read was counted by the metadata phase.
    counts.failed += written.filter((i) => i.enrich === 'local').length + (c ? c.tally.failed - pictures.failed : 0);
    if (c) counts.artwork += c.tally.stored - pictures.stored;
    await ctx.step({ phase: 'finalizing', processed: done, total: work.length, share: DETAILS_SHARE, counts, after: chunk.at(-1)!.id });
  });
};
