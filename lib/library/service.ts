// Libraries: a named folder of movies or of TV shows. Creating one checks the folder; deleting
// one removes its catalogue entries and never touches a file on disk.
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { Library as LibraryView, LibraryStats } from '../api/schemas';
import type { DynamoManifestStore } from '../catalog/manifest';
import type { DynamoCatalogStore } from '../catalog/store';
import type { MediaKind } from '../catalog/model';
import { libraryExists, mediaTypeMismatch, notFound, pathNotUsable, scanAlreadyRunning } from '../errors';
import type { EventSink } from '../events/sink';
import type { ScanJobStore } from '../scan/job-store';
import type { ArtworkStore } from '../artwork/store';
import type { MediaStorage } from '../storage';
import { EMPTY_COUNTS, type DynamoLibraryStore, type Library } from './store';

export interface LibraryDeps {
  libraries: DynamoLibraryStore;
  catalog: DynamoCatalogStore;
  manifests: DynamoManifestStore;
  jobs: ScanJobStore;
  events: EventSink;
  storage: MediaStorage;
  /** The artwork cache, emptied of what removed items leave behind. */
  artworks?: ArtworkStore;
}

/**
 * After their items are gone: a removal cut short leaves only unused files in the cache, never
 * an item whose pictures are missing.
 */
export const dropArtwork = (deps: Pick<LibraryDeps, 'artworks'>, ids: string[]) =>
  Promise.all(ids.map((id) => deps.artworks?.removeAll(id))).then(() => undefined);

export const newId = () => randomUUID().replaceAll('-', '');

export const toView = (library: Library): Static<typeof LibraryView> => ({
  id: library.id,
  name: library.name,
  path: library.path,
  mediaType: library.mediaType,
  itemCount: library.counts.movies + library.counts.tvShows,
  lastScannedAt: library.lastScannedAt,
  createdAt: library.createdAt,
});

export const statsOf = (libraries: Library[]): Static<typeof LibraryStats> => {
  const sum = (f: (l: Library) => number) => libraries.reduce((n, l) => n + f(l), 0);
  const scans = libraries.map((l) => l.lastScannedAt).filter((t): t is string => t !== null).sort();
  return {
    libraries: libraries.length,
    movies: sum((l) => l.counts.movies),
    tvShows: sum((l) => l.counts.tvShows),
    seasons: sum((l) => l.counts.seasons),
    episodes: sum((l) => l.counts.episodes),
    totalSizeBytes: sum((l) => l.counts.totalSizeBytes),
    // Of the files whose headers could be read; libraries last scanned before probing count 0.
    totalDurationSeconds: Math.round(sum((l) => l.counts.totalDurationSeconds ?? 0)),
    lastScanAt: scans.at(-1) ?? null,
  };
};

export const getLibrary = async (deps: Pick<LibraryDeps, 'libraries'>, id: string): Promise<Library> => {
  const library = await deps.libraries.get(id);
  if (!library) throw notFound(`Library ${id}`);
  return library;
};

/** Two libraries never overlap: a folder inside another library would index its files twice. */
const checkOverlap = (storage: MediaStorage, existing: Library[], path: string) => {
  for (const other of existing) {
    if (storage.relativeTo(other.path, path) !== undefined || storage.relativeTo(path, other.path) !== undefined) throw libraryExists(path, other.path);
  }
};

export const createLibrary = async (
  deps: LibraryDeps,
  input: { name?: string; path: string; mediaType: MediaKind },
  now = Date.now(),
): Promise<Library> => {
  const path = await deps.storage.canonicalRoot(input.path);
  checkOverlap(deps.storage, await deps.libraries.list(), path);
  const library: Library = {
    id: newId(),
    name: input.name?.trim() || basename(path) || path,
    path,
    mediaType: input.mediaType,
    createdAt: new Date(now).toISOString(),
    lastScannedAt: null,
    counts: { ...EMPTY_COUNTS },
  };
  await deps.libraries.create(library);
  await deps.events.emit({ type: 'library:created', libraryId: library.id });
  return library;
};

/**
 * The library a scan of `path` belongs to: the one named, else the one whose folder holds the
 * path, else a new one for the path. Returns the canonical path too.
 */
export const libraryForScan = async (
  deps: LibraryDeps,
  input: { path: string; mediaType: MediaKind; libraryId?: string | undefined },
): Promise<{ library: Library; path: string; scope: string }> => {
  const path = await deps.storage.canonicalRoot(input.path);
  const candidates = input.libraryId ? [await getLibrary(deps, input.libraryId)] : await deps.libraries.list();
  for (const library of candidates) {
    const scope = deps.storage.relativeTo(library.path, path);
    if (scope === undefined) continue;
    if (library.mediaType !== input.mediaType) throw mediaTypeMismatch(library.id, library.mediaType, input.mediaType);
    return { library, path, scope };
  }
  if (input.libraryId) throw pathNotUsable(input.path, `is not inside library ${input.libraryId} (${candidates[0]!.path})`);
  const library = await createLibrary(deps, { path, mediaType: input.mediaType });
  return { library, path, scope: '' };
};

export const deleteLibrary = async (deps: LibraryDeps, id: string): Promise<void> => {
  const library = await getLibrary(deps, id);
  if (await deps.jobs.activeJobOf(id)) throw scanAlreadyRunning(library.path);
  // Items first: a delete cut short leaves the library in place, and deleting again finishes it.
  const entries = await deps.catalog.index(id);
  await deps.catalog.remove(entries.map((e) => e.id));
  await dropArtwork(deps, entries.map((e) => e.id));
  await deps.manifests.drop(id);
  await deps.libraries.remove(library);
  await deps.catalog.bumpVersion();
  await deps.events.emit({ type: 'library:deleted', libraryId: id });
};
