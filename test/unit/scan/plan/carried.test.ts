// A resumed job counts the items its earlier run wrote, and the probes of their files.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Change, FileRef, IndexEntry } from '../../../../lib/catalog/model';
import type { TechnicalInfo } from '../../../../lib/media/technical-info';
import { carriedWork } from '../../../../lib/scan/plan/carried';

const tech: TechnicalInfo = { durationSeconds: 60, container: 'matroska', bitrate: null, video: null, audio: [], subtitles: [] };
const ref = (relPath: string, read?: TechnicalInfo | null): FileRef => ({
  relPath,
  size: 100,
  mtimeMs: 1,
  part: null,
  ...(read !== undefined ? { tech: read } : {}),
});
const entry = (id: string, lastJob: string | undefined, lastChange: Change | undefined, files?: FileRef[]): IndexEntry => ({
  id,
  entity: 'movie',
  addedAt: 'T0',
  ...(lastJob ? { lastJob } : {}),
  ...(lastChange ? { lastChange } : {}),
  ...(files ? { files } : {}),
});
const nothing = { carried: { added: 0, updated: 0, moved: 0 }, carriedProbes: { probed: 0, failed: 0 } };

describe('scan plan: carried work', () => {
  it("counts this job's own earlier writes by change, and their files' probes", () => {
    const index = [
      entry('a1', 'job1', 'added', [ref('a1.mkv', tech)]),
      entry('a2', 'job1', 'added', [ref('a2.mkv', null)]),
      // A file written before its headers were read counts as neither.
      entry('u1', 'job1', 'updated', [ref('u1.mkv')]),
    ];
    assert.deepEqual(carriedWork(index, 'job1', new Set()), {
      carried: { added: 2, updated: 1, moved: 0 },
      carriedProbes: { probed: 1, failed: 1 },
    });
  });

  it("ignores other jobs' entries, entries with no change recorded, and ids this run redoes", () => {
    const index = [
      entry('other', 'job0', 'added', [ref('other.mkv', tech)]),
      entry('unstamped', undefined, undefined, [ref('unstamped.mkv', tech)]),
      entry('no-change', 'job1', undefined, [ref('no-change.mkv', tech)]),
      entry('redone', 'job1', 'updated', [ref('redone.mkv', tech)]),
    ];
    assert.deepEqual(carriedWork(index, 'job1', new Set(['redone'])), nothing);
    assert.deepEqual(
      carriedWork(index, 'job1', new Set()).carried,
      { added: 0, updated: 1, moved: 0 },
      'the same index with nothing redone',
    );
  });

  it('a moved item counts as moved but not as probed: its technical info came with it', () => {
    const index = [entry('m1', 'job1', 'moved', [ref('Archive/A.mkv', tech)]), entry('m2', 'job1', 'moved', [ref('Archive/B.mkv', null)])];
    assert.deepEqual(carriedWork(index, 'job1', new Set()), {
      carried: { added: 0, updated: 0, moved: 2 },
      carriedProbes: { probed: 0, failed: 0 },
    });
  });

  it('a file holding two episodes was read once', () => {
    const double = 'Show/Season 1/Show.S01E01-E02.mkv';
    const index = [
      { ...entry('e1', 'job1', 'added', [ref(double, tech)]), entity: 'episode' as const },
      { ...entry('e2', 'job1', 'added', [ref(double, tech)]), entity: 'episode' as const },
      { ...entry('show', 'job1', 'added'), entity: 'tvshow' as const },
    ];
    assert.deepEqual(carriedWork(index, 'job1', new Set()), {
      carried: { added: 3, updated: 0, moved: 0 },
      carriedProbes: { probed: 1, failed: 0 },
    });
  });
});
