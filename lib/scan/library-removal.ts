// Deleting a library. The request only marks it: the library leaves every list (its store's
// `removing`), its items leave every reading of the catalogue (the stamp's withdrawn libraries,
// lib/catalog/snapshot.ts) and its running scan is asked to stop, all in a few writes whatever its
// size. Its items, their artwork, subtitles, watch state and match locks, its manifest and then the
// library itself are removed by a run of the worker, which a restart or a silent run starts again
// (upkeep): nothing is left half done. A small library with no scan is removed before the answer.
// Files on disk are never touched. This sits above the library, the catalogue and the scan jobs.
import { removeArtworkOf, type ArtworkStore } from '../artwork/store';
import type { ManifestStore } from '../catalog/manifest';
import type { CatalogStore } from '../catalog/store';
import { AppError, notFound } from '../errors';
import type { Library, LibraryCounts } from '../library/model';
import type { MatchLockStore } from '../catalog/match-lock';
import type { WatchStateOfItems } from '../watching/service';
import type { SubtitleCache } from '../subtitles/extract';
import { isActive } from './job';
import { emitCancelled } from './outcome';
import { cancelJob, saveWithRetry, type ScanDeps } from './service';
import { cancel } from './transitions';

export interface RemovalDeps extends ScanDeps {
  catalog: CatalogStore;
  manifests: ManifestStore;
  artworks?: ArtworkStore | undefined;
  subtitleCache?: SubtitleCache | undefined;
  watchState?: WatchStateOfItems | undefined;
  locks?: Pick<MatchLockStore, 'forget'> | undefined;
}

/** Up to this many catalogue items are removed before the answer (about half a second here); more go on in the background. */
export const REMOVED_IN_REQUEST = 200;
/** Items removed per step: the heartbeat moves between steps, and a step is what a crash can leave to do again. */
const STEP = 500;
/** A removal whose heartbeat is older than this has died with its run: upkeep starts another. */
export const REMOVAL_SILENT_MS = 60_000;
/** How long a removal waits for the library's running scan to stop at its next step. */
const CANCEL_WAIT_MS = 15_000;

const itemsOf = (counts: LibraryCounts) => counts.movies + counts.tvShows + counts.episodes;

export const toRemovalView = (library: Library) => ({
  libraryId: library.id,
  name: library.name,
  path: library.path,
  state: 'removing' as const,
  since: library.removing?.since ?? library.createdAt,
  items: itemsOf(library.counts),
});

/**
 * A delete asked for: the library leaves every list at once. Answers undefined when it is
 * already removed (small, no scan running), else the library being removed in the background.
 */
export const requestRemoval = async (deps: RemovalDeps, libraryId: string, now = Date.now()): Promise<Library | undefined> => {
  const before = await deps.libraries.get(libraryId);
  const library = before && (await deps.libraries.markRemoving(libraryId, new Date(now).toISOString()));
  if (!before || !library) throw notFound(`Library ${libraryId}`);
  // A second delete: the first one's removal is under way (or upkeep restarts it).
  if (before.removing) return library;
  await deps.catalog.withdrawLibrary(libraryId, true);
  const jobId = await deps.jobs.activeJobOf(libraryId);
  if (jobId) await askToStop(deps, jobId);
  if (!jobId && itemsOf(library.counts) <= REMOVED_IN_REQUEST) {
    await removeLibraryNow(deps, library, Number.POSITIVE_INFINITY);
    return undefined;
  }
  // The library is marked: a worker that cannot be reached now is started by upkeep later.
  await deps.invoker.invoke({ removeLibrary: libraryId }).catch((err: unknown) => {
    deps.log.warn({ err, libraryId }, 'could not start the removal of a library; upkeep starts it');
  });
  return library;
};

/** A cancel asked of a running scan; one that finished meanwhile (409) has nothing to stop. */
const askToStop = (deps: RemovalDeps, jobId: string) =>
  cancelJob(deps, jobId).catch((err: unknown) => {
    if (!(err instanceof AppError && err.status === 409)) throw err;
  });

