import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { AppError } from '../../../lib/errors';
import {
  canResume,
  isActive,
  isStale,
  MAX_AUTO_RESUMES,
  progressOf,
  ZERO_COUNTS,
  type ScanJob,
  type ScanPhase,
} from '../../../lib/scan/job';
import { advance, autoResume, cancel, complete, fail, interrupt, newJob, requestCancel, start } from '../../../lib/scan/transitions';

const T0 = Date.parse('2026-11-22T12:00:00Z');
const fresh = () => newJob({ jobId: 'j1', libraryId: 'l1', path: '/media/movies', mediaType: 'movie' }, T0);
const isConflict = (err: unknown) => err instanceof AppError && err.status === 409 && err.code === 'job-state-conflict';

describe('scan job state machine', () => {
  it('runs a job from queued to completed, with progress growing through the phases', () => {
    let job = start(fresh(), T0 + 1);
    assert.deepEqual([job.status, job.phase, job.runs], ['running', 'discovering', 1]);
    job = advance(job, { phase: 'discovering', processed: 1, total: 1, counts: { discovered: 40 } }, T0 + 2);
    assert.equal(job.progress, 10);
    job = advance(job, { phase: 'analyzing', processed: 20, total: 40, after: 'M/20.mkv', counts: { processed: 20, added: 20 } }, T0 + 3);
    assert.equal(job.progress, 35);
    assert.deepEqual(job.checkpoint, { phase: 'analyzing', after: 'M/20.mkv' });
    job = complete(job, T0 + 4);
    assert.deepEqual(
      { status: job.status, progress: job.progress, checkpoint: job.checkpoint, finishedAt: job.finishedAt, counts: job.counts },
      {
        status: 'completed',
        progress: 100,
        checkpoint: null,
        finishedAt: new Date(T0 + 4).toISOString(),
        counts: { ...ZERO_COUNTS, discovered: 40, processed: 20, added: 20 },
      },
    );
  });

  it('resumes an interrupted job from its checkpoint, keeping its progress and counts', () => {
    let job = start(fresh(), T0);
    job = advance(job, { phase: 'analyzing', processed: 30, total: 40, after: 'M/30.mkv', counts: { added: 30 } }, T0 + 1);
    job = interrupt(job, T0 + 2);
    assert.ok(canResume(job));
    const resumed = start(job, T0 + 3);
    assert.deepEqual(
      [resumed.status, resumed.phase, resumed.checkpoint, resumed.progress, resumed.counts.added, resumed.runs, resumed.startedAt],
      ['running', 'analyzing', { phase: 'analyzing', after: 'M/30.mkv' }, job.progress, 30, 2, new Date(T0).toISOString()],
    );
  });

  it('resumes a failed job and clears its error', () => {
    const failed = fail(start(fresh(), T0), { code: 'path-not-found', message: '/media/movies is gone' }, T0 + 1);
    assert.equal(failed.status, 'failed');
    assert.equal(start(failed, T0 + 2).error, null);
  });

  it('never moves progress backwards, whatever the reports say', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ phase: fc.integer({ min: 0, max: 4 }), processed: fc.nat(200), total: fc.nat(200) }), { maxLength: 40 }),
        (reports) => {
          const phases: ScanPhase[] = ['discovering', 'analyzing', 'metadata', 'artwork', 'finalizing'];
          let job = start(fresh(), T0);
          let last = job.progress;
          for (const r of [...reports].sort((a, b) => a.phase - b.phase)) {
            job = advance(job, { phase: phases[r.phase]!, processed: r.processed, total: r.total }, T0);
            assert.ok(job.progress >= last && job.progress <= 100);
            last = job.progress;
          }
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it('refuses to go back to an earlier phase', () => {
    const job = advance(start(fresh(), T0), { phase: 'metadata', processed: 0, total: 10 }, T0);
    assert.throws(() => advance(job, { phase: 'analyzing', processed: 1, total: 10 }, T0), isConflict);
  });

  it('refuses transitions that make no sense, with a 409', () => {
    const done = complete(start(fresh(), T0), T0);
    assert.throws(() => start(done, T0), isConflict);
    assert.throws(() => advance(fresh(), { phase: 'discovering', processed: 0, total: 0 }, T0), isConflict);
    assert.throws(() => complete(fresh(), T0), isConflict);
    assert.throws(() => interrupt(fresh(), T0), isConflict);
    assert.throws(() => fail(done, { code: 'internal', message: 'y' }, T0), isConflict);
    assert.throws(() => start(start(fresh(), T0), T0), isConflict);
  });

  it('calls a running job stale once its heartbeat is older than the threshold', () => {
    const job: ScanJob = advance(start(fresh(), T0), { phase: 'discovering', processed: 0, total: 1 }, T0 + 1_000);
    assert.equal(isStale(job, T0 + 30_000, 60_000), false);
    assert.equal(isStale(job, T0 + 61_001, 60_000), true);
    assert.equal(isStale(complete(job, T0 + 2_000), T0 + 999_999, 60_000), false);
  });

  it('cancels a job that is not running at once, and marks a running one for its worker', () => {
    for (const job of [
      fresh(),
      interrupt(start(fresh(), T0), T0 + 1),
      fail(start(fresh(), T0), { code: 'path-not-found', message: 'gone' }, T0 + 1),
    ]) {
      const ended = requestCancel(job, T0 + 2);
      assert.deepEqual([ended.status, isActive(ended), canResume(ended)], ['cancelled', false, false], job.status);
      assert.throws(() => start(ended, T0 + 3), isConflict, 'a cancelled job never runs again');
    }
    const running = advance(start(fresh(), T0), { phase: 'analyzing', processed: 10, total: 40, counts: { added: 10 } }, T0 + 1);
    const marked = requestCancel(running, T0 + 2);
    assert.deepEqual([marked.status, marked.cancelRequested], ['running', true]);
    const ended = cancel(marked, T0 + 3);
    assert.deepEqual([ended.status, ended.counts.added, ended.finishedAt], ['cancelled', 10, new Date(T0 + 3).toISOString()]);
    assert.throws(() => cancel(ended, T0 + 4), isConflict);
    assert.throws(() => requestCancel(complete(running, T0 + 2), T0 + 3), isConflict, 'a completed job cannot be cancelled');
  });

  it('stops resuming by itself a job that keeps stopping the service at the same point', () => {
    let job = advance(start(fresh(), T0), { phase: 'discovering', processed: 0, total: 1 }, T0 + 1);
    for (let i = 1; i <= MAX_AUTO_RESUMES; i++) {
      job = autoResume(interrupt(job, T0 + i), T0 + i);
      assert.deepEqual([job.status, job.autoResumes], ['running', { count: i, progress: job.progress }]);
    }
    const gaveUp = autoResume(interrupt(job, T0 + 10), T0 + 10);
    assert.equal(gaveUp.status, 'failed');
    assert.equal(gaveUp.error?.code, 'resume-limit');
    assert.match(gaveUp.error.message, /4 times in a row \(discovering at 0%\)/);
    assert.ok(canResume(gaveUp), 'a person can still resume it');
  });

  it('keeps resuming a job that gets further between restarts', () => {
    let job = start(fresh(), T0);
    for (let i = 1; i <= 10; i++) {
      job = advance(job, { phase: 'analyzing', processed: i, total: 20 }, T0 + i);
      job = autoResume(interrupt(job, T0 + i), T0 + i);
      assert.equal(job.status, 'running');
      assert.equal(job.autoResumes?.count, 1, 'progress since the last resume starts the count again');
    }
  });

  it('counts an empty phase as done', () => {
    assert.equal(progressOf('metadata', 0, 0), 85);
    assert.equal(progressOf('analyzing', 5, 10), 35);
  });

  it('fills the part of a phase a pass is given: the writes, then the headers', () => {
    assert.equal(progressOf('analyzing', 10, 10, [0, 0.5]), 35);
    assert.equal(progressOf('analyzing', 0, 10, [0.5, 1]), 35);
    assert.equal(progressOf('analyzing', 5, 10, [0.5, 1]), 47.5);
    assert.equal(progressOf('analyzing', 0, 0, [0.5, 1]), 60);
  });
});
