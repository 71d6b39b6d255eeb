// The scan worker: one invocation runs a job from where it stands until it completes, fails,
// or its time slice ends; then it saves a checkpoint and invokes itself to go on. Every step
// is saved with the version it read, so a second worker on the same job (a duplicate event, a
// resume racing a cleanup) loses its first save and stops, and nothing is written twice that
// is not the same item with the same key.
import { collectArtwork, type ArtworkTally } from '../artwork/collect';
import type { CatalogItem, IndexEntry } from '../catalog/model';
import { countsOf, planScan, type Plan, type PlannedWrite } from '../catalog/plan';
import { enrichMetadata, type EnrichTally } from '../metadata/enrich';
import type { MetadataProvider } from '../metadata/provider';
import { AppError, isDatabaseDown, type JobError, type JobErrorCode } from '../errors';
import { dropArtwork, type LibraryDeps } from '../library/service';
import type { Log } from '../log';
import { WalkLimitError } from '../storage/walk';
import { analyzeFiles, type ProbeTally } from './analyze';
import type { WorkerInvoker, WorkerPayload } from './invoker';
import { advance, cancel, complete, fail, isFinished, PHASES, start, type Advance, type JobCounts, type ScanJob, type ScanPhase } from './job';
import { ProgressReporter } from './progress';

/** What a scan may use to enrich items, read from the settings when the scan runs. */
export interface Enrichment {
  /** Null when fetching is off or no key is set: no provider call at all. */
  provider: MetadataProvider | null;
  artwork: boolean;
  meshGradients: boolean;
}

export interface WorkerDeps extends LibraryDeps {
  invoker: WorkerInvoker;
  log: Log;
  clock?: () => number;
  /** Without it, scans only index files (no metadata or artwork phase work). */
  enrichment?: () => Promise<Enrichment>;
}

/** Items per metadata step: each costs a few provider requests, so a step stays well inside the time reserve. */
const METADATA_CHUNK = 50;
const ARTWORK_CHUNK = 20;
export const KEY_REFUSED_WARNING = 'The TMDB API key was refused (401): this scan added no provider metadata or artwork. Check the key in settings, then scan again.';

/**
 * Items written per step: each step is one checkpoint (a job save), one heartbeat and one
 * version bump. Big enough to keep four batch writes in flight, small enough to beat often.
 */
const CHUNK = 400;

/** A reason the scan cannot go on, reported as the job's error and in scan:error. */
class ScanFailure extends Error {
  constructor(readonly code: JobErrorCode, message: string) {
    super(message);
  }
}

const order = (phase: ScanPhase | null) => PHASES.findIndex((p) => p.phase === phase);

const failureOf = (err: unknown): JobError => {
  if (err instanceof ScanFailure) return jobError(err.code, err.message);
  // Discovery's bounds (SCAN_MAX_ENTRIES, SCAN_MAX_DEPTH): the folder is not one a scan walks.
  if (err instanceof WalkLimitError) return jobError(err.limit === 'entries' ? 'scan-too-large' : 'scan-too-deep', `${err.message}; scan a folder below it, or raise ${err.limit === 'entries' ? 'SCAN_MAX_ENTRIES' : 'SCAN_MAX_DEPTH'}`);
  if (err instanceof AppError && err.status === 503) return jobError('dependency-unavailable', err.message);
  return jobError('internal', 'The scan stopped on an unexpected error; it can be resumed');
};

const jobError = (code: JobErrorCode, message: string): JobError => ({ code, message });

const isTakenOver = (err: unknown) => err instanceof AppError && err.code === 'job-state-conflict';

/** How long a worker waits for a database that went away before it leaves the job to recovery. */
const DATABASE_WAIT_MS = 10 * 60_000;
const DATABASE_PROBE_MS = 1_000;

const summaryOf = (job: ScanJob) => {
  const { added, updated, removed, failed } = job.counts;
  const durationMs = Math.max(0, Date.parse(job.finishedAt ?? job.updatedAt) - Date.parse(job.startedAt ?? job.createdAt));
  return { added, updated, removed, failed, durationMs };
};

