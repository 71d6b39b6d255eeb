// What a scan must write and remove, worked out in memory from the files on disk and the
// library's index, before anything is written. Pure: the same inputs give the same plan, so a
// resumed job recomputes it and finds its own earlier writes already in place (unchanged), which
// is what makes a rescan or a resume unable to duplicate anything. Each step is a function of
// its own in this folder.
import type { CatalogItem, IndexEntry } from '../../catalog/model';
import type { DiscoveredFile } from '../../storage/discover';
import { aliasesOf } from './aliases';
import { carriedWork, type Carried } from './carried';
import type { ItemsInput } from './items';
import { splitUnchanged } from './kept';
import { pairMoves } from './moves';
import { planRemovals } from './removals';
import { sidecarChanges, sidecarsOf, withLocalFiles, type SidecarChange } from './sidecars';
import { planWrites, type PlannedWrite } from './writes';

export { countsOf, RunningCounts } from './counts';
export type { PlannedWrite } from './writes';
export type { SidecarChange } from './sidecars';

export interface PlanInput extends ItemsInput {
  /** The folder scanned, relative to the library root ('' for all of it): only its items can be removed. */
  scope: string;
  /** Library-relative paths, as discovered. */
  files: DiscoveredFile[];
  index: IndexEntry[];
  /** NFO and image files found beside the videos (library-relative), with their times. */
  sidecars?: DiscoveredFile[];
  /** Whether this scan can ask a metadata provider (fetching on, a key set). */
  providerOn?: boolean;
  /** The index may hold part of a stopped scan's writes (it is not a completed scan's manifest). */
  partialIndex?: boolean;
  /** Folders that could not be read (library-relative): nothing below them is removed. */
  unreadable?: string[];
}

export interface Plan extends Carried {
  /** Shows first (their episodes refer to them), then the rest in path order. */
  writes: PlannedWrite[];
  /** Movies and episodes whose files are gone, then shows left without episodes. */
  removals: IndexEntry[];
  /** Files whose items are already up to date. */
  unchangedFiles: number;
  failed: Array<{ relPath: string; reason: string }>;
  /** The library's index once the plan is applied (for its manifest); items whose local files changed are back at 'metadata'. */
  index: IndexEntry[];
  /** Items kept as they are whose NFO or artwork files changed: the metadata phase takes them up again. */
  sidecarChanges: SidecarChange[];
}

export const planScan = (input: PlanInput): Plan => {
  const aliases = aliasesOf(input.index);
  const { kept, skipped, items, failed, showDirs } = splitUnchanged({ ...input, aliases }, input.index, {
    partialIndex: input.partialIndex ?? false,
  });
  const sidecars = sidecarsOf({
    mediaType: input.mediaType,
    files: input.files,
    sidecars: input.sidecars ?? [],
    index: input.index,
    showDirs,
    rootName: input.rootName,
  });
  const planned = planWrites(items, input.index, (item) => withLocalFiles(sidecars, input.providerOn ?? false, item));
  const { writes, removals } = pairMoves({
    libraryId: input.libraryId,
    writes: planned.writes,
    removals: planRemovals(input.index, items, kept, input.scope, input.unreadable),
    index: input.index,
  });
  const upToDateFiles = planned.upToDateFiles;
  const redone = new Set([...writes.map((w) => w.item.id), ...removals.map((e) => e.id)]);
  const changes = sidecarChanges(sidecars, input.index, redone, input.scope);
  const restamped = new Set(changes.map((c) => c.id));
  const left = input.index.filter((e) => !redone.has(e.id)).map((e) => (restamped.has(e.id) ? { ...e, enrich: 'metadata' as const } : e));
  return {
    writes,
    removals,
    unchangedFiles: skipped.size + upToDateFiles,
    ...carriedWork(input.index, input.jobId, redone),
    failed,
    index: [...left, ...writes.map((w) => indexEntryOf(w.item))],
    sidecarChanges: changes,
  };
};

/** What the library index keeps of an item. */
export const indexEntryOf = (item: CatalogItem): IndexEntry => ({
  id: item.id,
  entity: item.entity,
  addedAt: item.addedAt,
  lastJob: item.lastJob,
  lastChange: item.lastChange,
  ...(item.enrich ? { enrich: item.enrich } : {}),
  ...(item.localStamp ? { localStamp: item.localStamp } : {}),
  ...(item.pathKey ? { pathKey: item.pathKey } : {}),
  ...(item.entity === 'tvshow' ? {} : { files: item.files }),
  ...(item.entity === 'episode' ? { showId: item.showId, seasonNumber: item.seasonNumber } : {}),
});
