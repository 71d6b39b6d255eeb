// Scan jobs as the API sees them: start (202, the worker runs asynchronously), resume from the
// checkpoint, cancel, clean up stale and old jobs, and recover after the service restarts.
import type { Static } from '@sinclair/typebox';
import type { ScanJob as ScanJobView } from '../api/schemas';
import type { MediaKind } from '../catalog/model';
import { AppError, jobStateConflict, notFound } from '../errors';
import { deleteLibrary, libraryForScan, newId } from '../library/service';
import type { Versioned } from '../settings/store';
import { autoResume, cancel, canCancel, canResume, endOrphan, fail, isActive, isFinished, isStale, newJob, requestCancel, start, ZERO_COUNTS, type ScanJob } from './job';
import { emitCancelled, type WorkerDeps } from './worker';

export type ScanDeps = WorkerDeps;

/** A running job whose worker has not saved for this long is taken for dead by cleanup. */
export const DEFAULT_STALE_AFTER_SECONDS = 120;
/** Finished jobs are kept this long for clients to look back at. */
export const JOB_RETENTION_DAYS = 7;

export const toJobView = (job: ScanJob): Static<typeof ScanJobView> => ({
  jobId: job.jobId,
  status: job.status,
  path: job.path,
  mediaType: job.mediaType,
  libraryId: job.libraryId,
  phase: job.phase,
  progress: job.progress,
  // Jobs saved by an older version lack the newer counters.
  counts: { ...ZERO_COUNTS, ...job.counts },
  warnings: job.warnings ?? [],
  startedAt: job.startedAt,
  updatedAt: job.updatedAt,
  finishedAt: job.finishedAt,
  error: job.error,
});

/** Hands a job to the worker; if the worker cannot be reached the job fails (resumable) and the caller gets the 503. */
const dispatch = async (deps: ScanDeps, job: Versioned<ScanJob>, run: number) => {
  try {
    await deps.invoker.invoke({ jobId: job.value.jobId, run });
  } catch (err) {
    const error = { code: 'worker-unavailable' as const, message: 'The scan worker could not be started; resume the job to retry' };
    if (!isFinished(job.value)) await deps.jobs.save(job, fail(job.value, error, Date.now())).catch(() => undefined);
    throw err;
  }
};

export const startScan = async (
  deps: ScanDeps,
  input: { path: string; mediaType: MediaKind; libraryId?: string | undefined },
): Promise<ScanJob> => {
  const { library, path } = await libraryForScan(deps, input);
  const created = await deps.jobs.create(newJob({ jobId: newId(), libraryId: library.id, path, mediaType: library.mediaType }, Date.now()));
  await dispatch(deps, created, 0);
  return created.value;
};

export const getJob = async (deps: Pick<ScanDeps, 'jobs'>, jobId: string): Promise<Versioned<ScanJob>> => {
  const job = await deps.jobs.get(jobId);
  if (!job) throw notFound(`Scan job ${jobId}`);
  return job;
};

export const resumeJob = async (deps: ScanDeps, jobId: string): Promise<ScanJob> => {
  const job = await getJob(deps, jobId);
  if (!canResume(job.value)) throw jobStateConflict(jobId, job.value.status, 'be resumed (only interrupted or failed jobs can)');
  // Resumed by a person: the count of automatic resumes starts again.
  const running = await deps.jobs.save(job, start({ ...job.value, autoResumes: undefined }, Date.now()));
  await dispatch(deps, running, running.value.runs);
  return running.value;
};

/**
 * Saves `change` of the job, read again while its worker's saves keep moving its version.
 * `change` throws when the job read no longer allows it; that is never retried.
 */
const saveWithRetry = async (deps: Pick<ScanDeps, 'jobs'>, jobId: string, change: (job: ScanJob) => ScanJob) => {
  for (let attempt = 1; ; attempt++) {
    const job = await getJob(deps, jobId);
    const next = change(job.value);
    try {
      return await deps.jobs.save(job, next);
    } catch (err) {
      if (!(err instanceof AppError && err.code === 'job-state-conflict') || attempt >= 5) throw err;
    }
  }
};

