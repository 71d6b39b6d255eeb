// A child that dies while starting fails start() with its own last words, so `npm start`
// says why (a port taken, a module missing) even in production, where the console is quiet.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { ManagedProcess } from '../../../infra/runner/managed-process';

const log = pino({ level: 'silent' });

describe('ManagedProcess', () => {
  it('quotes the end of the stderr of a child that exits while starting', async () => {
    const script =
      "process.stderr.write('x'.repeat(5000) + '\\nError: listen EADDRINUSE: address already in use 127.0.0.1:4000\\n'); process.exit(1)";
    const child = new ManagedProcess({
      name: 'offline',
      command: process.execPath,
      args: ['-e', script],
      log,
      onStart: () => new Promise(() => {}), // never ready: only the exit ends the start
    });
    await assert.rejects(child.start(), (err: Error) => {
      assert.match(
        err.message,
        /^offline exited \(1\) while starting: x+\nError: listen EADDRINUSE: address already in use 127\.0\.0\.1:4000$/,
      );
      assert.ok(err.message.length < 2_100, 'only the tail is quoted');
      return true;
    });
  });

  it('says only the exit when the child wrote nothing', async () => {
    const child = new ManagedProcess({
      name: 'db',
      command: process.execPath,
      args: ['-e', 'process.exit(3)'],
      log,
      onStart: () => new Promise(() => {}),
    });
    await assert.rejects(child.start(), { message: 'db exited (3) while starting' });
  });
});
