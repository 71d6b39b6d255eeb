// Libraries: a named folder of movies or of TV shows. Creating one checks the folder and that it
// overlaps no other library. (Deleting one removes its catalogue and stops its scan first: that
// is lib/scan/library-removal.ts, which sits above both.)
import { randomUUID } from 'node:crypto';
import { basename } from 'node:path';
import type { Static } from '@sinclair/typebox';
import type { Library as LibraryView, LibraryStats } from '../api/schemas';
import { libraryExists, mediaTypeMismatch, notFound, pathNotUsable } from '../errors';
import type { EventSink } from '../events/sink';
import type { MediaStorage } from '../storage';
import { DEFAULT_SCAN_INTERVAL_HOURS, EMPTY_COUNTS, nextScanAfter, type Library, type LibraryStatus, type MediaKind } from './model';
import type { LibraryChanges, LibraryStore } from './store';

export interface LibraryDeps {
  libraries: LibraryStore;
  events: EventSink;
  storage: MediaStorage;
}

export const newId = () => randomUUID().replaceAll('-', '');

export const toView = (library: Library): Static<typeof LibraryView> => ({
  id: library.id,
  name: library.name,
  path: library.path,
  mediaType: library.mediaType,
  itemCount: library.counts.movies + library.counts.tvShows,
  lastScannedAt: library.lastScannedAt,
  createdAt: library.createdAt,
  status: library.status.state,
  statusReason: library.status.reason,
  statusSince: library.status.since,
  scanIntervalHours: library.scanIntervalHours,
  nextScanAt: library.nextScanAt,
  monitoring: library.monitoring,
});

export const statsOf = (libraries: Library[]): Static<typeof LibraryStats> => {
  const sum = (f: (l: Library) => number) => libraries.reduce((n, l) => n + f(l), 0);
  const scans = libraries
    .map((l) => l.lastScannedAt)
    .filter((t): t is string => t !== null)
    .sort();
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
  // One being removed is gone for every client already.
  if (!library || library.removing) throw notFound(`Library ${id}`);
  return library;
};

/** Two libraries never overlap: a folder inside another library would index its files twice. */
const checkOverlap = (storage: MediaStorage, existing: Library[], path: string) => {
  for (const other of existing) {
    if (storage.relativeTo(other.path, path) !== undefined || storage.relativeTo(path, other.path) !== undefined)
      throw libraryExists(path, other.path);
  }
};

export const createLibrary = async (
  deps: LibraryDeps,
  input: { name?: string; path: string; mediaType: MediaKind; scanIntervalHours?: number | undefined; monitoring?: boolean | undefined },
  now = Date.now(),
): Promise<Library> => {
  const path = await deps.storage.canonicalRoot(input.path);
  // One being removed holds its folder until it is gone.
  const [listed, removing] = await Promise.all([deps.libraries.list(), deps.libraries.removing()]);
  checkOverlap(deps.storage, [...listed, ...removing], path);
  const createdAt = new Date(now).toISOString();
  const scanIntervalHours = input.scanIntervalHours ?? DEFAULT_SCAN_INTERVAL_HOURS;
  const library: Library = {
    id: newId(),
    name: input.name?.trim() || basename(path) || path,
    path,
    mediaType: input.mediaType,
    createdAt,
    lastScannedAt: null,
    counts: { ...EMPTY_COUNTS },
    status: { state: 'online', reason: null, since: createdAt },
    scanIntervalHours,
    monitoring: input.monitoring ?? true,
    nextScanAt: nextScanAfter(now, scanIntervalHours),
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
  const candidates = input.libraryId ? [await getLibrary(deps, input.libraryId)] : await deps.libraries.list();
  const path = await deps.storage.canonicalRoot(input.path).catch(async (err: unknown) => {
    // A library whose own folder is gone (an unmounted disk): the scan is accepted, and ends
    // library-offline without removing anything, rather than refused as a typo would be.
    const offline = candidates.find((l) => l.path === input.path);
    if (offline && (await deps.storage.probeRoot(offline.path)).state !== 'present') return offline.path;
    throw err;
  });
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

/** PATCH: a new name, interval or monitoring switch. A new interval counts from the last scan: when that is long past, the schedule scans at once. */
export const updateLibrary = async (
  deps: Pick<LibraryDeps, 'libraries'>,
  id: string,
  patch: { name?: string | undefined; scanIntervalHours?: number | undefined; monitoring?: boolean | undefined },
): Promise<Library> => {
  const library = await getLibrary(deps, id);
  const changes: LibraryChanges = {
    ...(patch.name !== undefined ? { name: patch.name.trim() || library.name } : {}),
    ...(patch.monitoring !== undefined ? { monitoring: patch.monitoring } : {}),
  };
  if (patch.scanIntervalHours !== undefined) {
    changes.scanIntervalHours = patch.scanIntervalHours;
    changes.nextScanAt = nextScanAfter(Date.parse(library.lastScannedAt ?? library.createdAt), patch.scanIntervalHours);
  }
  const updated = await deps.libraries.update(id, changes);
  if (!updated) throw notFound(`Library ${id}`);
  return updated;
};

/**
 * Records a library's status when it changed, and tells clients (library:status). Returns
 * whether it changed.
 */
export const setLibraryStatus = async (
  deps: Pick<LibraryDeps, 'libraries' | 'events'>,
  library: Library,
  state: LibraryStatus['state'],
  reason: string | null,
  now = Date.now(),
): Promise<boolean> => {
  if (library.status.state === state && library.status.reason === reason) return false;
  const status: LibraryStatus = {
    state,
    reason,
    since: library.status.state === state ? library.status.since : new Date(now).toISOString(),
  };
  if (!(await deps.libraries.setStatus(library.id, status))) return false;
  library.status = status;
  await deps.events.emit({ type: 'library:status', libraryId: library.id, status: state, reason: reason ?? '' });
  return true;
};
