// The scan job as a state machine, pure: queued -> running -> completed | failed |
// interrupted | cancelled, and interrupted or failed -> running again on resume. A cancel
// ends a job that is not running at once; a running one is marked and its worker ends it
// (`cancelled`) at its next step. Cancelled and completed jobs never run again. Progress is derived
// from the phase and the work done in it, and never goes down within a job, so a resumed
// job or a late progress report cannot move the bar backwards. The store persists what
// these functions return; the worker calls them.
import type { Static } from '@sinclair/typebox';
import type { JobStatus as JobStatusSchema, MediaType, ScanPhase as ScanPhaseSchema } from '../api/schemas';
import { jobStateConflict, type JobError } from '../errors';

export type ScanPhase = Static<typeof ScanPhaseSchema>;
export type JobStatus = Static<typeof JobStatusSchema>;

export interface JobCounts {
  discovered: number;
  processed: number;
  added: number;
  updated: number;
  removed: number;
  /** Files whose names could not be read, and items whose metadata, NFO or artwork failed. */
  failed: number;
  /** Items the metadata provider matched, and those it was asked about but did not. */
  matched: number;
  unmatched: number;
  /** Pictures copied into the artwork store. */
  artwork: number;
  /** Video files whose technical info was read, and those that could not be read (not counted in failed). */
  probed: number;
  probeFailed: number;
}

/** Where a resumed job picks up: the phase, and the last item done in it (items go in sorted order). */
export interface Checkpoint {
  phase: ScanPhase;
  after: string | null;
}

export interface ScanJob {
  jobId: string;
  libraryId: string;
  path: string;
  mediaType: Static<typeof MediaType>;
  status: JobStatus;
  phase: ScanPhase | null;
  progress: number;
  counts: JobCounts;
  checkpoint: Checkpoint | null;
  createdAt: string;
  startedAt: string | null;
  updatedAt: string;
  heartbeatAt: string | null;
  finishedAt: string | null;
  error: JobError | null;
  /** How many times the job has been started: 1 for the first run, more after resumes. */
  runs: number;
  /** Set on a running job by a cancel: its worker ends it at its next step. */
  cancelRequested?: boolean;
  /**
   * Automatic resumes after restarts in a row that found the job no further on (`progress` is
   * where the last one started): a job that keeps stopping the service is not resumed forever.
   */
  autoResumes?: { count: number; progress: number };
  /** What a user should know about a scan that still completed (a refused provider key). */
  warnings?: string[];
}

/** Each phase's share of the progress bar, in order. */
export const PHASES: ReadonlyArray<{ phase: ScanPhase; from: number; to: number }> = [
  { phase: 'discovering', from: 0, to: 10 },
  { phase: 'analyzing', from: 10, to: 60 },
  { phase: 'metadata', from: 60, to: 85 },
  { phase: 'artwork', from: 85, to: 95 },
  { phase: 'finalizing', from: 95, to: 100 },
];

export const ZERO_COUNTS: JobCounts = { discovered: 0, processed: 0, added: 0, updated: 0, removed: 0, failed: 0, matched: 0, unmatched: 0, artwork: 0, probed: 0, probeFailed: 0 };
const ZERO = ZERO_COUNTS;
const iso = (now: number) => new Date(now).toISOString();
const round = (n: number) => Math.round(n * 10) / 10;

/** Queued or running: the job holds its path, and no other job of that path may start. */
export const isActive = (job: Pick<ScanJob, 'status'>) => job.status === 'queued' || job.status === 'running';
export const isFinished = (job: Pick<ScanJob, 'status'>) => !isActive(job);
export const canResume = (job: Pick<ScanJob, 'status'>) => job.status === 'interrupted' || job.status === 'failed';
/** Completed and cancelled jobs are over for good; anything else can still be cancelled. */
export const canCancel = (job: Pick<ScanJob, 'status'>) => job.status !== 'completed' && job.status !== 'cancelled';
/** Automatic resumes in a row without progress after which a job stays failed. */
export const MAX_AUTO_RESUMES = 3;

/** Progress within the bar for `processed` of `total` items of a phase. */
export const progressOf = (phase: ScanPhase, processed: number, total: number): number => {
  const span = PHASES.find((p) => p.phase === phase)!;
  const share = total > 0 ? Math.min(1, Math.max(0, processed / total)) : 1;
  return round(span.from + (span.to - span.from) * share);
};

export const newJob = (init: Pick<ScanJob, 'jobId' | 'libraryId' | 'path' | 'mediaType'>, now: number): ScanJob => ({
  ...init,
  status: 'queued',
  phase: null,
  progress: 0,
  counts: { ...ZERO },
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
  /** The last item finished, for the checkpoint. */
  after?: string | null;
  counts?: Partial<JobCounts>;
  /** Added to the job's warnings (once each). */
  warning?: string;
}

/** Records work done; also the heartbeat. Progress only moves forward. */
export const advance = (job: ScanJob, step: Advance, now: number): ScanJob => {
  if (job.status !== 'running') throw jobStateConflict(job.jobId, job.status, 'make progress');
  const order = (p: ScanPhase | null) => PHASES.findIndex((x) => x.phase === p);
  if (order(step.phase) < order(job.phase)) throw jobStateConflict(job.jobId, `in ${job.phase}`, `go back to ${step.phase}`);
  return {
    ...job,
    phase: step.phase,
    progress: Math.max(job.progress, progressOf(step.phase, step.processed, step.total)),
    counts: { ...job.counts, ...step.counts },
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

/** 0 takes every running job for stale (what a client sends after a crash). */
export const isStale = (job: ScanJob, now: number, staleAfterMs: number) =>
  job.status === 'running' && now - Date.parse(job.heartbeatAt ?? job.updatedAt) >= staleAfterMs;

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
