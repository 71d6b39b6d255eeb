// What every phase of a scan works with: the job and its library, the stores, the media
// storage, the clock and the log, the job's counts as this run moves them, and `step`, which
// saves a checkpoint and reports progress. The worker builds it once per run (openScan).
import type { ArtworkStore } from '../artwork/store';
import type { CollectionStore } from '../catalog/collections';
import type { EventSink } from '../events/sink';
import type { ManifestStore } from '../catalog/manifest';
import type { MatchLockStore } from '../catalog/match-lock';
import type { WatchStateOfItems } from '../watching/service';
import type { CatalogStore } from '../catalog/store';
import type { Library } from '../library/model';
import type { LibraryStore } from '../library/store';
import type { Log } from '../log';
import type { MetadataProvider } from '../metadata/provider';
import type { MediaStorage } from '../storage';
import type { SubtitleCache } from '../subtitles/extract';
import { ScanFailure } from './failure';
import { NO_CHANGED_IDS, ZERO_COUNTS, type ChangedIds, type JobCounts, type ScanJob } from './job';
import { probeLibraryRoot } from './offline';
import type { Advance } from './transitions';

/** What a scan may use to enrich items, read from the settings when the scan runs. */
export interface Enrichment {
  /** Null when fetching is off or no key is set: no provider call at all. */
  provider: MetadataProvider | null;
  artwork: boolean;
  meshGradients: boolean;
}

export const NO_ENRICHMENT: Enrichment = { provider: null, artwork: false, meshGradients: false };

/** The stores and the media a scan reads and writes. */
export interface ScanStores {
  catalog: CatalogStore;
  /** Matches someone chose: a locked title is described from its pinned record alone. */
  locks: MatchLockStore;
  /** Film collections, kept as their films are described. */
  collections: CollectionStore;
  manifests: ManifestStore;
  libraries: LibraryStore;
  storage: MediaStorage;
  /** The artwork cache; without it the artwork phase stores nothing. */
  artworks?: ArtworkStore | undefined;
  /** Subtitles taken out of videos: what removed items had is dropped with them. */
  subtitleCache?: SubtitleCache | undefined;
  /** Watch state: what the profiles had of removed items is dropped with them. */
  watchState?: WatchStateOfItems | undefined;
}

export interface ScanContext extends ScanStores {
  /** The job as this run found it. */
  job: ScanJob;
  library: Library;
  /** The folder scanned, relative to the library's root ('' for all of it). */
  scope: string;
  /** The library's root held nothing when the scan opened (an unmounted disk looks like this). */
  rootEmpty: boolean;
  events: EventSink;
  enrichment: Enrichment;
  clock: () => number;
  /** Whether this invocation's slice has run out (work started now would not finish in it). */
  outOfTime: () => boolean;
  log: Log;
  /** The job's counts as this run moves them: each step saves them. */
  counts: JobCounts;
  /** The ids changed so far (capped), saved with the steps that change them. */
  changedIds: ChangedIds;
  /** Records progress: saves the job (unless `persist` is false: a step that did no work) and reports it. */
  step(s: Advance, options?: { persist?: boolean }): Promise<void>;
  /**
   * Works through `items` in chunks, calling `work` (which steps) after each; false when the
   * slice ran out first: the last checkpoint stands, and a new invocation goes on from it.
   */
  inSteps<T>(items: T[], size: number, work: (chunk: T[], done: number) => Promise<void>): Promise<boolean>;
  /**
   * inSteps, one chunk ahead: each chunk's `prepare` (its items read, the provider asked) starts
   * as soon as the chunk before it is prepared, so it runs while that one is written.
   */
  inStepsAhead<T, P>(
    items: T[],
    size: number,
    prepare: (chunk: T[]) => Promise<P>,
    work: (prepared: P, chunk: T[], done: number) => Promise<void>,
  ): Promise<boolean>;
}

export interface RunControl {
  step: ScanContext['step'];
  events: EventSink;
  outOfTime: () => boolean;
  clock: () => number;
  log: Log;
}

/** The context of one run of `job`; a ScanFailure when its library or folder is not there, or its root is offline. */
export const openScan = async (stores: ScanStores, job: ScanJob, enrichment: Enrichment, run: RunControl): Promise<ScanContext> => {
  const library = await stores.libraries.get(job.libraryId);
  if (!library) throw new ScanFailure('library-gone', `Library ${job.libraryId} was deleted`);
  const scope = stores.storage.relativeTo(library.path, job.path);
  if (scope === undefined) throw new ScanFailure('path-outside-library', `${job.path} is not inside ${library.path}`);
  const { empty: rootEmpty } = await probeLibraryRoot(stores.storage, library);
  await stores.storage.canonicalRoot(job.path).catch((err: Error) => {
    throw new ScanFailure('path-not-found', err.message);
  });
  // Each invocation does at least one step before it may hand over, so a slice shorter than
  // discovery still moves the job forward.
  let progressed = false;
  const inSteps: ScanContext['inSteps'] = async (items, size, work) => {
    for (let i = 0; i < items.length; i += size) {
      if (progressed && run.outOfTime()) return false;
      progressed = true;
      const chunk = items.slice(i, i + size);
      await work(chunk, i + chunk.length);
    }
    return true;
  };
  return {
    ...stores,
    job,
    library,
    scope,
    rootEmpty,
    events: run.events,
    enrichment,
    clock: run.clock,
    outOfTime: run.outOfTime,
    log: run.log,
    // Jobs saved by an older version lack the newer counters.
    counts: { ...ZERO_COUNTS, ...job.counts },
    changedIds: structuredClone(job.changedIds ?? NO_CHANGED_IDS),
    step: run.step,
    inSteps,
    inStepsAhead(items, size, prepare, work) {
      const start = (chunk: typeof items) => {
        const prepared = prepare(chunk);
        prepared.catch(() => undefined); // awaited in the next step; a slice that ends first drops it
        return prepared;
      };
      let next: ReturnType<typeof start> | undefined;
      return inSteps(items, size, async (chunk, done) => {
        const prepared = await (next ?? start(chunk));
        const following = items.slice(done, done + size);
        next = following.length && !run.outOfTime() ? start(following) : undefined;
        await work(prepared, chunk, done);
      });
    },
  };
};
