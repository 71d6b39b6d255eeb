// Scan jobs as the API sees them: start (202, the worker runs asynchronously), resume from the
// checkpoint, clean up stale and old jobs, and recover after the service restarts.
import type { Static } from '@sinclair/typebox';
import type { ScanJob as ScanJobView } from '../api/schemas';
import type { MediaKind } from '../catalog/model';
import { AppError, jobStateConflict, notFound } from '../errors';
import { libraryForScan, newId } from '../library/service';
import type { Versioned } from '../settings/store';
import { canResume, fail, interrupt, isFinished, isStale, newJob, start, ZERO_COUNTS, type ScanJob } from './job';
import type { WorkerDeps } from './worker';

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
    const error = { code: 'worker-unavailable', message: 'The scan worker could not be started; resume the job to retry' };
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
  const running = await deps.jobs.save(job, start(job.value, Date.now()));
  await dispatch(deps, running, running.value.runs);
  return running.value;
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
        await deps.jobs.save(current, interrupt(current.value, now));
        result.interrupted++;
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
 * orphan: running ones become interrupted and, when the setting says so, resume at once;
 * queued ones are handed to a worker again.
 */
export const recoverJobs = async (deps: ScanDeps, autoResume: boolean) => {
  const result = { interrupted: 0, resumed: 0, requeued: 0 };
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
      const interrupted = await deps.jobs.save(current, interrupt(current.value, Date.now()));
      result.interrupted++;
      if (!autoResume) continue;
      const running = await deps.jobs.save(interrupted, start(interrupted.value, Date.now()));
      await dispatch(deps, running, running.value.runs);
      result.resumed++;
    } catch (err) {
      deps.log.error({ err, jobId: job.jobId }, 'could not recover a scan job');
    }
  }
  return result;
};
