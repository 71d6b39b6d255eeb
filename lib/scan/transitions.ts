// The scan job as a state machine, pure: queued -> running -> completed | failed |
// interrupted | cancelled, and interrupted or failed -> running again on resume. A cancel
// ends a job that is not running at once; a running one is marked and its worker ends it
// (`cancelled`) at its next step. Cancelled and completed jobs never run again. Progress is derived
// from the phase and the work done in it, and never goes down within a job, so a resumed
// job or a late progress report cannot move the bar backwards. The store persists what
// these functions return; the worker calls them.
import { jobStateConflict, type JobError } from '../errors';
import {
  canCancel,
  canResume,
  isFinished,
  MAX_AUTO_RESUMES,
  phaseOrder,
  progressOf,
  ZERO_COUNTS,
  type ChangedIds,
  type JobCounts,
  type ScanJob,
  type ScanPhase,
} from './job';

const iso = (now: number) => new Date(now).toISOString();

export const newJob = (
  init: Pick<ScanJob, 'jobId' | 'libraryId' | 'path' | 'mediaType'> & Partial<Pick<ScanJob, 'trigger'>>,
  now: number,
): ScanJob => ({
  trigger: 'manual',
  ...init,
  status: 'queued',
  phase: null,
  progress: 0,
  counts: { ...ZERO_COUNTS },
  checkpoint: null,
  createdAt: iso(now),
  startedAt: null,
  updatedAt: iso(now),
  heartbeatAt: null,
  finishedAt: null,
  error: null,
  runs: 0,
});

/** Starts a queued job, or resumes an interrupted or failed one from its checkpoint. */
export const start = (job: ScanJob, now: number): ScanJob => {
  if (job.status !== 'queued' && !canResume(job)) throw jobStateConflict(job.jobId, job.status, 'start');
  return {
    ...job,
    status: 'running',
    phase: job.checkpoint?.phase ?? 'discovering',
    startedAt: job.startedAt ?? iso(now),
    updatedAt: iso(now),
    heartbeatAt: iso(now),
    finishedAt: null,
    error: null,
    runs: job.runs + 1,
  };
};

export interface Advance {
  phase: ScanPhase;
  processed: number;
  total: number;
  /** The part of the phase's bar that processed/total fills (a phase of two passes); all of it by default. */
  share?: readonly [number, number];
  /** The last item finished, for the checkpoint. */
  after?: string | null;
  counts?: Partial<JobCounts>;
  /** Added to the job's warnings (once each). */
  warning?: string;
  /** The ids changed so far (replaces the job's). */
  changedIds?: ChangedIds;
}

/** Records work done; also the heartbeat. Progress only moves forward. */
export const advance = (job: ScanJob, step: Advance, now: number): ScanJob => {
  if (job.status !== 'running') throw jobStateConflict(job.jobId, job.status, 'make progress');
  if (phaseOrder(step.phase) < phaseOrder(job.phase)) throw jobStateConflict(job.jobId, `in ${job.phase}`, `go back to ${step.phase}`);
  return {
    ...job,
    phase: step.phase,
    progress: Math.max(job.progress, progressOf(step.phase, step.processed, step.total, step.share)),
    counts: { ...job.counts, ...step.counts },
    ...(step.changedIds ? { changedIds: step.changedIds } : {}),
    ...(step.warning && !(job.warnings ?? []).includes(step.warning) ? { warnings: [...(job.warnings ?? []), step.warning] } : {}),
    checkpoint: { phase: step.phase, after: step.after ?? (step.phase === job.checkpoint?.phase ? job.checkpoint.after : null) },
    updatedAt: iso(now),
    heartbeatAt: iso(now),
  };
};

export const complete = (job: ScanJob, now: number): ScanJob => {
  if (job.status !== 'running') throw jobStateConflict(job.jobId, job.status, 'complete');
  return { ...job, status: 'completed', phase: 'finalizing', progress: 100, checkpoint: null, updatedAt: iso(now), finishedAt: iso(now) };
};

/** A job that cannot go on (path vanished, database down): resumable from its checkpoint. */
export const fail = (job: ScanJob, error: JobError, now: number): ScanJob => {
  if (isFinished(job)) throw jobStateConflict(job.jobId, job.status, 'fail');
  return { ...job, status: 'failed', error, updatedAt: iso(now), finishedAt: iso(now) };
};

/** A running job whose worker stopped beating (crash, power loss, killed): resumable. */
export const interrupt = (job: ScanJob, now: number): ScanJob => {
  if (job.status !== 'running') throw jobStateConflict(job.jobId, job.status, 'be interrupted');
  return { ...job, status: 'interrupted', updatedAt: iso(now), finishedAt: iso(now) };
};

/**
 * A queued or running job that cannot write (a full disk): interrupted with the reason, and
 * resumed from its checkpoint when the cause is gone (lib/scan/disk-full.ts).
 */
export const pause = (job: ScanJob, error: JobError, now: number): ScanJob => {
  if (isFinished(job)) throw jobStateConflict(job.jobId, job.status, 'pause');
  return { ...job, status: 'interrupted', error, updatedAt: iso(now), finishedAt: iso(now) };
};

/** A running job with no worker left: cancelled when that was asked for, else interrupted (resumable). */
export const endOrphan = (job: ScanJob, now: number): ScanJob => (job.cancelRequested ? cancel(job, now) : interrupt(job, now));

/** Ends the job for good, keeping what it wrote and its counts; never resumed. */
export const cancel = (job: ScanJob, now: number): ScanJob => {
  if (!canCancel(job)) throw jobStateConflict(job.jobId, job.status, 'be cancelled');
  return { ...job, status: 'cancelled', cancelRequested: true, checkpoint: null, error: null, updatedAt: iso(now), finishedAt: iso(now) };
};

/** A cancel as the API asks for it: a running job is marked for its worker, any other ends now. */
export const requestCancel = (job: ScanJob, now: number): ScanJob => {
  if (job.status !== 'running') return cancel(job, now);
  return { ...job, cancelRequested: true, updatedAt: iso(now) };
};

/**
 * What a restart does with a job it found running: resume it, unless it was resumed
 * automatically MAX_AUTO_RESUMES times in a row and got no further each time.
 */
export const autoResume = (interrupted: ScanJob, now: number): ScanJob => {
  const last = interrupted.autoResumes;
  const stuck = last !== undefined && interrupted.progress <= last.progress ? last.count : 0;
  if (stuck >= MAX_AUTO_RESUMES) {
    const where = `${interrupted.phase ?? 'starting'} at ${interrupted.progress}%`;
    const message = `The scan stopped with the service ${stuck + 1} times in a row (${where}) and is no longer resumed by itself; check the folder, then resume it by hand`;
    return { ...interrupted, status: 'failed', error: { code: 'resume-limit', message }, updatedAt: iso(now), finishedAt: iso(now) };
  }
  return start({ ...interrupted, autoResumes: { count: stuck + 1, progress: interrupted.progress } }, now);
};
