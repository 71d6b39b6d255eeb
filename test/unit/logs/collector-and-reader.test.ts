import assert from 'node:assert/strict';
import { readdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LogCollector } from '../../../infra/runner/log-collector';
import { readLogs } from '../../../lib/logs/reader';
import { tempDir } from '../../support/instance';

const line = (n: number, level: string, msg: string) =>
  JSON.stringify({ level, time: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString(), pid: 1, msg, n });

describe('log collector and reader', () => {
  it('rotates by size, keeps a bounded number of files, and reads newest first across them', async () => {
    const dir = tempDir('logs');
    const collector = new LogCollector({ dir, maxBytes: 1_000, keep: 2, pretty: false });
    for (let n = 0; n < 60; n++) collector.record(line(n, n % 10 === 0 ? 'error' : 'info', `event ${n}`));
    collector.close();

    assert.deepEqual(readdirSync(dir).sort(), ['service.1.log', 'service.2.log', 'service.log']);
    const all = await readLogs(dir, { limit: 1000 });
    const ns = all.map((r) => (r as unknown as { n: number }).n);
    assert.equal(ns[0], 59);
    assert.deepEqual(
      ns,
      [...ns].sort((a, b) => b - a),
      'newest first',
    );
    assert.ok(ns.length < 60, 'the oldest generation was deleted');
  });

  it('filters by minimum level, time, text and limit', async () => {
    const dir = tempDir('logs');
    const collector = new LogCollector({ dir, pretty: false });
    for (let n = 0; n < 30; n++)
      collector.record(line(n, n % 10 === 0 ? 'error' : n % 2 ? 'debug' : 'info', n === 7 ? 'Scan COMPLETE' : `event ${n}`));
    collector.record('{"level":"info", broken');
    collector.close();

    assert.deepEqual(
      (await readLogs(dir, { level: 'error', limit: 10 })).map((r) => r.msg),
      ['event 20', 'event 10', 'event 0'],
    );
    assert.deepEqual(
      (await readLogs(dir, { q: 'scan complete', limit: 10 })).map((r) => r.msg),
      ['Scan COMPLETE'],
    );
    const since = new Date(Date.UTC(2026, 0, 1, 0, 0, 27)).toISOString();
    assert.deepEqual(
      (await readLogs(dir, { since, limit: 10 })).map((r) => r.msg),
      ['event 29', 'event 28', 'event 27'],
    );
    assert.equal((await readLogs(dir, { limit: 4 })).length, 4);
    const first = (await readLogs(dir, { limit: 1 }))[0]!;
    assert.equal('pid' in first, false, 'process ids are left out');
  });

  it('drops and counts the lines a full disk refuses, and says so once when it can write again', async () => {
    // Prepare: the log file is /dev/full, where every write fails with ENOSPC, as on a full disk.
    const dir = tempDir('logs');
    symlinkSync('/dev/full', join(dir, 'service.log'));
    const collector = new LogCollector({ dir, pretty: false });
    // Act: three records while the disk is full, then space is back and two more come.
    for (let n = 0; n < 3; n++) collector.record(line(n, 'info', `lost ${n}`));
    const droppedWhileFull = collector.droppedLines;
    rmSync(join(dir, 'service.log'));
    for (let n = 3; n < 5; n++) collector.record(line(n, 'info', `kept ${n}`));
    collector.close();
    // Assess: nothing thrown, the three counted, then one warning for them before the new lines.
    assert.equal(droppedWhileFull, 3);
    assert.equal(collector.droppedLines, 0);
    const records = (await readLogs(dir, { limit: 10 })).reverse();
    assert.deepEqual(
      records.map((r) => [r.level, r.msg, (r as unknown as { lines?: number }).lines]),
      [
        ['warn', 'log lines dropped: the log could not be written', 3],
        ['info', 'kept 3', undefined],
        ['info', 'kept 4', undefined],
      ],
    );
  });

  it('answers an empty list when there are no logs yet', async () => {
    assert.deepEqual(await readLogs(tempDir('logs') + '/missing', { limit: 10 }), []);
  });
});
