// isAlive must not mistake a zombie for a live process: the leftovers of a runner killed
// outright are re-parented to a PID 1 that, in many containers, never reaps them.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { isAlive } from '../../../infra/runner/managed-process';
import { waitFor } from '../../support/instance';

describe('isAlive', () => {
  it('is true for a running process and false for one that has gone', async () => {
    const child = spawn('sleep', ['30'], { stdio: 'ignore' });
    await once(child, 'spawn');
    assert.equal(isAlive(child.pid!), true);
    child.kill('SIGKILL');
    await once(child, 'exit');
    assert.equal(isAlive(child.pid!), false);
  });

  it('counts a zombie as gone', async () => {
    // `exec sleep` keeps the shell's pid, so the short sleep's parent never reaps it.
    const parent = spawn('sh', ['-c', 'sleep 0.1 & echo $!; exec sleep 30'], { stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const [line] = (await once(parent.stdout, 'data')) as [Buffer];
      const pid = Number(line.toString().trim());
      await waitFor(
        'the short sleep to become a zombie',
        async () => {
          try {
            return /State:\s+Z/.test(readFileSync(`/proc/${pid}/status`, 'utf8')) ? true : undefined;
          } catch {
            return undefined;
          }
        },
        5_000,
        20,
      );
      assert.doesNotThrow(() => process.kill(pid, 0), 'the signal check alone still sees it');
      assert.equal(isAlive(pid), false);
    } finally {
      parent.kill('SIGKILL');
    }
  });
});
