// Scan jobs as the API sees them: start (202, the worker runs asynchronously), resume from the
// checkpoint, cancel. Cleanup and recovery after a restart are recovery.ts.
import type { Static } from '@sinclair/typebox';
import type { ScanJob as ScanJobView } from '../api/schemas';
import { AppError, jobStateConflict, notFound } from '../errors';
import type { MediaKind } from '../library/model';
import { libraryForScan, newId, type LibraryDeps } from '../library/service';
import type { Log } from '../log';
import type { Versioned } from '../settings/store';
import type { WorkerInvoker } from './invoker';
import { canCancel, canResume, isFinished, ZERO_COUNTS, type ScanJob, type ScanTrigger } from './job';
import type { ScanJobStore } from './job-store';
import { emitCancelled } from './outcome';
import { fail, newJob, requestCancel, start } from './transitions';

/** What starting, resuming and cancelling scans needs. */
export interface ScanDeps extends LibraryDeps {
  jobs: ScanJobStore;
  invoker: WorkerInvoker;
  log: Log;
}

export const toJobView = (job: ScanJob): Static<typeof ScanJobView> => ({
  jobId: job.jobId,
  status: job.status,
  trigger: job.trigger ?? 'manual',
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
export const dispatch = async (deps: ScanDeps, job: Versioned<ScanJob>, run: number) => {
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
  input: { path: string; mediaType: MediaKind; libraryId?: string | undefined; trigger?: ScanTrigger },
): Promise<ScanJob> => {
  const { library, path } = await libraryForScan(deps, input);
  const created = await deps.jobs.create(
    newJob({ jobId: newId(), libraryId: library.id, path, mediaType: library.mediaType, trigger: input.trigger ?? 'manual' }, Date.now()),
  );
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
export const saveWithRetry = async (deps: Pick<ScanDeps, 'jobs'>, jobId: string, change: (job: ScanJob) => ScanJob) => {
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
