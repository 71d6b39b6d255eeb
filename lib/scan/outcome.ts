// How a job's end is told: the summary clients get, and a cancel settled by the worker that
// was running the job.
import type { EventSink } from '../events/sink';
import { NO_CHANGED_IDS, type JobCounts, type ScanJob } from './job';
import { cancel } from './transitions';
import type { ScanJobStore } from './job-store';

export const summaryOf = (job: ScanJob) => {
  const { added, updated, moved = 0, removed, failed } = job.counts;
  const durationMs = Math.max(0, Date.parse(job.finishedAt ?? job.updatedAt) - Date.parse(job.startedAt ?? job.createdAt));
  return { added, updated, moved, removed, failed, durationMs };
};

/** library:updated for a finished job: its counts, and the ids it changed (the counts tell when there were more than listed). */
export const libraryUpdated = (job: ScanJob) => {
  const { added, updated, moved = 0, removed } = job.counts;
  const ids = job.changedIds ?? NO_CHANGED_IDS;
  const truncated = added > ids.added.length || updated > ids.updated.length || moved > ids.moved.length || removed > ids.removed.length;
  return {
    type: 'library:updated' as const,
    libraryId: job.libraryId,
    changes: { added, updated, moved, removed },
    items: { ...ids, truncated },
  };
};

export const emitCancelled = (deps: { events: EventSink }, job: ScanJob) =>
  deps.events.emit({ type: 'scan:cancelled', jobId: job.jobId, summary: summaryOf(job) });

/** Ends a job whose cancel was asked for while it ran, with the counts of what it did; false when it was not that. */
export const settleCancel = async (
  deps: { jobs: ScanJobStore; events: EventSink },
  jobId: string,
  run: number | undefined,
  now: number,
  counts?: JobCounts,
): Promise<boolean> => {
  const latest = await deps.jobs.get(jobId);
  const job = latest?.value;
  if (!latest || !job || job.status !== 'running' || !job.cancelRequested || (run !== undefined && job.runs !== run)) return false;
  const cancelled = await deps.jobs.save(latest, cancel({ ...job, counts: counts ?? job.counts }, now));
  await emitCancelled(deps, cancelled.value);
  return true;
};
