// Which index entries stay as they are, and the fixpoint that reads a grown movie whole again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileRef, IndexEntry, MovieItem } from '../../../../lib/catalog/model';
import { desiredItems, type ItemsInput } from '../../../../lib/scan/plan/items';
import { splitUnchanged, unchangedEntries } from '../../../../lib/scan/plan/kept';

const file = (relPath: string, size = 100, mtimeMs = 1) => ({ relPath, size, mtimeMs });
const ref = (relPath: string, size = 100, mtimeMs = 1, part: number | null = null): FileRef => ({ relPath, size, mtimeMs, part });
const entry = (id: string, files?: FileRef[], entity: IndexEntry['entity'] = 'movie'): IndexEntry => ({
  id,
  entity,
  addedAt: 'T0',
  ...(files ? { files } : {}),
});
const input = (files: ItemsInput['files']): ItemsInput => ({ libraryId: 'lib', mediaType: 'movie', jobId: 'job2', now: 'T1', files });

describe('scan plan: unchanged entries', () => {
  it('keeps an entry only when every file is on disk with the same size and mtime', () => {
    const files = [file('a.mkv'), file('b.mkv', 999), file('c.mkv', 100, 2), file('d1.mkv')];
    const index = [
      entry('same', [ref('a.mkv')]),
      entry('bigger', [ref('b.mkv')]),
      entry('touched', [ref('c.mkv')]),
      entry('part-gone', [ref('d1.mkv', 100, 1, 1), ref('d2.mkv', 100, 1, 2)]),
      entry('show', undefined, 'tvshow'),
      entry('no-files', []),
    ];
    const { kept, keptPaths } = unchangedEntries(files, index);
    assert.deepEqual([...kept.keys()], ['same']);
    assert.deepEqual([...keptPaths()], ['a.mkv']);
  });

  it('skips a double-episode file only while both entries holding it are kept', () => {
    const path = 'Show/Season 1/Show.S01E01-E02.mkv';
    // The second entry saw an older version of the file: it is not kept, so the file is read.
    const index = [entry('e1', [ref(path)], 'episode'), entry('e2', [ref(path, 50)], 'episode')];
    const { kept, keptPaths } = unchangedEntries([file(path)], index);
    assert.deepEqual([...kept.keys()], ['e1']);
    assert.deepEqual([...keptPaths()], []);
    // keptPaths follows `kept` as it is now.
    const both = unchangedEntries([file(path)], [entry('e1', [ref(path)], 'episode'), entry('e2', [ref(path)], 'episode')]);
    assert.deepEqual([...both.keptPaths()], [path]);
    both.kept.delete('e2');
    assert.deepEqual([...both.keptPaths()], []);
  });
});

describe('scan plan: split unchanged', () => {
  const cd = (n: number) => file(`Kill Bill (2003)/Kill Bill (2003) - cd${n}.avi`);
  /** The index a scan of `files` would leave. */
  const indexOf = (files: ItemsInput['files']): IndexEntry[] =>
    [...desiredItems(input(files)).items.values()].map((i) => entry(i.id, (i as MovieItem).files));

  it('an unchanged library parses nothing', () => {
    const files = [cd(1), cd(2), file('Heat (1995).mkv')];
    const split = splitUnchanged(input(files), indexOf(files));
    assert.deepEqual(
      { kept: split.kept.size, skipped: [...split.skipped].sort(), items: split.items.size, failed: split.failed },
      { kept: 2, skipped: files.map((f) => f.relPath).sort(), items: 0, failed: [] },
    );
  });

  it('a kept movie that gained a part is no longer kept: all its parts are read again', () => {
    const index = indexOf([cd(1), cd(2), file('Heat (1995).mkv')]);
    const killBill = index.find((e) => e.files![0]!.relPath.startsWith('Kill Bill'))!.id;
    const split = splitUnchanged(input([cd(1), cd(2), cd(3), file('Heat (1995).mkv')]), index);
    assert.deepEqual(
      [...split.kept.values()].map((e) => e.files![0]!.relPath),
      ['Heat (1995).mkv'],
    );
    assert.deepEqual([...split.skipped], ['Heat (1995).mkv']);
    assert.deepEqual([...split.items.keys()], [killBill]);
    assert.deepEqual(
      (split.items.get(killBill) as MovieItem).files.map((f) => f.part),
      [1, 2, 3],
    );
  });
});

describe('scan plan: a double episode half written', () => {
  const files = [file('Show/Season 1/Show.S01E01-E02.mkv')];
  const tv: ItemsInput = { libraryId: 'lib', mediaType: 'tvshow', jobId: 'job1', now: 'T0', files };
  const written = [...desiredItems(tv).items.values()].map((i) => entry(i.id, i.entity === 'tvshow' ? undefined : i.files, i.entity));

  it("is read again when the index may hold a stopped scan's writes, and finds the missing episode", () => {
    // A scan stopped after writing the show and the first episode.
    const half = written.slice(0, 2);
    const split = splitUnchanged(tv, half, { partialIndex: true });
    assert.deepEqual(
      { kept: split.kept.size, skipped: split.skipped.size, items: [...split.items.keys()].sort() },
      { kept: 0, skipped: 0, items: written.map((e) => e.id).sort() },
    );
  });

  it("is skipped when the index is a completed scan's whole one", () => {
    const split = splitUnchanged(tv, written);
    assert.deepEqual(
      { kept: split.kept.size, skipped: [...split.skipped], items: split.items.size },
      { kept: 2, skipped: [files[0]!.relPath], items: 0 },
    );
  });
});
