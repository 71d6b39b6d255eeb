// The catalogue a process holds and the values derived from it (lib/catalog/snapshot.ts), over
// a stand-in store whose stamp the test moves: a value is built once per catalogue and shared,
// a failed build is forgotten, a running scan's (quiet) move is answered from the last value
// while the next is made behind the readers, and any other move is waited for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TitledItem } from '../../../lib/catalog/model';
import { CatalogueSnapshot, derived, type SnapshotSource, type VersionState } from '../../../lib/catalog/snapshot';

const film = (id: string, title: string) =>
  ({ id, entity: 'movie', title, addedAt: `2026-01-01T00:00:0${id.length}.000Z` }) as unknown as TitledItem;

/** A store whose stamp and films the test sets; `changed` is what the journal names (undefined: read whole). */
const standIn = () => {
  const s = {
    state: { version: 1, quiet: false } as VersionState,
    films: [film('a', 'Alpha')],
    changed: undefined as string[] | undefined,
    stampReads: 0,
  };
  const source = {
    versionState: async () => (s.stampReads++, s.state),
    changedBetween: async () => s.changed,
    titled: async function* () {
      yield* s.films;
    },
    getMany: async (ids: string[]) => s.films.filter((f) => ids.includes(f.id)),
    get: async (id: string) => s.films.find((f) => f.id === id),
    episodes: async () => [],
  } as unknown as SnapshotSource;
  return { s, source };
};