/** Ends a job whose cancel was asked for while it ran, with the counts of what it did; false when it was not that. */
const settleCancel = async (
  deps: Pick<WorkerDeps, 'jobs' | 'events'>,
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

export const emitCancelled = (deps: Pick<WorkerDeps, 'events'>, job: ScanJob) =>
  deps.events.emit({ type: 'scan:cancelled', jobId: job.jobId, summary: summaryOf(job) });

/**
 * Runs the job; when the database goes away meanwhile (DynamoDB Local restarted, a network
 * blip) it waits for it and goes on from the last checkpoint, so an outage leaves nothing for
 * a person to clean up. The wait hands over to a fresh invocation when the slice runs out.
 */
export const runWorker = async (deps: WorkerDeps, payload: WorkerPayload, deadline: number): Promise<void> => {
  const clock = deps.clock ?? Date.now;
  const log = deps.log.child({ jobId: payload.jobId });
  let current = payload;
  for (;;) {
    try {
      return await runJob(deps, current, deadline, log, (run) => (current = { jobId: current.jobId, run }));
    } catch (err) {
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

const waitForDatabase = async (deps: WorkerDeps, jobId: string, since: number, deadline: number, clock: () => number) => {
  while (clock() - since < DATABASE_WAIT_MS) {
    if (clock() > deadline) return 'out-of-time' as const;
    await new Promise((r) => setTimeout(r, DATABASE_PROBE_MS));
    if (await deps.jobs.get(jobId).then(() => true, () => false)) return 'back' as const;
  }
  return 'gave-up' as const;
};

/** One run of the job from where it stands; a database outage is thrown to runWorker. */
const runJob = async (deps: WorkerDeps, payload: WorkerPayload, deadline: number, log: Log, started: (run: number) => void): Promise<void> => {
  const clock = deps.clock ?? Date.now;
  let cur = await deps.jobs.get(payload.jobId);
  if (!cur) return log.warn('scan job not found; nothing to do');
  if (cur.value.status === 'queued' && payload.run === 0) {
    try {
      cur = await deps.jobs.save(cur, start(cur.value, clock()));
    } catch (err) {
      if (isTakenOver(err)) return log.info('scan job already taken by another worker');
      throw err;
    }
    started(cur.value.runs);
  } else if (!(cur.value.status === 'running' && cur.value.runs === payload.run)) {
    return log.info({ status: cur.value.status, runs: cur.value.runs, run: payload.run }, 'stale worker invocation; stopping');
  }
  const run = cur.value.runs;
  if (cur.value.cancelRequested && (await settleCancel(deps, payload.jobId, run, clock()))) return log.info('scan cancelled before this run began');

  const reporter = new ProgressReporter(deps.events);
  /** What this worker last made of the job, saved or not: a cancel keeps its counts. */
  let latest = cur.value;
  const step = async (s: Advance, { persist = true } = {}) => {
    // A resumed job may already be past a phase it passes through again (discovery is redone):
    // it stays in its phase, and its progress never goes back.
    const behind = order(s.phase) < order(cur!.value.phase);
    const next = behind ? { ...s, phase: cur!.value.phase!, processed: 0, total: 1, after: cur!.value.checkpoint?.after ?? null } : s;
    const advanced = advance(cur!.value, next, clock());
    latest = advanced;
    // A step that did no work need not be saved: the next save carries it (same version read).
    cur = persist ? await deps.jobs.save(cur!, advanced) : { value: advanced, version: cur!.version };
    // Clients saw this phase's numbers already; a resumed job reports again once it moves on.
    if (!behind) await reporter.report(cur.value, s.processed, s.total);
  };

  try {
    const outcome = await scan(deps, cur.value, step, () => clock() > deadline);
    if (outcome === 'handed-over') {
      await deps.invoker.invoke({ jobId: cur.value.jobId, run });
      return log.info({ progress: cur.value.progress }, 'scan slice ended; continuing in a new invocation');
    }
    cur = await deps.jobs.save(cur, complete(cur.value, clock()));
    const job = cur.value;
    await reporter.report(job, 1, 1, { final: true });
    const summary = summaryOf(job);
    await deps.events.emit({ type: 'scan:complete', jobId: job.jobId, summary });
    await deps.events.emit({ type: 'library:updated', libraryId: job.libraryId, changes: { added: summary.added, updated: summary.updated, removed: summary.removed } });
    log.info({ counts: job.counts, durationMs: summary.durationMs }, 'scan completed');
  } catch (err) {
    if (isTakenOver(err)) {
      // A cancel moved the job's version under this worker: it ends the job now.
      if (await settleCancel(deps, payload.jobId, run, clock(), latest.counts)) return log.info({ counts: latest.counts }, 'scan cancelled');
      return log.info('scan job changed by another writer; this worker stops');
    }
    if (isDatabaseDown(err)) throw err;
    const error = failureOf(err);
    log.error({ err, code: error.code }, 'scan failed');
    try {
      const now = await deps.jobs.get(payload.jobId);
      if (now && !isFinished(now.value)) await deps.jobs.save(now, fail(now.value, error, clock()));
    } catch (saveErr) {
      if (isDatabaseDown(saveErr)) throw saveErr;
      log.error({ err: saveErr }, 'could not record the scan failure');
    }
    await deps.events.emit({ type: 'scan:error', jobId: payload.jobId, error });
  }
};

/** The library's index: its manifest when a whole one is there, else one item per file. */
const readIndex = async (deps: WorkerDeps, libraryId: string, log: Log) => {
  try {
    const index = await deps.manifests.read(libraryId);
    if (index) return { index, fromManifest: true };
  } catch (err) {
    log.warn({ err, libraryId }, 'library manifest unreadable; reading the index');
  }
  return { index: await deps.catalog.index(libraryId), fromManifest: false };
};

/** The phases of one job; 'handed-over' when the slice ended first (the checkpoint is saved). */
const scan = async (
  deps: WorkerDeps,
  job: ScanJob,
  step: (s: Advance, options?: { persist?: boolean }) => Promise<void>,
  outOfTime: () => boolean,
): Promise<'done' | 'handed-over'> => {
  const library = await deps.libraries.get(job.libraryId);
  if (!library) throw new ScanFailure('library-gone', `Library ${job.libraryId} was deleted`);
  const scope = deps.storage.relativeTo(library.path, job.path);
  if (scope === undefined) throw new ScanFailure('path-outside-library', `${job.path} is not inside ${library.path}`);
  await deps.storage.canonicalRoot(job.path).catch((err: Error) => {
    throw new ScanFailure('path-not-found', err.message);
  });

  const enrichment: Enrichment = (await deps.enrichment?.()) ?? { provider: null, artwork: false, meshGradients: false };
  // Discovery is always redone, resumed or not: it is cheap, and the disk may have changed.
  // The library's index is read meanwhile (one reads the disk, the other the database).
  await step({ phase: 'discovering', processed: 0, total: 0 });
  const timing = { startedAt: Date.now(), discoveredMs: 0, indexedMs: 0, plannedMs: 0 };
  const [tree, { index, fromManifest }] = await Promise.all([
    deps.storage.discover(job.path).finally(() => (timing.discoveredMs = Date.now() - timing.startedAt)),
    readIndex(deps, library.id, deps.log).finally(() => (timing.indexedMs = Date.now() - timing.startedAt)),
  ]);
  const inLibrary = (relPath: string) => (scope ? `${scope}/${relPath}` : relPath);
  const files = tree.files.map((f) => ({ ...f, relPath: inLibrary(f.relPath) }));
  const total = files.length;
  const counts: JobCounts = { ...job.counts, discovered: total };
  await step({ phase: 'discovering', processed: total, total, counts });

  // Analysing: compare with the index, write what changed, remove what is gone.
  const plan: Plan = planScan({
    libraryId: library.id, mediaType: library.mediaType, jobId: job.jobId, now: new Date().toISOString(),
    scope: scope ?? '', files, index, sidecars: tree.sidecars.map((f) => ({ ...f, relPath: inLibrary(f.relPath) })), providerOn: enrichment.provider !== null,
  });
  // Kept items whose NFO or artwork files changed go through the metadata phase again.
  const relocated = new Map(plan.relocated.map((r) => [r.id, r]));
  for (const e of plan.index) if (relocated.has(e.id)) e.enrich = 'metadata';
  // The metadata phase's work: new and changed items, and those waiting for a provider when there is one.
  const wantsMetadata = (e: IndexEntry) => e.enrich === 'metadata' || (enrichment.provider !== null && (e.enrich === 'local' || e.enrich === undefined));
  const metadataWork = plan.index.filter(wantsMetadata).sort((a, b) => Number(b.entity === 'tvshow') - Number(a.entity === 'tvshow') || (a.id < b.id ? -1 : 1));
  timing.plannedMs = Date.now() - timing.startedAt;
  deps.log.info({ jobId: job.jobId, ...timing, files: total, indexed: index.length, fromManifest, writes: plan.writes.length, removals: plan.removals.length }, 'scan planned');
  // The manifest stops being the truth as soon as anything is written: drop it first.
  const artworkWaiting = enrichment.artwork && plan.index.some((e) => e.enrich === 'artwork');
  const changing = plan.writes.length > 0 || plan.removals.length > 0 || metadataWork.length > 0 || artworkWaiting;
  if (changing) await deps.manifests.drop(library.id);
  for (const f of plan.failed) deps.log.warn({ jobId: job.jobId, file: f.relPath, reason: f.reason }, 'file not understood; skipped');
  let processed = plan.unchangedFiles + plan.failed.length;
  // Items an earlier run of this job wrote are in the index now: count them, don't redo them.
  Object.assign(counts, {
    processed,
    added: plan.carried.added,
    updated: plan.carried.updated + plan.relocated.length,
    failed: plan.failed.length,
    probed: plan.carriedProbes.probed,
    probeFailed: plan.carriedProbes.failed,
  });
  await step({ phase: 'analyzing', processed, total, counts });

  // The library's index as it will be: each phase records what it changed here, for the manifest.
  const entries = new Map(plan.index.map((e) => [e.id, e]));
  // Each invocation does at least one step before it may hand over, so a slice shorter than
  // discovery still moves the job forward.
  let progressed = false;
  /**
   * Work in chunks, the catalogue's version moved and the job saved after each (`work` saves
   * it); false when the slice ran out first: the last checkpoint stands, and a new invocation
   * goes on from it.
   */
  const inSteps = async <T>(items: T[], size: number, work: (chunk: T[], done: number) => Promise<void>): Promise<boolean> => {
    for (let i = 0; i < items.length; i += size) {
      if (progressed && outOfTime()) return false;
      progressed = true;
      const chunk = items.slice(i, i + size);
      await work(chunk, i + chunk.length);
    }
    return true;
  };

  const written = await inSteps(plan.writes, CHUNK, async (chunk: PlannedWrite[]) => {
    const probes: ProbeTally = { probed: 0, failed: 0 };
    const analyzed = await analyzeFiles(deps, library.path, chunk.map((w) => w.item), probes);
    await deps.catalog.put(analyzed);
    for (const item of analyzed) {
      const entry = entries.get(item.id);
      if (entry && item.entity !== 'tvshow') entry.files = item.files;
    }
    counts.probed += probes.probed;
    counts.probeFailed += probes.failed;
    for (const w of chunk) {
      counts[w.change]++;
      processed += w.files;
    }
    counts.processed = processed;
    await deps.catalog.bumpVersion();
    await step({ phase: 'analyzing', processed, total, counts, after: chunk.at(-1)!.item.id });
  });
  if (!written) return 'handed-over';
  const removed = await inSteps(plan.removals, CHUNK, async (chunk) => {
    await deps.catalog.remove(chunk.map((e) => e.id));
    await dropArtwork(deps, chunk.map((e) => e.id));
    counts.removed += chunk.length;
    await deps.catalog.bumpVersion();
    await step({ phase: 'analyzing', processed, total, counts });
  });
  if (!removed) return 'handed-over';

  const settle = (written: CatalogItem[]) => {
    for (const item of written) {
      const entry = entries.get(item.id);
      if (!entry) continue;
      if (item.enrich) entry.enrich = item.enrich;
      if (item.localStamp !== undefined) entry.localStamp = item.localStamp;
    }
  };

  // Metadata: NFOs beside the files, then the provider.
  const enrichDeps = { catalog: deps.catalog, storage: deps.storage, provider: enrichment.provider, log: deps.log.child({ jobId: job.jobId }) };
  const tally: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: false };
  await step({ phase: 'metadata', processed: 0, total: metadataWork.length, counts }, { persist: metadataWork.length > 0 });
  // The next batch's provider calls run while this batch is written, so the provider's pace is
  // not broken by a pause at every batch.
  const shows = new Map<string, CatalogItem>();
  const describe = (chunk: IndexEntry[]) => {
    const own: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: tally.keyRefused };
    const items = enrichMetadata(enrichDeps, library.path, chunk.map((e) => e.id), own, { shows, relocated }).then((found) => ({ found, own }));
    items.catch(() => undefined); // awaited in the next step; a slice that ends first drops it
    return items;
  };
  let ahead: ReturnType<typeof describe> | undefined;
  const described = await inSteps(metadataWork, METADATA_CHUNK, async (chunk, done) => {
    const { found, own } = await (ahead ?? describe(chunk));
    // Episodes in the next batch find the shows of this one here, before the table has them.
    for (const item of found) if (item.entity === 'tvshow') shows.set(item.id, item);
    const next = metadataWork.slice(done, done + METADATA_CHUNK);
    ahead = next.length && !outOfTime() ? describe(next) : undefined;
    await deps.catalog.put(found);
    settle(found);
    tally.keyRefused ||= own.keyRefused;
    counts.matched += own.matched;
    counts.unmatched += own.unmatched;
    counts.failed += own.failed;
    await deps.catalog.bumpVersion();
    await step({ phase: 'metadata', processed: done, total: metadataWork.length, counts, after: chunk.at(-1)!.id, ...(tally.keyRefused ? { warning: KEY_REFUSED_WARNING } : {}) });
  });
  if (!described) return 'handed-over';

  // Artwork: each wanted picture copied once into the artwork store; posters give the colours.
  const artworkWork = enrichment.artwork && deps.artworks ? [...entries.values()].filter((e) => e.enrich === 'artwork') : [];
  const artDeps = { ...enrichDeps, provider: tally.keyRefused ? null : enrichment.provider, artworks: deps.artworks!, meshGradients: enrichment.meshGradients };
  const art: ArtworkTally = { stored: 0, failed: 0 };
  await step({ phase: 'artwork', processed: 0, total: artworkWork.length, counts }, { persist: artworkWork.length > 0 });
  const pictured = await inSteps(artworkWork, ARTWORK_CHUNK, async (chunk, done) => {
    const before = { ...art };
    const collected = await collectArtwork(artDeps, library.path, chunk.map((e) => e.id), art);
    await deps.catalog.put(collected);
    settle(collected);
    counts.artwork += art.stored - before.stored;
    counts.failed += art.failed - before.failed;
    await deps.catalog.bumpVersion();
    await step({ phase: 'artwork', processed: done, total: artworkWork.length, counts, after: chunk.at(-1)!.id });
  });
  if (!pictured) return 'handed-over';
  if (enrichment.provider) deps.log.info({ jobId: job.jobId, provider: enrichment.provider.stats }, 'metadata provider use');

  await step({ phase: 'finalizing', processed: 0, total: 1, counts });
  if (changing || !fromManifest) await deps.manifests.write(library.id, job.jobId, [...entries.values()]);
  await deps.libraries.recordScan(library.id, countsOf([...entries.values()]), new Date().toISOString());
  await deps.catalog.bumpVersion();
  return 'done';
};
