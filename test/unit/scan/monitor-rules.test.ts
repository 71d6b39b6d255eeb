// The folder monitor's rules (lib/scan/monitor-rules.ts): what it collects between two scans of a
// library (the one folder to scan next, the files that may still be growing), when changes go to
// a scan (and when a scan saw them already), and what a library's status says of a folder it
// cannot watch. Pure: nothing on disk.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  busyWait,
  changeMatters,
  commonFolder,
  nearestRemaining,
  networkShareProblem,
  PendingChanges,
  quietWait,
  rootNeedsScan,
  scanSaw,
  stillWritten,
  watchProblem,
} from '../../../lib/scan/monitor-rules';

const ROOT = '/media/Movies';

describe('commonFolder', () => {
  it('is the deepest folder holding them all', () => {
    assert.equal(commonFolder(ROOT, [`${ROOT}/Heat (1995)`]), `${ROOT}/Heat (1995)`);
    assert.equal(commonFolder(ROOT, [`${ROOT}/Archive/Heat (1995)`, `${ROOT}/Archive/Alien (1979)`]), `${ROOT}/Archive`);
    assert.equal(
      commonFolder(ROOT, [`${ROOT}/Archive/Heat (1995)`, `${ROOT}/Archive/Heat (1995)/Extras`, `${ROOT}/Archive/Heat (1995)`]),
      `${ROOT}/Archive/Heat (1995)`,
    );
    assert.equal(commonFolder(ROOT, [`${ROOT}/a/b/c/d`, `${ROOT}/a/b/c/e/f`]), `${ROOT}/a/b/c`);
  });

  it('compares whole folder names, not their beginnings', () => {
    assert.equal(commonFolder(ROOT, [`${ROOT}/Heat`, `${ROOT}/Heat (1995)`]), ROOT);
    assert.equal(commonFolder(ROOT, [`${ROOT}/Archive/ab`, `${ROOT}/Archive/ac`]), `${ROOT}/Archive`);
  });

  it('is the root for changes spread over the library, the root itself, or none', () => {
    assert.equal(commonFolder(ROOT, [`${ROOT}/Heat (1995)`, `${ROOT}/Alien (1979)`]), ROOT);
    assert.equal(commonFolder(ROOT, [`${ROOT}/Archive/Heat (1995)`, ROOT]), ROOT);
    assert.equal(commonFolder(ROOT, [ROOT]), ROOT);
    assert.equal(commonFolder(ROOT, []), ROOT);
  });

  it('never goes above the root, also for folders outside it', () => {
    assert.equal(commonFolder(ROOT, ['/media']), ROOT);
    assert.equal(commonFolder(ROOT, ['/media/Shows/Doctor Who']), ROOT);
    assert.equal(commonFolder(ROOT, ['/elsewhere/a', '/elsewhere/b']), ROOT);
    assert.equal(commonFolder(ROOT, [`${ROOT}/Archive`, '/elsewhere/a']), ROOT);
    assert.equal(commonFolder(ROOT, [`${ROOT}-old/Archive`]), ROOT, 'a sibling whose name starts like the root');
  });
});

