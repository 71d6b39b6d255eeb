// After the fact: stale jobs (no worker has saved them for a while) ended, old finished jobs
// removed, and after the service (re)starts every job it left behind recovered.
import { AppError } from '../errors';
import { isFinished, isStale } from './job';
import { emitCancelled } from './outcome';
import { dispatch, type ScanDeps } from './service';
import { autoResume, endOrphan } from './transitions';

/** A running job whose worker has not saved for this long is taken for dead by cleanup. */
export const DEFAULT_STALE_AFTER_SECONDS = 120;
/** Finished jobs are kept this long for clients to look back at. */
export const JOB_RETENTION_DAYS = 7;

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
