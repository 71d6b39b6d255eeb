// A scan on a full disk: it pauses (interrupted, with the `disk-full` reason, in the job, on
// /ws and in the log) instead of failing or spinning, and resumes from its checkpoint by itself
// when the runner sees space come back (functions/scan/maintenance.ts), or at the next start.
import type { JobError } from '../errors';
import type { EventSink } from '../events/sink';
import type { Log } from '../log';
import type { ScanJobStore } from './job-store';
import { dispatch, type ScanDeps } from './service';
import { isFinished } from './job';
import { pause, start } from './transitions';

const LIST_LIMIT = 1_000;
/** Tries at recording the pause: the reserve given up by the failed write makes the first one likely to work. */
const PAUSE_TRIES = 10;
const PAUSE_RETRY_MS = 1_000;

export const diskFullError = (dir: string): JobError => ({
  code: 'disk-full',
  message: `The disk holding ${dir} is full: the scan is paused and goes on by itself from where it stopped once there is space again`,
});

/**
 * Records the pause and tells clients. When even that cannot be written the job stays as it
 * is (running, its heartbeat ageing) and is found by cleanup or the next start.
 */
export const pauseForSpace = async (
  deps: { jobs: ScanJobStore; events: EventSink; clock?: () => number },
  jobId: string,
  dir: string,
  log: Log,
): Promise<void> => {
  const error = diskFullError(dir);
  for (let attempt = 1; attempt <= PAUSE_TRIES; attempt++) {
    try {
      const now = await deps.jobs.get(jobId);
      if (!now || isFinished(now.value)) return;
      await deps.jobs.save(now, pause(now.value, error, (deps.clock ?? Date.now)()));
      log.warn({ code: error.code }, 'scan paused: the disk is full');
      await deps.events.emit({ type: 'scan:error', jobId, error });
      return;
    } catch (err) {
      if (attempt === PAUSE_TRIES)
        return log.error({ err }, 'the disk is full and the scan could not record its pause; cleanup or the next start will find it');
      await new Promise((r) => setTimeout(r, PAUSE_RETRY_MS));
    }
  }
};

/** What holds caches that can be given back (the scan's deps have both). */
export interface Caches {
  artworks?: { dropVariants?(): Promise<number> } | undefined;
  subtitleCache?: { clear?(): Promise<number> } | undefined;
  playbackSegments?: { clear(): Promise<number> } | undefined;
}

/** Caches give their space back first when it runs low: rendered artwork, extracted subtitles, conversions' segments. The bytes freed. */
export const reclaimCaches = async (caches: Caches, log: Log): Promise<number> => {
  const freed =
    ((await caches.artworks?.dropVariants?.()) ?? 0) +
    ((await caches.subtitleCache?.clear?.()) ?? 0) +
    ((await caches.playbackSegments?.clear()) ?? 0);
  log.warn({ freedBytes: freed }, 'the disk is low on space: caches gave theirs back');
  return freed;
};

/** Every job paused for space goes on from its checkpoint; returns how many did. */
export const resumePausedForSpace = async (deps: ScanDeps): Promise<number> => {
  let resumed = 0;
  for (const job of await deps.jobs.list({ status: 'interrupted', limit: LIST_LIMIT })) {
    if (job.error?.code !== 'disk-full') continue;
    const current = await deps.jobs.get(job.jobId);
    if (!current || current.value.status !== 'interrupted' || current.value.error?.code !== 'disk-full') continue;
    try {
      const next = await deps.jobs.save(current, start(current.value, Date.now()));
      await dispatch(deps, next, next.value.runs);
      resumed++;
    } catch (err) {
      deps.log.warn({ err, jobId: job.jobId }, 'could not resume a scan paused for space');
    }
  }
  if (resumed) deps.log.info({ resumed }, 'space is back: paused scans go on');
  return resumed;
};