/** Waits for the library's scan to stop writing; one whose worker does not answer in time is ended here. */
const scanStopped = async (deps: RemovalDeps, libraryId: string) => {
  const jobId = await deps.jobs.activeJobOf(libraryId);
  if (!jobId) return;
  await askToStop(deps, jobId);
  const deadline = Date.now() + CANCEL_WAIT_MS;
  let current = await deps.jobs.get(jobId);
  while (current && isActive(current.value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    current = await deps.jobs.get(jobId);
  }
  if (current && isActive(current.value)) {
    deps.log.warn({ jobId, libraryId }, 'the scan did not stop in time; ending it before the library is removed');
    const ended = await saveWithRetry(deps, jobId, (j) => (isActive(j) ? cancel(j, Date.now()) : j));
    if (ended.value.status === 'cancelled') await emitCancelled(deps, ended.value);
  }
};

/** What goes with items, then the items: a step cut short leaves items, which the next run removes with all that goes with them. */
const removeItems = async (deps: RemovalDeps, ids: string[]) => {
  await Promise.all([
    removeArtworkOf(deps.artworks, ids),
    deps.subtitleCache?.removeAll(ids),
    deps.watchState?.forget(ids),
    deps.locks?.forget(ids),
  ]);
  // Withdrawn already: no reader waits to see them go.
  await deps.catalog.remove(ids, { quiet: true });
};

/**
 * Removes a library marked as being removed, step by step until `deadline` (epoch ms): 'done'
 * when it is gone (or was already), 'more' when time ran out first (the caller goes on later).
 */
export const removeLibraryNow = async (deps: RemovalDeps, library: Library, deadline: number): Promise<'done' | 'more'> => {
  const libraryId = library.id;
  // A run after a crash between the mark and the withdrawal withdraws it here.
  if (!(await deps.catalog.versionState()).withdrawn?.includes(libraryId)) await deps.catalog.withdrawLibrary(libraryId, true);
  await scanStopped(deps, libraryId);
  // A page of what is left each step: a run after a crash or a handover reads no more than it
  // removes. Every run removes a page at least, however short its time.
  for (let ids = await deps.catalog.firstOf(libraryId, STEP); ids.length;) {
    await removeItems(deps, ids);
    await deps.libraries.beatRemoval(libraryId, new Date().toISOString());
    ids = await deps.catalog.firstOf(libraryId, STEP);
    if (ids.length && Date.now() >= deadline) return 'more';
  }
  await deps.manifests.drop(libraryId);
  await deps.libraries.remove(library);
  await deps.catalog.withdrawLibrary(libraryId, false);
  await deps.events.emit({ type: 'library:deleted', libraryId });
  return 'done';
};

/** The worker's run of a removal: 'done' also when there is nothing to remove (gone, or never asked). */
export const runRemoval = async (deps: RemovalDeps, libraryId: string, deadline: number): Promise<'done' | 'more'> => {
  const library = await deps.libraries.get(libraryId);
  if (!library?.removing) return 'done';
  return removeLibraryNow(deps, library, deadline);
};

/**
 * Starts a run for each removal whose run died: after a restart (`silentMs` 0: no run survives
 * one), and on upkeep for those silent for longer than REMOVAL_SILENT_MS. Returns the libraries.
 */
export const resumeRemovals = async (deps: RemovalDeps, silentMs = REMOVAL_SILENT_MS, now = Date.now()): Promise<string[]> => {
  const resumed: string[] = [];
  for (const library of await deps.libraries.removing()) {
    if (silentMs > 0 && now - Date.parse(library.removing!.heartbeatAt) < silentMs) continue;
    // Its heartbeat moved first: the next upkeep does not start a second run while this one starts.
    await deps.libraries.beatRemoval(library.id, new Date(now).toISOString());
    await deps.invoker.invoke({ removeLibrary: library.id });
    resumed.push(library.id);
  }
  return resumed;
};