describe('the catalogue snapshot', () => {
  it('builds a derived value once per catalogue, shared by readers, and again only when its titles change', async () => {
    const { s, source } = standIn();
    const snapshot = new CatalogueSnapshot(source, 'lambda');
    let builds = 0;
    const titles = derived(async ({ items }) => (builds++, items.map((i) => i.title)));
    assert.deepEqual(await Promise.all([snapshot.derive(titles, undefined), snapshot.derive(titles, undefined)]), [['Alpha'], ['Alpha']]);
    assert.equal(builds, 1);
    // A move that changed no title (an episode's): the same catalogue, the same value.
    s.state = { version: 2, quiet: false };
    s.changed = ['ep_1'];
    assert.deepEqual(await snapshot.derive(titles, undefined), ['Alpha']);
    assert.equal(builds, 1);
    s.state = { version: 3, quiet: false };
    s.changed = undefined;
    s.films = [film('a', 'Alpha'), film('bb', 'Bravo')];
    assert.deepEqual(await snapshot.derive(titles, undefined), ['Alpha', 'Bravo']);
    assert.equal(builds, 2);
  });

  it("leaves a withdrawn library's items out of every reading from its move on, in a Lambda and in a shared process", async () => {
    for (const hosting of ['lambda', 'shared-process'] as const) {
      const { s, source } = standIn();
      const ofLibrary = (f: TitledItem, libraryId: string) => ({ ...f, libraryId });
      s.films = [ofLibrary(film('a', 'Alpha'), 'kept'), ofLibrary(film('bb', 'Bravo'), 'going')];
      const snapshot = new CatalogueSnapshot(source, hosting);
      const titles = derived(async ({ items }) => items.map((i) => i.title));
      assert.deepEqual(await snapshot.derive(titles, undefined), ['Alpha', 'Bravo']);
      s.state = { version: 2, quiet: false, withdrawn: ['going'] };
      s.changed = [];
      // In a shared process the holder learns of the move at its next look at the stamp.
      const later = hosting === 'shared-process' ? new CatalogueSnapshot(source, hosting) : snapshot;
      assert.deepEqual(await later.derive(titles, undefined), ['Alpha'], hosting);
      assert.deepEqual(
        (await later.titled()).items.map((i) => i.id),
        ['a'],
      );
      assert.equal((await later.title('bb'))?.id, undefined, `${hosting}: not by id either`);
      assert.equal((await later.title('a'))?.id, 'a');
      // Nor read on demand (the watch rows ask by id).
      assert.deepEqual([...(await (await later.titled()).get(['a', 'bb'])).keys()], ['a']);
      assert.deepEqual([...(await later.withdrawn())], ['going']);
      // The watch rows' reader, which may lag behind a move, does not lag behind a withdrawal.
      s.state = { version: 3, quiet: false, withdrawn: [] };
      const lagging = new CatalogueSnapshot(source, hosting);
      assert.deepEqual(
        (await lagging.recent()).items.map((i) => i.id),
        ['a', 'bb'],
      );
      s.state = { version: 4, quiet: false, withdrawn: ['going'] };
      if (hosting === 'lambda')
        assert.deepEqual(
          (await lagging.recent()).items.map((i) => i.id),
          ['a'],
          'the rows wait for it',
        );
    }
  });

  it('forgets a failed build', async () => {
    const { source } = standIn();
    const snapshot = new CatalogueSnapshot(source, 'lambda');
    let fail = true;
    const value = derived(async () => {
      if (fail) throw new Error('out of memory');
      return 'ok';
    });
    await assert.rejects(snapshot.derive(value, undefined));
    fail = false;
    assert.equal(await snapshot.derive(value, undefined), 'ok');
  });

  it("answers a quiet move (a running scan's) from the last value while the next is made behind, and waits for any other move", async () => {
    const { s, source } = standIn();
    const snapshot = new CatalogueSnapshot(source, 'lambda');
    const gates: Array<() => void> = [];
    let builds = 0;
    const value = derived(async ({ items }) => {
      const n = ++builds;
      if (n > 1) await new Promise<void>((r) => gates.push(r));
      return `${items.length} titles, build ${n}`;
    });
    assert.equal(await snapshot.derive(value, undefined), '1 titles, build 1');

    s.state = { version: 2, quiet: true };
    s.films = [film('a', 'Alpha'), film('bb', 'Bravo')];
    assert.equal(await snapshot.derive(value, undefined), '1 titles, build 1', 'not waited for');
    await new Promise((r) => setTimeout(r, 10)); // the films read behind the reader
    const notWaited = () => Promise.race([snapshot.derive(value, undefined), new Promise((r) => setTimeout(() => r('waited'), 100))]);
    assert.equal(await notWaited(), '1 titles, build 1', 'nor by the readers after the first');
    assert.equal(builds, 2, 'one build behind them');
    gates.shift()!();
    await new Promise((r) => setTimeout(r, 0));
    assert.equal(await snapshot.derive(value, undefined), '2 titles, build 2', 'the newer value once made');

    s.state = { version: 3, quiet: false };
    s.films = [film('a', 'Alpha'), film('bb', 'Bravo'), film('ccc', 'Charlie')];
    const waited = snapshot.derive(value, undefined);
    await new Promise((r) => setTimeout(r, 20));
    for (const open of gates.splice(0)) open();
    assert.equal(await waited, '3 titles, build 3', 'a move that is not quiet is waited for');
  });

  it("waits for a move that was not quiet even when another scan's quiet move came after it", async () => {
    const { s, source } = standIn();
    const moved: Array<(state: VersionState) => void> = [];
    (source as { onMove?: (l: (state: VersionState) => void) => void }).onMove = (listener) => void moved.push(listener);
    const snapshot = new CatalogueSnapshot(source, 'shared-process');
    const titles = derived(async ({ items }) => items.map((i) => i.title));
    assert.deepEqual(await snapshot.derive(titles, undefined), ['Alpha']);
    // A match fixed here (version 2, not quiet), then at once a scan's quiet step (3).
    s.films = [film('a', 'Alpha Fixed')];
    for (const tell of moved) tell({ version: 2, quiet: false });
    for (const tell of moved) tell({ version: 3, quiet: true });
    assert.deepEqual(await snapshot.derive(titles, undefined), ['Alpha Fixed'], 'the fix is waited for');
    assert.deepEqual(
      (await snapshot.titled()).items.map((i) => i.title),
      ['Alpha Fixed'],
    );
  });

  it('in a shared process asks the stamp once, then again at most once a second behind the readers', async () => {
    const { s, source } = standIn();
    let now = 0;
    const snapshot = new CatalogueSnapshot(source, 'shared-process', () => now);
    await snapshot.titled();
    await snapshot.titled();
    now = 999;
    await snapshot.titled();
    assert.equal(s.stampReads, 1);
    now = 1_000;
    await snapshot.titled();
    assert.equal(s.stampReads, 2);
  });
});
