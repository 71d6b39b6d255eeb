import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { OutgoingEvent } from '../../../lib/events/sink';
import { type ScanJob } from '../../../lib/scan/job';
import { newJob } from '../../../lib/scan/transitions';
import { ProgressReporter } from '../../../lib/scan/progress';

describe('progress events', () => {
  it('sends the first, every change of phase and the last, and at most one per interval otherwise', async () => {
    const sent: OutgoingEvent[] = [];
    let now = 0;
    const reporter = new ProgressReporter({ emit: async (e) => void sent.push(e) }, 250, () => now);
    const job = (phase: ScanJob['phase'], progress: number): ScanJob => ({
      ...newJob({ jobId: 'j', libraryId: 'l', path: '/m', mediaType: 'movie' }, 0),
      status: 'running',
      phase,
      progress,
    });
    await reporter.report(job('discovering', 0), 0, 0); // first
    await reporter.report(job('discovering', 5), 1, 2); // too soon
    await reporter.report(job('analyzing', 10), 0, 9); // new phase
    for (let i = 1; i <= 9; i++) {
      now += 100;
      await reporter.report(job('analyzing', 10 + i * 5), i, 9);
    }
    await reporter.report(job('finalizing', 100), 1, 1, { final: true });
    const progress = sent.map((e) => (e.type === 'scan:progress' ? `${e.phase}:${e.progress}` : e.type));
    assert.deepEqual(progress, ['discovering:0', 'analyzing:10', 'analyzing:25', 'analyzing:40', 'analyzing:55', 'finalizing:100']);
  });
});
