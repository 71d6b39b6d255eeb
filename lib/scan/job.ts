// What a scan job is: its shape as stored, its phases and their share of the progress bar, and
// the questions asked of its status. How it moves from state to state is transitions.ts.
import type { Static } from '@sinclair/typebox';
import type {
  JobStatus as JobStatusSchema,
  MediaType,
  ScanPhase as ScanPhaseSchema,
  ScanTrigger as ScanTriggerSchema,
} from '../api/schemas';
import type { JobError } from '../errors';

export type ScanPhase = Static<typeof ScanPhaseSchema>;
export type JobStatus = Static<typeof JobStatusSchema>;
export type ScanTrigger = Static<typeof ScanTriggerSchema>;

export interface JobCounts {
  discovered: number;
  processed: number;
  added: number;
  updated: number;
  /** Items whose files moved or were renamed: same item, new path. */
  moved: number;
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

export type ChangeKind = 'added' | 'updated' | 'moved' | 'removed';

/** The ids of the items a job changed, at most MAX_CHANGED_IDS of each kind (the counts say whether there were more). */
export type ChangedIds = Record<ChangeKind, string[]>;
export const MAX_CHANGED_IDS = 100;
export const NO_CHANGED_IDS: ChangedIds = { added: [], updated: [], moved: [], removed: [] };

/** Adds ids to a kind's list, once each and up to the cap. */
export const noteChanged = (changed: ChangedIds, kind: ChangeKind, ids: Iterable<string>) => {
  const list = changed[kind];
  for (const id of ids) {
    if (list.length >= MAX_CHANGED_IDS) return;
    if (!list.includes(id)) list.push(id);
  }
};

export interface ScanJob {
  jobId: string;
  /** What started it; jobs saved before triggers existed were started by a request. */
  trigger?: ScanTrigger;
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
  /** The items changed so far, for library:updated. */
  changedIds?: ChangedIds;
}

/** Each phase's share of the progress bar, in order. */
export const PHASES: ReadonlyArray<{ phase: ScanPhase; from: number; to: number }> = [
  { phase: 'discovering', from: 0, to: 10 },
  { phase: 'analyzing', from: 10, to: 60 },
  { phase: 'metadata', from: 60, to: 85 },
  { phase: 'artwork', from: 85, to: 95 },
  { phase: 'finalizing', from: 95, to: 100 },
];

export const ZERO_COUNTS: JobCounts = {
  discovered: 0,
  processed: 0,
  added: 0,
  updated: 0,
  moved: 0,
  removed: 0,
  failed: 0,
  matched: 0,
  unmatched: 0,
  artwork: 0,
  probed: 0,
  probeFailed: 0,
};
const round = (n: number) => Math.round(n * 10) / 10;

/** Queued or running: the job holds its path, and no other job of that path may start. */
export const isActive = (job: Pick<ScanJob, 'status'>) => job.status === 'queued' || job.status === 'running';
export const isFinished = (job: Pick<ScanJob, 'status'>) => !isActive(job);
export const canResume = (job: Pick<ScanJob, 'status'>) => job.status === 'interrupted' || job.status === 'failed';
/** Completed and cancelled jobs are over for good; anything else can still be cancelled. */
export const canCancel = (job: Pick<ScanJob, 'status'>) => job.status !== 'completed' && job.status !== 'cancelled';
/** Automatic resumes in a row without progress after which a job stays failed. */
export const MAX_AUTO_RESUMES = 3;

/** A phase's place in the order of PHASES (-1 before the first). */
export const phaseOrder = (phase: ScanPhase | null) => PHASES.findIndex((p) => p.phase === phase);

/** 0 takes every running job for stale (what a client sends after a crash). */
export const isStale = (job: ScanJob, now: number, staleAfterMs: number) =>
  job.status === 'running' && now - Date.parse(job.heartbeatAt ?? job.updatedAt) >= staleAfterMs;

/** Progress within the bar for `processed` of `total` items of a phase, or of the part `share` of it. */
export const progressOf = (
  phase: ScanPhase,
  processed: number,
  total: number,
  [start, end]: readonly [number, number] = [0, 1],
): number => {
  const span = PHASES.find((p) => p.phase === phase)!;
  const done = total > 0 ? Math.min(1, Math.max(0, processed / total)) : 1;
  return round(span.from + (span.to - span.from) * (start + (end - start) * done));
};
