// How a job's end is told: the summary clients get, and a cancel settled by the worker that
// was running the job.
import type { EventSink } from '../events/sink';
import type { JobCounts, ScanJob } from './job';
import { cancel } from './transitions';
import type { ScanJobStore } from './job-store';

export const summaryOf = (job: ScanJob) => {
  const { added, updated, removed, failed } = job.counts;
  const durationMs = Math.max(0, Date.parse(job.finishedAt ?? job.updatedAt) - Date.parse(job.startedAt ?? job.createdAt));
  return { added, updated, removed, failed, durationMs };
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
