// Health's database probe (lib/health/service.ts): in a Lambda a probe per call; in a shared
// process the last probe answers while a new one runs behind it at most once a second, a gone
// database (which refuses at once) is told at once, and a hanging one is waited for past 5 s.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DatabaseProbe } from '../../../lib/health/service';

const counted = (answer: () => Promise<boolean>) => {
  const probe = { calls: 0, fn: async () => (probe.calls++, answer()) };
  return probe;
};

describe('the database probe', () => {
  it('probes at every call in a Lambda', async () => {
    const p = counted(async () => true);
    const probe = new DatabaseProbe(p.fn, false);
    await probe.up();
    await probe.up();
    assert.equal(p.calls, 2);
  });

  it('in a shared process, answers from a probe under a second old, and probes again behind the readers after', async () => {
    let now = 0;
    let up = true;
    const p = counted(async () => up);
    const probe = new DatabaseProbe(p.fn, true, () => now);
    assert.equal(await probe.up(), true);
    now = 999;
    up = false;
    assert.equal(await probe.up(), true, 'within the second: not probed');
    assert.equal(p.calls, 1);
    now = 1_000;
    assert.equal(await probe.up(), false, 'a gone database answers at once: told at once');
    assert.equal(p.calls, 2);
  });

  it('answers from the last probe while a slow one runs, and waits for it once the last is 5 s old', async () => {
    let now = 0;
    let release: (up: boolean) => void = () => undefined;
    let slow = false;
    const p = counted(() => (slow ? new Promise<boolean>((r) => (release = r)) : Promise.resolve(true)));
    const probe = new DatabaseProbe(p.fn, true, () => now);
    await probe.up();
    slow = true;
    now = 1_500;
    assert.equal(await probe.up(), true, 'the last probe, while the new one waits behind a busy database');
    now = 5_000;
    const waited = probe.up();
    release(false);
    assert.equal(await waited, false);
    assert.equal(p.calls, 2, 'one probe at a time');
  });
});
