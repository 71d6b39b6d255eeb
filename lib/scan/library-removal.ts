// Deleting a library: its running scan is cancelled (and waited for) first, then its items,
// their artwork, its manifest and the library itself are removed. Files on disk are never
// touched. This sits above the library, the catalogue and the scan jobs, which it all changes.
import { removeArtworkOf, type ArtworkStore } from '../artwork/store';
import type { ManifestStore } from '../catalog/manifest';
import type { CatalogStore } from '../catalog/store';
import { AppError, scanAlreadyRunning } from '../errors';
import { getLibrary } from '../library/service';
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

/** How long a library delete waits for its running scan to stop at its next step. */
const CANCEL_WAIT_MS = 15_000;

/**
 * Cancels the library's running scan and waits until its worker has stopped writing (or, when
 * no worker answers in time, ends the job itself), then removes the library.
 */
export const deleteLibraryWithScans = async (deps: RemovalDeps, libraryId: string, waitMs = CANCEL_WAIT_MS): Promise<void> => {
  const jobId = await deps.jobs.activeJobOf(libraryId);
  if (jobId) {
    // A job that finished meanwhile cannot be cancelled (409): there is nothing to stop.
    await cancelJob(deps, jobId).catch((err) => {
      if (!(err instanceof AppError && err.status === 409)) throw err;
    });
    const deadline = Date.now() + waitMs;
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
  }
  await deleteLibrary(deps, libraryId);
};

/** Removes a library with no scan running; a delete cut short leaves the library in place, and deleting again finishes it. */
export const deleteLibrary = async (deps: RemovalDeps, id: string): Promise<void> => {
  const library = await getLibrary(deps, id);
  if (await deps.jobs.activeJobOf(id)) throw scanAlreadyRunning(library.path);
  const ids = (await deps.catalog.index(id)).map((e) => e.id);
  await deps.catalog.remove(ids);
  await removeArtworkOf(deps.artworks, ids);
  await deps.subtitleCache?.removeAll(ids);
  await deps.watchState?.forget(ids);
  await deps.locks?.forget(ids);
  await deps.manifests.drop(id);
  await deps.libraries.remove(library);
  await deps.events.emit({ type: 'library:deleted', libraryId: id });
};
