// The scan domain: start a scan (202; the worker runs asynchronously), list and read jobs,
// resume an interrupted or failed one, cancel one, and clean up.
import { operations } from '../../lib/api/operations';
import { services } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { accepted, ok } from '../../lib/http/reply';
import { cleanupJobs } from '../../lib/scan/recovery';
import { cancelJob, getJob, resumeJob, startScan, toJobView } from '../../lib/scan/service';

const JOBS_PAGE = 100;

export const start = http(operations.startScan, async ({ body }, { log }) => {
  const job = await startScan(services, body);
  log.info({ jobId: job.jobId, libraryId: job.libraryId, path: job.path }, 'scan queued');
  return accepted(toJobView(job));
});

export const jobs = http(operations.listJobs, async ({ query }) => {
  const list = (await services.jobs.list({ status: query.status, limit: JOBS_PAGE })).map(toJobView);
  return ok(list, { total: list.length, nextCursor: null });
});

export const job = http(operations.getJob, async ({ params }) => ok(toJobView((await getJob(services, params.jobId)).value)));

export const resume = http(operations.resumeJob, async ({ params }, { log }) => {
  const job = await resumeJob(services, params.jobId);
  log.info({ jobId: job.jobId, run: job.runs }, 'scan resumed');
  return accepted(toJobView(job));
});

export const cancel = http(operations.cancelJob, async ({ params }, { log }) => {
  const job = await cancelJob(services, params.jobId);
  log.info({ jobId: job.jobId, status: job.status }, 'scan cancel asked for');
  return accepted(toJobView(job));
});

export const cleanup = http(operations.cleanupJobs, async ({ body }, { log }) => {
  const result = await cleanupJobs(services, body?.staleAfterSeconds);
  log.info(result, 'scan jobs cleaned up');
  return ok(result);
});
