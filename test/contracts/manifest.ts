// The ManifestStore contract: what every adapter of libraries' manifests does
// (test/contracts/support.ts says how contracts run).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ManifestStore } from '../../lib/catalog/manifest';
import type { IndexEntry } from '../../lib/catalog/model';
import { longAgo, TECH, uid } from './support';

/** A contract's store is its own and starts empty (test/contracts/support.ts). */
export const manifestContract = (store: ManifestStore) => {
  const movieEntries = (n: number): IndexEntry[] =>
    Array.from({ length: n }, (_, i) => ({
      id: `mv_sc${uid()}`,
      entity: 'movie',
      addedAt: longAgo(i),
      files: [
        { relPath: `Film ${i} (2001)/Film ${i} (2001) ${uid()}.mkv`, size: i * 1000 + 1, mtimeMs: 1_700_000_000_000 + i, part: null },
      ],
      enrich: 'done',
    }));

  /** Every shape an index entry takes, as the index holds it (what a rescan compares). */
  const shapes = (): IndexEntry[] => {
    const showId = `tv_sc${uid()}`;
    return [
      {
        id: `mv_sc${uid()}`,
        entity: 'movie',
        addedAt: longAgo(1),
        enrich: 'artwork',
        localStamp: 'nfo:Été/movie.nfo@1',
        files: [
          { relPath: 'Été (1999)/Été cd1.mkv', size: 4_000_000_123, mtimeMs: 1_700_000_000_123.5, part: 1, tech: TECH },
          { relPath: 'Été (1999)/Été cd2.mkv', size: 3, mtimeMs: 4, part: 2, tech: null },
        ],
      },
      { id: `mv_sc${uid()}`, entity: 'movie', addedAt: longAgo(2), files: [{ relPath: 'Bare.mp4', size: 0, mtimeMs: 0, part: null }] },
      { id: showId, entity: 'tvshow', addedAt: longAgo(3), enrich: 'local', localStamp: 'poster:Show/poster.jpg@9' },
      {
        id: `ep_sc${uid()}`,
        entity: 'episode',
        addedAt: longAgo(4),
        showId,
        seasonNumber: 0,
        enrich: 'metadata',
        files: [{ relPath: 'Show/Specials/S00E01.mkv', size: 5, mtimeMs: 6, part: null, tech: TECH }],
      },
      {
        id: `ep_sc${uid()}`,
        entity: 'episode',
        addedAt: longAgo(5),
        showId,
        seasonNumber: 12,
        files: [{ relPath: 'Show/Season 12/S12E01-E02.mkv', size: 7, mtimeMs: 8, part: null }],
      },
    ];
  };

  it('reads back the entries a job wrote, every shape whole', async () => {
    const library = `lib_sc${uid()}`;
    assert.equal(await store.read(library), undefined, 'no manifest before the first write');
    const written = [...shapes(), ...movieEntries(300)];
    await store.write(library, `job_${uid()}`, written);
    assert.deepEqual(await store.read(library), written);
    await store.drop(library);
  });

  it("keeps an empty library's manifest as an empty index, not as none", async () => {
    const library = `lib_sc${uid()}`;
    await store.write(library, `job_${uid()}`, []);
    assert.deepEqual(await store.read(library), []);
    await store.drop(library);
  });

  it("a later job's write replaces the manifest, larger or smaller", async () => {
    const library = `lib_sc${uid()}`;
    const [a, b, c] = [movieEntries(250), shapes(), movieEntries(400)];
    await store.write(library, 'job1', a);
    assert.deepEqual(await store.read(library), a);
    await store.write(library, 'job2', b);
    assert.deepEqual(await store.read(library), b);
    await store.write(library, 'job3', c);
    assert.deepEqual(await store.read(library), c);
    await store.drop(library);
  });

  // In fewer parts than the first: the first write's extra parts must go, or the set no longer
  // counts whole and read() finds no manifest.
  it('a second write by the same job replaces its first', async () => {
    const library = `lib_sc${uid()}`;
    const [a, b] = [movieEntries(400), shapes()];
    await store.write(library, 'job1', a);
    await store.write(library, 'job1', b);
    assert.deepEqual(await store.read(library), b);
    await store.drop(library);
  });

  it("drop removes one library's manifest and no other's; dropping none is no error", async () => {
    const [library, other] = [`lib_sc${uid()}`, `lib_sc${uid()}`];
    const [mine, theirs] = [movieEntries(120), shapes()];
    await store.write(library, 'job1', mine);
    await store.write(other, 'job1', theirs);
    await store.drop(library);
    assert.equal(await store.read(library), undefined);
    assert.deepEqual(await store.read(other), theirs, "another library's manifest stays");
    await store.drop(library);
    await store.drop(`lib_sc${uid()}`);
    // A write after a drop is read again.
    await store.write(library, 'job2', mine);
    assert.deepEqual(await store.read(library), mine);
    await store.drop(library);
    await store.drop(other);
  });
};
