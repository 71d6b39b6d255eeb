// Analysing, first half: the plan (what to write and remove, lib/scan/plan/), the metadata
// phase's work list, and the library's index as it will be, which every later phase keeps up
// to date for the manifest. Nothing is written here but the job's counts.
import type { CatalogItem, IndexEntry } from '../../catalog/model';
import { rootFolderName } from '../../naming';
import type { ScanContext } from '../context';
import { noteChanged } from '../job';
import { planScan, type Plan } from '../plan';
import type { Discovered } from './discover';

export interface Planned {
  plan: Plan;
  /** The library's index as it will be, by id: each phase records what it changed here. */
  entries: Map<string, IndexEntry>;
  /** New and changed items, and those waiting for a provider when there is one: shows first. */
  metadataWork: IndexEntry[];
  /** Whether this run writes anything (the manifest is dropped first, and written again at the end). */
  changing: boolean;
  fromManifest: boolean;
}

const unreadableWarning = (folders: string[]): string | undefined => {
  if (folders.length === 0) return undefined;
  const named =
    folders
      .slice(0, 3)
      .map((f) => `"${f}"`)
      .join(', ') + (folders.length > 3 ? ' ...' : '');
  const [what, below] = folders.length === 1 ? ['A folder', 'it'] : [`${folders.length} folders`, 'them'];
  return `${what} could not be read (${named}): nothing below ${below} was removed. Check the permissions or the disk, then scan again.`;
};

const showsFirst = (a: IndexEntry, b: IndexEntry) =>
  Number(b.entity === 'tvshow') - Number(a.entity === 'tvshow') || (a.id < b.id ? -1 : 1);

export const plan = async (ctx: ScanContext, found: Discovered): Promise<Planned> => {
  const providerOn = ctx.enrichment.provider !== null;
  const plan = planScan({
    libraryId: ctx.library.id,
    mediaType: ctx.library.mediaType,
    rootName: rootFolderName(ctx.library.path),
    jobId: ctx.job.jobId,
    now: new Date(ctx.clock()).toISOString(),
    scope: ctx.scope,
    files: found.files,
    index: found.index,
    sidecars: found.sidecars,
    providerOn,
    partialIndex: !found.fromManifest,
    unreadable: found.unreadable,
  });
  const wantsMetadata = (e: IndexEntry) => e.enrich === 'metadata' || (providerOn && (e.enrich === 'local' || e.enrich === undefined));
  const metadataWork = plan.index.filter(wantsMetadata).sort(showsFirst);
  const { timing } = found;
  ctx.log.info(
    {
      ...timing,
      plannedMs: ctx.clock() - timing.startedAt,
      files: found.files.length,
      indexed: found.index.length,
      fromManifest: found.fromManifest,
      writes: plan.writes.length,
      removals: plan.removals.length,
    },
    'scan planned',
  );
  const artworkWaiting = ctx.enrichment.artwork && plan.index.some((e) => e.enrich === 'artwork');
  const changing = plan.writes.length > 0 || plan.removals.length > 0 || metadataWork.length > 0 || artworkWaiting;
  // The manifest stops being the truth as soon as anything is written: drop it first.
  if (changing) await ctx.manifests.drop(ctx.library.id);
  for (const f of plan.failed) ctx.log.warn({ file: f.relPath, reason: f.reason }, 'file not understood; skipped');
  for (const folder of found.unreadable) ctx.log.warn({ folder }, 'folder could not be read; nothing below it is removed');
  const warning = unreadableWarning(found.unreadable);
  // Items an earlier run of this job wrote are in the index now: count them, don't redo them.
  Object.assign(ctx.counts, {
    processed: plan.unchangedFiles + plan.failed.length,
    added: plan.carried.added,
    updated: plan.carried.updated + plan.sidecarChanges.length,
    moved: plan.carried.moved,
    failed: plan.failed.length,
    probed: plan.carriedProbes.probed,
    probeFailed: plan.carriedProbes.failed,
  });
  // (A resumed job noted the ids it carries when it wrote them.)
  noteChanged(
    ctx.changedIds,
    'updated',
    plan.sidecarChanges.map((c) => c.id),
  );
  await ctx.step({
    phase: 'analyzing',
    processed: ctx.counts.processed,
    total: found.files.length,
    counts: ctx.counts,
    changedIds: ctx.changedIds,
    ...(warning ? { warning } : {}),
  });
  return { plan, entries: new Map(plan.index.map((e) => [e.id, e])), metadataWork, changing, fromManifest: found.fromManifest };
};

/** Records in the index-to-be where written items' enrichment got to, and what their files' headers said. */
export const recordEnrichment = (planned: Planned, written: CatalogItem[]) => {
  for (const item of written) {
    const entry = planned.entries.get(item.id);
    if (!entry) continue;
    if (item.enrich) entry.enrich = item.enrich;
    if (item.localStamp !== undefined) entry.localStamp = item.localStamp;
    if (item.entity !== 'tvshow') entry.files = item.files;
  }
};
