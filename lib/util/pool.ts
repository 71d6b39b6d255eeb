// Bounded concurrency, one way for the whole code: at most `limit` pieces of work in flight, the
// next one started as soon as any finishes (never a batch waiting for its slowest). A run of
// work (`JobPool`, `eachLimited`) ends at its first failure: nothing more starts and the caller
// hears of it at once. Work that comes and goes for as long as the process lives (a server's
// ffmpeg runs) waits at a `Limiter`, where a failure is its caller's alone.

/** A piece of work: it calls `done` once when finished, or throws from `JobPool.attempt`. */
export type Job = (done: () => void) => void;

/**
 * Runs jobs that may add more jobs, at most `limit` at a time, newest first (a walk reading
 * folders depth first keeps its queue short). The first failure ends the run: nothing more
 * starts, callbacks still to come are ignored, and `finished` rejects at once. Jobs take a
 * callback rather than return a promise: a promise chain per folder made the walk about a
 * third slower on a tree of 7,000 folders.
 */
export class JobPool {
  private readonly waiting: Job[] = [];
  private running = 0;
  private settle!: { resolve: () => void; reject: (reason: unknown) => void };
  private readonly done = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
  private stopped = false;

  constructor(private readonly limit: number) {
    // A failure before anyone awaits `finished` must not count as unhandled.
    this.done.catch(() => undefined);
  }

  push(job: Job) {
    if (this.stopped) return;
    this.waiting.push(job);
    this.startMore();
  }

  /** Adds jobs that start in the order given, ahead of those already waiting. */
  pushAll(jobs: readonly Job[]) {
    if (this.stopped) return;
    for (let i = jobs.length - 1; i >= 0; i--) this.waiting.push(jobs[i]!);
    this.startMore();
  }

  /** Runs one step of a job unless the run has ended; what it throws ends the run. */
  attempt(step: () => void) {
    if (this.stopped) return;
    try {
      step();
    } catch (err) {
      this.fail(err);
    }
  }

  /** Resolves when no job runs or waits; rejects with the first failure. */
  finished(): Promise<void> {
    this.settleWhenIdle();
    return this.done;
  }

  fail(reason: unknown) {
    if (this.stopped) return;
    this.stopped = true;
    this.waiting.length = 0;
    this.settle.reject(reason);
  }

  private startMore() {
    while (!this.stopped && this.running < this.limit && this.waiting.length) {
      const job = this.waiting.pop()!;
      this.running++;
      this.attempt(() => job(this.jobDone));
    }
  }

  private readonly jobDone = () => {
    this.running--;
    this.startMore();
    this.settleWhenIdle();
  };

  private settleWhenIdle() {
    if (this.stopped || this.running > 0 || this.waiting.length > 0) return;
    this.stopped = true;
    this.settle.resolve();
  }
}

/**
 * `work` for each item, started in order, at most `limit` at a time: each one that finishes lets
 * the next start, so one slow item never holds up the others. Rejects with the first failure,
 * after which no further item starts (those in flight run on; their outcome is not awaited).
 */
export const eachLimited = <T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> => {
  const pool = new JobPool(limit);
  pool.pushAll(
    items.map(
      (item, index): Job =>
        (done) =>
          void work(item, index).then(done, (err: unknown) => pool.fail(err)),
    ),
  );
  return pool.finished();
};

/**
 * A waiting room for work that keeps coming: at most `limit` at once, the rest started in the
 * order they came as places free up. A failure is its caller's alone; the others run on.
 */
export class Limiter {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limit: number) {}

  /** Work in flight and waiting, for logs and tests. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    // A place freed is handed to the first in line, so nobody who comes meanwhile takes it.
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}
