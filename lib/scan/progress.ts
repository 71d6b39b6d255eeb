// scan:progress events for one job: at most one per interval, except that the first event,
// every change of phase and the last event always go out, so a client sees each phase and
// ends on 100.
import type { EventSink } from '../events/sink';
import type { ScanJob } from './job';

export class ProgressReporter {
  private lastSentAt = -Infinity;
  private lastPhase: string | null = null;

  constructor(
    private readonly sink: EventSink,
    private readonly everyMs = 250,
    private readonly clock: () => number = Date.now,
  ) {}

  async report(job: ScanJob, processed: number, total: number, { final = false } = {}): Promise<void> {
    if (!job.phase) return;
    const now = this.clock();
    if (!final && job.phase === this.lastPhase && now - this.lastSentAt < this.everyMs) return;
    this.lastSentAt = now;
    this.lastPhase = job.phase;
    await this.sink.emit({ type: 'scan:progress', jobId: job.jobId, phase: job.phase, progress: job.progress, processed, total });
  }
}