/**
 * Cancels a job: one that is not running ends `cancelled` at once (and is never resumed); a
 * running one is marked, and its worker ends it at its next step, keeping what it wrote.
 */
export const cancelJob = async (deps: ScanDeps, jobId: string): Promise<ScanJob> => {
  const saved = await saveWithRetry(deps, jobId, (j) => {
    if (!canCancel(j)) throw jobStateConflict(jobId, j.status, 'be cancelled (it is over already)');
    return requestCancel(j, Date.now());
  });
  if (saved.value.status === 'cancelled') await emitCancelled(deps, saved.value);
  return saved.value;
};

/** How long a library delete waits for its running scan to stop at its next step. */
const CANCEL_WAIT_MS = 15_000;

/**
 * Cancels the library's running scan and waits until its worker has stopped writing (or, when
 * no worker answers in time, ends the job itself), then removes the library.
 */
export const deleteLibraryWithScans = async (deps: ScanDeps, libraryId: string, waitMs = CANCEL_WAIT_MS): Promise<void> => {
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

const LIST_LIMIT = 1_000;

export const cleanupJobs = async (deps: ScanDeps, staleAfterSeconds = DEFAULT_STALE_AFTER_SECONDS, now = Date.now()) => {
  const result = { interrupted: 0, removed: 0 };
  const retentionMs = JOB_RETENTION_DAYS * 86_400_000;
  for (const job of await deps.jobs.list({ limit: LIST_LIMIT })) {
    const stale = isStale(job, now, staleAfterSeconds * 1000);
    const old = isFinished(job) && now - Date.parse(job.finishedAt ?? job.updatedAt) > retentionMs;
    if (!stale && !old) continue;
    const current = await deps.jobs.get(job.jobId);
    if (!current) continue;
    try {
      if (stale && isStale(current.value, now, staleAfterSeconds * 1000)) {
        const ended = endOrphan(current.value, now);
        await deps.jobs.save(current, ended);
        if (ended.status === 'cancelled') await emitCancelled(deps, ended);
        else result.interrupted++;
      } else if (old) {
        await deps.jobs.remove(current);
        result.removed++;
      }
    } catch (err) {
      // The worker beat or finished meanwhile: it is alive, leave it.
      if (!(err instanceof AppError && err.code === 'job-state-conflict')) throw err;
    }
  }
  return result;
};

/**
 * After the service (re)starts no worker survives, so every queued or running job is an
 * orphan: running ones become interrupted and, when the setting says so, resume at once
 * (unless they were resumed this way MAX_AUTO_RESUMES times in a row without getting any
 * further: then they stay failed with the reason); queued ones are handed to a worker again;
 * running ones whose cancel was asked for end cancelled.
 */
export const recoverJobs = async (deps: ScanDeps, resumeByItself: boolean) => {
  const result = { interrupted: 0, resumed: 0, requeued: 0, cancelled: 0, gaveUp: 0 };
  for (const job of await deps.jobs.list({ limit: LIST_LIMIT })) {
    if (job.status !== 'running' && job.status !== 'queued') continue;
    const current = await deps.jobs.get(job.jobId);
    if (!current) continue;
    try {
      if (current.value.status === 'queued') {
        await dispatch(deps, current, 0);
        result.requeued++;
        continue;
      }
      if (current.value.status !== 'running') continue;
      const interrupted = await deps.jobs.save(current, endOrphan(current.value, Date.now()));
      if (interrupted.value.status === 'cancelled') {
        await emitCancelled(deps, interrupted.value);
        result.cancelled++;
        continue;
      }
      result.interrupted++;
      if (!resumeByItself) continue;
      const next = await deps.jobs.save(interrupted, autoResume(interrupted.value, Date.now()));
      if (next.value.status === 'failed') {
        deps.log.error({ jobId: job.jobId, error: next.value.error }, 'a scan that keeps stopping the service is not resumed again');
        await deps.events.emit({ type: 'scan:error', jobId: job.jobId, error: next.value.error! });
        result.gaveUp++;
        continue;
      }
      await dispatch(deps, next, next.value.runs);
      result.resumed++;
    } catch (err) {
      deps.log.error({ err, jobId: job.jobId }, 'could not recover a scan job');
    }
  }
  return result;
};