describe('PendingChanges', () => {
  it('starts empty; a changed file makes its folder the one to scan, and take() starts afresh', () => {
    const pending = new PendingChanges(ROOT);
    assert.equal(pending.empty, true);
    assert.equal(pending.lastAt, 0);
    pending.add(`${ROOT}/Heat (1995)/Heat (1995).mkv`, 'create', 1_000);
    assert.equal(pending.empty, false);
    assert.equal(pending.lastAt, 1_000);
    assert.deepEqual(pending.written(), [`${ROOT}/Heat (1995)/Heat (1995).mkv`]);
    assert.deepEqual(pending.createdPaths(), [`${ROOT}/Heat (1995)/Heat (1995).mkv`]);
    assert.equal(pending.take(), `${ROOT}/Heat (1995)`);
    assert.equal(pending.empty, true);
    assert.deepEqual([pending.written(), pending.createdPaths()], [[], []]);
    assert.equal(pending.take(), ROOT, 'nothing pending: the root');
  });

  it('scans the deepest folder holding every change; a file at the root, the root itself or a path outside it means the root', () => {
    const pending = new PendingChanges(ROOT);
    pending.add(`${ROOT}/Archive/Heat (1995)/Heat (1995).mkv`, 'update', 1);
    pending.add(`${ROOT}/Archive/Alien (1979)/Alien (1979).mkv`, 'create', 2);
    assert.equal(pending.take(), `${ROOT}/Archive`);
    for (const path of [`${ROOT}/Heat (1995).mkv`, ROOT, '/elsewhere/Heat (1995).mkv']) {
      pending.add(`${ROOT}/Archive/Heat (1995)/Heat (1995).mkv`, 'update', 3);
      pending.add(path, 'update', 4);
      assert.equal(pending.take(), ROOT, path);
    }
  });

  it('a subtitle in Subs/ (or a folder inside it) changes the video folder above it', () => {
    const pending = new PendingChanges(ROOT);
    pending.add(`${ROOT}/Heat (1995)/Subs/English.srt`, 'create', 1);
    assert.equal(pending.take(), `${ROOT}/Heat (1995)`);
    pending.add(`${ROOT}/Show/Season 1/subtitles/Show.S01E01/2_English.srt`, 'update', 2);
    assert.equal(pending.take(), `${ROOT}/Show/Season 1`);
    pending.add(`${ROOT}/Subs/English.srt`, 'delete', 3);
    assert.equal(pending.take(), ROOT, 'a Subs folder at the root: the root');
    pending.add(`${ROOT}/Heat (1995)/Other/English.srt`, 'create', 4);
    assert.equal(pending.take(), `${ROOT}/Heat (1995)/Other`, 'other folders stay themselves');
  });

  it('a deleted path counts as a change of its folder, but is not a written file', () => {
    const pending = new PendingChanges(ROOT);
    pending.add(`${ROOT}/Archive/Heat (1995)`, 'delete', 7);
    assert.equal(pending.lastAt, 7);
    assert.deepEqual([pending.written(), pending.createdPaths()], [[], []]);
    assert.equal(pending.take(), `${ROOT}/Archive`);
  });

  it('only created paths are created; written files are created or updated, each once', () => {
    const pending = new PendingChanges(ROOT);
    pending.add(`${ROOT}/A/a.mkv`, 'create', 1);
    pending.add(`${ROOT}/A/a.mkv`, 'update', 2);
    pending.add(`${ROOT}/A/b.mkv`, 'update', 3);
    pending.add(`${ROOT}/A/c.mkv`, 'delete', 4);
    assert.deepEqual(pending.createdPaths(), [`${ROOT}/A/a.mkv`]);
    assert.deepEqual(pending.written(), [`${ROOT}/A/a.mkv`, `${ROOT}/A/b.mkv`]);
    assert.equal(pending.lastAt, 4);
  });

  it('addFolder adds a folder to scan with the next changes, without a file, and never moves the time back', () => {
    const pending = new PendingChanges(ROOT);
    pending.addFolder(`${ROOT}/Archive/New`, 3);
    assert.deepEqual([pending.empty, pending.lastAt, pending.written(), pending.createdPaths()], [false, 3, [], []]);
    assert.equal(pending.take(), `${ROOT}/Archive/New`);
    pending.add(`${ROOT}/Archive/Other/x.mkv`, 'create', 5);
    // A change carried over from before (its scan could not start) keeps the time of the newer ones.
    pending.addFolder(`${ROOT}/Archive/New`, 2);
    assert.equal(pending.lastAt, 5);
    assert.equal(pending.take(), `${ROOT}/Archive`);
    // What came before a watch began: the root, as of the moment it began.
    pending.addFolder(ROOT, 9);
    assert.deepEqual([pending.lastAt, pending.take()], [9, ROOT]);
  });

  it('past 1,000 folders scans the whole library, and stays there until taken', () => {
    const pending = new PendingChanges(ROOT);
    for (let i = 0; i < 1_000; i++) pending.add(`${ROOT}/Archive/Film ${i}/Film ${i}.mkv`, 'create', i);
    const atLimit = new PendingChanges(ROOT);
    for (let i = 0; i < 1_000; i++) atLimit.add(`${ROOT}/Archive/Film ${i}/Film ${i}.mkv`, 'create', i);
    assert.equal(atLimit.take(), `${ROOT}/Archive`, '1,000 folders are still named one by one');
    pending.add(`${ROOT}/Archive/Film 1000/Film 1000.mkv`, 'create', 1_000);
    pending.add(`${ROOT}/Archive/Film 1001/Film 1001.mkv`, 'create', 1_001);
    assert.equal(pending.take(), ROOT);
    // The same through addFolder.
    for (let i = 0; i < 1_001; i++) pending.addFolder(`${ROOT}/Archive/Film ${i}`, i);
    assert.equal(pending.take(), ROOT);
    pending.add(`${ROOT}/Archive/Film 1/Film 1.mkv`, 'update', 1);
    assert.equal(pending.take(), `${ROOT}/Archive/Film 1`, 'a fresh start after take()');
  });

  it('keeps at most 1,000 created paths and 1,000 written files', () => {
    const pending = new PendingChanges(ROOT);
    for (let i = 0; i < 1_500; i++) pending.add(`${ROOT}/Dump/file ${i}.mkv`, 'create', i);
    for (let i = 0; i < 10; i++) pending.add(`${ROOT}/Dump/late ${i}.mkv`, 'update', 2_000 + i);
    assert.equal(pending.createdPaths().length, 1_000);
    assert.equal(pending.written().length, 1_000);
    assert.deepEqual(pending.createdPaths().slice(0, 2), [`${ROOT}/Dump/file 0.mkv`, `${ROOT}/Dump/file 1.mkv`], 'the first ones');
    assert.equal(pending.lastAt, 2_009, 'the time still follows every change');
    assert.equal(pending.take(), `${ROOT}/Dump`);
    assert.deepEqual([pending.written().length, pending.createdPaths().length], [0, 0]);
    pending.add(`${ROOT}/Dump/again.mkv`, 'create', 3_000);
    assert.deepEqual(pending.createdPaths(), [`${ROOT}/Dump/again.mkv`], 'room again after take()');
  });
});

