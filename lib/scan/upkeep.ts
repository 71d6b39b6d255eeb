// The library looks after itself: what the folder monitor saw change is scanned (`watch`), each
// library is rescanned every `scanIntervalHours` (`schedule`), and what the monitor could not
// watch is said in the library's status. One call does all of it: at home the runner makes it
// every few seconds with what its watchers saw, in the cloud a schedule makes it with nothing.
import { AppError } from '../errors';
import { nextScanAfter, type Library } from '../library/model';
import { setLibraryStatus } from '../library/service';
import type { ScanTrigger } from './job';
import { scanSaw } from './monitor-rules';
import { startScan, type ScanDeps } from './service';

export interface UpkeepInput {
  /**
   * Per library, the folder holding what the monitor saw change (inside the library; its root
   * when changes were spread out, or when what came before its watch began is caught up), and
   * `before`, the time (ms) by which those changes had happened.
   */
  changed?: Array<{ libraryId: string; path: string; before?: number }>;
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

/**
 * The most jobs looked at for one that saw the changes: those created in the seconds since
 * them. Past it a change is scanned again, which costs an incremental scan and loses nothing.
 */
const SINCE_LIMIT = 100;

/** The completed scans created since the earliest of the changes' `before` (none when no change has one). */
const completedSince = async (deps: ScanDeps, changed: NonNullable<UpkeepInput['changed']>) => {
  const befores = changed.flatMap((c) => (c.before === undefined ? [] : [c.before]));
  if (!befores.length) return [];
  const since = new Date(Math.min(...befores)).toISOString();
  return (await deps.jobs.list({ since, limit: SINCE_LIMIT })).filter((job) => job.status === 'completed');
};

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

  const changed = input.changed ?? [];
  const seenBy = await completedSince(deps, changed);
  const holds = (folder: string, path: string) => deps.storage.relativeTo(folder, path) !== undefined;
  for (const change of changed) {
    const library = byId.get(change.libraryId);
    if (!library) continue;
    // A folder gone since (or never inside): the library's root covers it.
    const path = holds(library.path, change.path) ? change.path : library.path;
    const { before } = change;
    // A scan that someone (or the schedule) started since the changes already saw them.
    if (before !== undefined && seenBy.some((job) => scanSaw(job, { libraryId: library.id, path, before }, holds))) {
      deps.log.debug({ libraryId: library.id, path }, 'changes already seen by a scan started since');
      continue;
    }
    await scan(library, path, 'watch');
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
