// The scan worker: one invocation runs a job from where it stands until it completes, fails,
// or its time slice ends; then it saves a checkpoint and invokes itself to go on. Every step
// is saved with the version it read, so a second worker on the same job (a duplicate event, a
// resume racing a cleanup) loses its first save and stops, and nothing is written twice that
// is not the same item with the same key. The phases themselves are lib/scan/phases/.
import { isDatabaseDown, isDiskFull, type AppError } from '../errors';
import type { EventSink } from '../events/sink';
import type { Log } from '../log';
import { NO_ENRICHMENT, openScan, type Enrichment, type ScanStores } from './context';
import { pauseForSpace } from './disk-full';
import { failureOf, isTakenOver } from './failure';
import type { ScanRun, WorkerInvoker } from './invoker';
import { isFinished, phaseOrder } from './job';
import type { ScanJobStore } from './job-store';
import { markOffline } from './offline';
import { libraryUpdated, settleCancel, summaryOf } from './outcome';
import { runPhases } from './phases';
import { ProgressReporter } from './progress';
import { advance, complete, fail, start, type Advance } from './transitions';

export interface WorkerDeps extends ScanStores {
  jobs: ScanJobStore;
  events: EventSink;
  invoker: WorkerInvoker;
  log: Log;
  clock?: () => number;
  /** Without it, scans only index files (no metadata or artwork phase work). */
  enrichment?: () => Promise<Enrichment>;
}

/** How long a worker waits for a database that went away before it leaves the job to recovery. */
const DATABASE_WAIT_MS = 10 * 60_000;
const DATABASE_PROBE_MS = 1_000;

/**
 * Runs the job; when the database goes away meanwhile (DynamoDB Local restarted, a network
 * blip) it waits for it and goes on from the last checkpoint, so an outage leaves nothing for
 * a person to clean up. The wait hands over to a fresh invocation when the slice runs out.
 */
export const runWorker = async (deps: WorkerDeps, payload: ScanRun, deadline: number): Promise<void> => {
  const clock = deps.clock ?? Date.now;
  const log = deps.log.child({ jobId: payload.jobId });
  let current = payload;
  for (;;) {
    try {
      return await runJob(deps, current, deadline, log, (run) => (current = { jobId: current.jobId, run }));
    } catch (err) {
      // No room to write: the job pauses until the runner sees space again (lib/scan/disk-full.ts).
      if (isDiskFull(err)) return pauseForSpace(deps, current.jobId, diskOf(err), log);
      if (!isDatabaseDown(err)) throw err;
      const since = current.waitingSince ?? clock();
      log.warn({ err }, 'the database went away during the scan; waiting for it');
      const back = await waitForDatabase(deps, current.jobId, since, deadline, clock);
      if (back === 'back') {
        log.info('the database is back; the scan goes on from its checkpoint');
        current = { jobId: current.jobId, run: current.run };
        continue;
      }
      if (back === 'out-of-time') {
        await deps.invoker.invoke({ jobId: current.jobId, run: current.run, waitingSince: since });
        return log.info('still waiting for the database; continuing in a new invocation');
      }
      // Gone for too long: the job stays running, and cleanup or the next start finds it stale.
      return log.error({ waitedMs: clock() - since }, 'the database stayed away; the scan is left for recovery');
    }
  }
};

const diskOf = (err: unknown) => (err as AppError & { dir?: string }).dir ?? 'the data folder';

const waitForDatabase = async (deps: WorkerDeps, jobId: string, since: number, deadline: number, clock: () => number) => {
  while (clock() - since < DATABASE_WAIT_MS) {
    if (clock() > deadline) return 'out-of-time' as const;
    await new Promise((r) => setTimeout(r, DATABASE_PROBE_MS));
    if (
      await deps.jobs.get(jobId).then(
        () => true,
        () => false,
      )
    )
      return 'back' as const;
  }
  return 'gave-up' as const;
};