describe('when changes go to a scan', () => {
  it("ignores what happens below a hidden name inside the root, not the root's own", () => {
    assert.equal(changeMatters(ROOT, `${ROOT}/Heat (1995)/Heat (1995).mkv`), true);
    assert.equal(changeMatters(ROOT, `${ROOT}/.Trash-1000/files/Heat (1995).mkv`), false);
    assert.equal(changeMatters(ROOT, `${ROOT}/Heat (1995)/.Heat (1995).mkv.part`), false);
    assert.equal(changeMatters('/media/.hidden-root', '/media/.hidden-root/Heat (1995).mkv'), true);
  });

  it('waits until the folder has been quiet for the whole period, and for files still being written', () => {
    assert.equal(quietWait(1_000, 2_000, 3_000), 2_000);
    assert.equal(quietWait(1_000, 4_000, 3_000), 0);
    assert.equal(quietWait(1_000, 9_000, 3_000), 0);
    assert.equal(stillWritten([500, 1_500], 4_000, 3_000), true, 'written 2.5 s ago, within the 3 s period');
    assert.equal(stillWritten([500, 0], 4_000, 3_000), false, 'gone files count as old');
    assert.equal(busyWait(100), 5_000);
    assert.equal(busyWait(8_000), 8_000);
  });

  it('scans a library whose root went away or came back, or disagrees with its status at the first look', () => {
    const cases: Array<[seen: boolean, lastSeen: boolean | undefined, offline: boolean, scan: boolean]> = [
      [true, undefined, false, false], // online and there
      [false, undefined, false, true], // online, yet gone or empty
      [true, undefined, true, true], // offline, yet back
      [false, undefined, true, false], // offline and still away
      [true, true, false, false],
      [false, true, false, true], // went away
      [true, false, true, true], // came back
      [false, false, true, false],
    ];
    for (const [seen, lastSeen, offline, scan] of cases)
      assert.equal(rootNeedsScan(seen, lastSeen, offline), scan, JSON.stringify({ seen, lastSeen, offline }));
  });

  it('needs no scan for changes a completed scan of a folder holding them saw, created once they had happened', () => {
    const holds = (folder: string, path: string) => path === folder || path.startsWith(`${folder}/`);
    const change = { libraryId: 'lib1', path: `${ROOT}/Heat (1995)`, before: Date.parse('2026-01-01T10:00:05.000Z') };
    const job = { libraryId: 'lib1', path: ROOT, status: 'completed', createdAt: '2026-01-01T10:00:05.000Z' };
    assert.equal(scanSaw(job, change, holds), true, 'the root, created as the changes had happened');
    assert.equal(scanSaw({ ...job, path: change.path }, change, holds), true, 'the folder itself');
    assert.equal(
      scanSaw({ ...job, createdAt: '2026-01-01T10:00:04.999Z' }, change, holds),
      false,
      'created before: it may have walked past',
    );
    assert.equal(scanSaw({ ...job, status: 'running' }, change, holds), false, 'still running: it may have walked past');
    for (const status of ['failed', 'cancelled', 'interrupted', 'queued'])
      assert.equal(scanSaw({ ...job, status }, change, holds), false, status);
    assert.equal(scanSaw({ ...job, path: `${ROOT}/Alien (1979)` }, change, holds), false, 'another folder');
    assert.equal(scanSaw({ ...job, path: `${change.path}/Extras` }, change, holds), false, 'a folder inside it');
    assert.equal(scanSaw({ ...job, libraryId: 'lib2' }, change, holds), false, 'another library');
  });

  it('scans the nearest folder still there, the root at most', async () => {
    const there = new Set([ROOT, `${ROOT}/Archive`]);
    const isFolder = async (path: string) => there.has(path);
    assert.equal(await nearestRemaining(ROOT, `${ROOT}/Archive/Heat (1995)/Extras`, isFolder), `${ROOT}/Archive`);
    assert.equal(await nearestRemaining(ROOT, `${ROOT}/Archive`, isFolder), `${ROOT}/Archive`);
    assert.equal(await nearestRemaining(ROOT, `${ROOT}/Gone`, async () => false), ROOT);
  });
});

describe("what a library's status says of its folder", () => {
  it("names the inotify limit and how to raise it, or the watcher's own message", () => {
    assert.equal(
      watchProblem(ROOT, new Error('inotify_add_watch failed: No space left on device (ENOSPC)')),
      `${ROOT} cannot be watched: the system's limit of watched folders is reached (raise fs.inotify.max_user_watches); the schedule rescans it`,
    );
    assert.equal(
      watchProblem(ROOT, new Error('Permission denied')),
      `${ROOT} cannot be watched (Permission denied); the schedule rescans it`,
    );
  });

  it('says a network share may miss changes made elsewhere, and nothing of a local disk', () => {
    assert.equal(
      networkShareProblem(ROOT, 0x6969),
      `${ROOT} is on a network share (NFS): changes made from other machines may not be noticed; the schedule rescans it`,
    );
    assert.equal(networkShareProblem(ROOT, 0xef53), null, 'ext4');
    assert.equal(networkShareProblem(ROOT, undefined), null);
  });
});
