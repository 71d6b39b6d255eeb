// A library's removal run (lib/scan/library-removal.ts) over the memory stores: however short its
// time, each run removes a page of what is left and says 'more' until the library is gone; then
// the library, its withdrawal and its manifest go, and `library:deleted` is said once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryManifestStore } from '../../../lib/catalog/memory-manifest';
import { MemoryCatalogStore } from '../../../lib/catalog/memory-store';
import { MemoryLibraryStore } from '../../../lib/library/memory-store';
import { removeLibraryNow, runRemoval, type RemovalDeps } from '../../../lib/scan/library-removal';
import { movie } from '../../contracts/catalog';
import { aLibrary } from '../../support/library-fixture';

describe('a library removal run', () => {
  it('removes a page at least per run, even past its deadline, and the library once nothing is left', async () => {
    const events: unknown[] = [];
    const catalog = new MemoryCatalogStore();
    const libraries = new MemoryLibraryStore();
    const deps = {
      catalog,
      libraries,
      manifests: new MemoryManifestStore(),
      // No scan of it runs.
      jobs: { activeJobOf: async () => undefined },
      events: { emit: async (e: unknown) => void events.push(e) },
    } as unknown as RemovalDeps;
    const [going, kept] = [aLibrary(), aLibrary(undefined, { path: '/media/kept' })];
    await libraries.create(going);
    await libraries.create(kept);
    await catalog.put([...Array.from({ length: 1_200 }, () => movie(going.id)), movie(kept.id)]);
    const marked = (await libraries.markRemoving(going.id, new Date().toISOString()))!;

    const runs: string[] = [];
    for (let run = 0; run < 5 && runs.at(-1) !== 'done'; run++) {
      // A deadline already past: the run still removes its page.
      runs.push(await removeLibraryNow(deps, marked, 0));
      if (runs.at(-1) === 'more') assert.equal((await catalog.index(going.id)).length, 1_200 - 500 * runs.length);
    }
    assert.deepEqual(runs, ['more', 'more', 'done']);
    assert.deepEqual(await catalog.index(going.id), []);
    assert.equal((await catalog.index(kept.id)).length, 1, "another library's items stay");
    assert.equal(await libraries.get(going.id), undefined);
    assert.deepEqual((await catalog.versionState()).withdrawn, [], 'no longer withdrawn once gone');
    assert.deepEqual(events, [{ type: 'library:deleted', libraryId: going.id }]);
    // A run started again for it (upkeep, a restart) finds nothing to do.
    assert.equal(await runRemoval(deps, going.id, 0), 'done');
    assert.equal(events.length, 1);
  });
});
