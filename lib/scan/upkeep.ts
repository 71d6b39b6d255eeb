// The library looks after itself: what the folder monitor saw change is scanned (`watch`), each
// library is rescanned every `scanIntervalHours` (`schedule`), and what the monitor could not
// watch is said in the library's status. One call does all of it: at home the runner makes it
// every few seconds with what its watchers saw, in the cloud a schedule makes it with nothing.
import { AppError } from '../errors';
import { nextScanAfter, type Library } from '../library/model';
import { setLibraryStatus } from '../library/service';
import type { ScanTrigger } from './job';
import { startScan, type ScanDeps } from './service';

export interface UpkeepInput {
  /** Per library, the folder holding what the monitor saw change (inside the library; its root when changes were spread out). */
  changed?: Array<{ libraryId: string; path: string }>;
  /** Per watched library, why its folder cannot be watched, or null when it is watched. */
  watching?: Array<{ libraryId: string; problem: string | null }>;
}

export interface UpkeepResult {
  /** The libraries to watch (monitoring on, and the feature on). */
  watch: Array<{ libraryId: string; path: string; offline: boolean }>;
  started: Array<{ libraryId: string; jobId: string; trigger: ScanTrigger; path: string }>;
  /** Libraries whose changes wait for the scan of them that runs: ask again later. */
  busy: string[];
}

const isBusy = (err: unknown) => err instanceof AppError && err.code === 'scan-already-running';

export const runUpkeep = async (
  deps: ScanDeps,
  input: UpkeepInput,
  options: { monitoring: boolean },
  now = Date.now(),
): Promise<UpkeepResult> => {
  const libraries = await deps.libraries.list();
  const byId = new Map(libraries.map((l) => [l.id, l]));
  const result: UpkeepResult = { watch: [], started: [], busy: [] };
  const scan = async (library: Library, path: string, trigger: ScanTrigger) => {
    try {
      const job = await startScan(deps, { path, mediaType: library.mediaType, libraryId: library.id, trigger });
      result.started.push({ libraryId: library.id, jobId: job.jobId, trigger, path });
      return true;
    } catch (err) {
      if (isBusy(err)) result.busy.push(library.id);
      else deps.log.warn({ err, libraryId: library.id, path, trigger }, 'could not start a scan');
      return false;
    }
  };

  for (const change of input.changed ?? []) {
    const library = byId.get(change.libraryId);
    // A folder gone since (or never inside): the library's root covers it.
    if (library)
      await scan(library, deps.storage.relativeTo(library.path, change.path) === undefined ? library.path : change.path, 'watch');
  }
  for (const library of libraries) {
    if (library.nextScanAt === null || Date.parse(library.nextScanAt) > now) continue;
    if (result.started.some((s) => s.libraryId === library.id && s.path === library.path)) continue;
    // Moved on once it started: a schedule missed while the box was off catches up once.
    if (await scan(library, library.path, 'schedule'))
      await deps.libraries.update(library.id, { nextScanAt: nextScanAfter(now, library.scanIntervalHours) });
  }
  for (const { libraryId, problem } of input.watching ?? []) {
    const library = byId.get(libraryId);
    if (library?.status.state === 'online') await setLibraryStatus(deps, library, 'online', problem, now);
  }
  if (options.monitoring) {
    result.watch = libraries
      .filter((l) => l.monitoring)
      .map((l) => ({ libraryId: l.id, path: l.path, offline: l.status.state === 'offline' }));
  }
  return result;
};