/** One run of the job from where it stands; a database outage is thrown to runWorker. */
const runJob = async (deps: WorkerDeps, payload: ScanRun, deadline: number, log: Log, started: (run: number) => void): Promise<void> => {
  const clock = deps.clock ?? Date.now;
  let saved = await deps.jobs.get(payload.jobId);
  if (!saved) return log.warn('scan job not found; nothing to do');
  const fresh = saved.value.status === 'queued' && payload.run === 0;
  if (fresh) {
    try {
      saved = await deps.jobs.save(saved, start(saved.value, clock()));
    } catch (err) {
      if (isTakenOver(err)) return log.info('scan job already taken by another worker');
      throw err;
    }
    started(saved.value.runs);
  } else if (!(saved.value.status === 'running' && saved.value.runs === payload.run)) {
    return log.info({ status: saved.value.status, runs: saved.value.runs, run: payload.run }, 'stale worker invocation; stopping');
  }
  const run = saved.value.runs;
  // Anything but a job's first run may follow writes whose move never came (a crash, the
  // database gone between a write and its move): readers read the whole catalogue once more.
  if (!(fresh && run === 1)) await deps.catalog.bumpVersion({ quiet: true, everything: true });
  if (saved.value.cancelRequested && (await settleCancel(deps, payload.jobId, run, clock()))) {
    await settleReaders(deps, log);
    return log.info('scan cancelled before this run began');
  }

  const reporter = new ProgressReporter(deps.events);
  /** What this worker last made of the job, saved or not: a cancel keeps its counts. */
  let latest = saved.value;
  const step = async (s: Advance, { persist = true } = {}) => {
    // A resumed job may already be past a phase it passes through again (discovery is redone):
    // it stays in its phase, and its progress never goes back.
    const behind = phaseOrder(s.phase) < phaseOrder(saved!.value.phase);
    const next = behind ? { ...s, phase: saved!.value.phase!, processed: 0, total: 1, after: saved!.value.checkpoint?.after ?? null } : s;
    const advanced = advance(saved!.value, next, clock());
    latest = advanced;
    // A step that did no work need not be saved: the next save carries it (same version read).
    saved = persist ? await deps.jobs.save(saved!, advanced) : { value: advanced, version: saved!.version };
    // Clients saw this phase's numbers already; a resumed job reports again once it moves on.
    if (!behind) await reporter.report(saved.value, s.processed, s.total);
  };

  try {
    const enrichment = (await deps.enrichment?.()) ?? NO_ENRICHMENT;
    const ctx = await openScan(deps, saved.value, enrichment, {
      step,
      events: deps.events,
      outOfTime: () => clock() > deadline,
      clock,
      log,
    });
    const outcome = await runPhases(ctx);
    if (outcome === 'handed-over') {
      await deps.invoker.invoke({ jobId: saved.value.jobId, run });
      return log.info({ progress: saved.value.progress }, 'scan slice ended; continuing in a new invocation');
    }
    saved = await deps.jobs.save(saved, complete(saved.value, clock()));
    const job = saved.value;
    await reporter.report(job, 1, 1, { final: true });
    const summary = summaryOf(job);
    await deps.events.emit({ type: 'scan:complete', jobId: job.jobId, summary });
    await deps.events.emit(libraryUpdated(job));
    log.info({ counts: job.counts, durationMs: summary.durationMs }, 'scan completed');
  } catch (err) {
    if (isTakenOver(err)) {
      // A cancel moved the job's version under this worker: it ends the job now.
      if (await settleCancel(deps, payload.jobId, run, clock(), latest.counts)) {
        await settleReaders(deps, log);
        return log.info({ counts: latest.counts }, 'scan cancelled');
      }
      return log.info('scan job changed by another writer; this worker stops');
    }
    if (isDatabaseDown(err) || isDiskFull(err)) throw err;
    const error = failureOf(err);
    log.error({ err, code: error.code }, 'scan failed');
    // Before the job says so: whoever sees it failed sees the library offline too.
    if (error.code === 'library-offline')
      await markOffline(deps, saved.value.libraryId, error.message).catch((e: unknown) =>
        log.warn({ err: e }, 'could not record the library offline'),
      );
    try {
      const now = await deps.jobs.get(payload.jobId);
      if (now && !isFinished(now.value)) await deps.jobs.save(now, fail(now.value, error, clock()));
    } catch (saveErr) {
      // No room even to say so: it pauses for space, and the resumed run meets the failure again.
      if (isDatabaseDown(saveErr) || isDiskFull(saveErr)) throw saveErr;
      log.error({ err: saveErr }, 'could not record the scan failure');
    }
    await settleReaders(deps, log);
    await deps.events.emit({ type: 'scan:error', jobId: payload.jobId, error });
  }
};

/**
 * A scan's chunks move the catalogue's stamp quietly (readers may answer from the index before
 * them); a scan that ends other than by completing (whose last phase moves it) moves it once
 * more, not quietly, so what it wrote is what readers see next.
 */
const settleReaders = (deps: WorkerDeps, log: Log) =>
  deps.catalog.bumpVersion().catch((err: unknown) => log.warn({ err }, "could not move the catalogue's version after the scan ended"));
