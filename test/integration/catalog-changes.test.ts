// The catalogue kept in memory follows the stamp's moves by reading only the items each move
// names (lib/catalog/changes.ts, lib/catalog/snapshot.ts): what it holds is what a whole
// read would give, in the same order, a move that changed none of its titles hands back the
// same catalogue (and so the same search index), and moves racing from two processes are
// all kept. In a shared process the holder knows its own store's moves without reading the
// stamp, and sees another process's within a second.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { EpisodeItem, MovieItem, ShowItem, TitledItem } from '../../lib/catalog/model';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { CatalogueSnapshot } from '../../lib/catalog/snapshot';
import type { VersionState } from '../../lib/catalog/snapshot';
import { ownTable } from '../support/own-table';

const uid = () => randomUUID().replaceAll('-', '');
const LIBRARY = `lib_${uid()}`;

/** A real store that counts its whole reads of the catalogue. */
class CountingStore extends DynamoCatalogStore {
  wholeReads = 0;
  stampReads = 0;
  override titled(): AsyncGenerator<TitledItem> {
    this.wholeReads++;
    return super.titled();
  }
  override versionState(): Promise<VersionState> {
    this.stampReads++;
    return super.versionState();
  }
}

const base = (id: string, addedAt: string) => ({
  id,
  libraryId: LIBRARY,
  addedAt,
  updatedAt: addedAt,
  lastJob: 'job_1',
  lastChange: 'added' as const,
  originalTitle: null,
  year: 2001,
  overview: null,
  genres: [],
  rating: null,
  tmdbId: null,
  meshGradientColors: ['#101010', '#202020', '#303030', '#404040'] as [string, string, string, string],
});

const film = (title: string, addedAt: string): MovieItem => {
  const id = `mv_cc${uid()}`;
  return { ...base(id, addedAt), entity: 'movie', title, files: [{ relPath: `${title}.mkv`, size: 1, mtimeMs: 1, part: null }] };
};

const show = (title: string, addedAt: string): ShowItem => ({ ...base(`tv_cc${uid()}`, addedAt), entity: 'tvshow', title });

const episode = (showId: string): EpisodeItem => ({
  id: `ep_cc${uid()}`,
  libraryId: LIBRARY,
  addedAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2020-01-01T00:00:00.000Z',
  lastJob: 'job_1',
  lastChange: 'added',
  entity: 'episode',
  showId,
  seasonNumber: 1,
  episodeNumber: 1,
  title: 'Pilot',
  overview: null,
  airDate: null,
  files: [{ relPath: 'Show/S01E01.mkv', size: 1, mtimeMs: 1, part: null }],
});

const wholeRead = async (store: DynamoCatalogStore) => {
  const items: TitledItem[] = [];
  for await (const item of store.titled()) items.push(item);
  return items;
};

describe('the catalogue kept in memory', () => {
  const table = ownTable('catalog-changes');

  it('follows each move by reading only what it names, and ends as a whole read would', async () => {
    const store = new CountingStore(table.db);
    const snapshot = new CatalogueSnapshot(store, 'lambda');
    const titledNow = () => snapshot.titled();
    const [a, b, c] = [
      film('Alpha', '2020-01-02T00:00:00.000Z'),
      film('Bravo', '2020-01-03T00:00:00.000Z'),
      film('Charlie', '2020-01-01T00:00:00.000Z'),
    ];
    const s = show('Delta', '2020-01-01T00:00:00.000Z');
    await store.put([a, b, c, s]);
    const first = await titledNow();
    assert.equal(store.wholeReads, 1);
    assert.deepEqual(
      first.items.map((i) => i.title),
      ['Charlie', 'Alpha', 'Bravo', 'Delta'],
    );

    // A film added (earlier than all), one renamed, one removed, an episode written.
    const e = film('Echo', '2019-12-31T00:00:00.000Z');
    await store.put([e, { ...a, title: 'Alpha Renamed' }, episode(s.id)]);
    await store.remove([b.id]);
    const second = await titledNow();
    assert.equal(store.wholeReads, 1, 'the move was followed without a whole read');
    const whole = await wholeRead(store);
    assert.deepEqual(second.items, whole, 'the same items in the same order as a whole read');
    assert.deepEqual(
      second.items.map((i) => i.title),
      ['Echo', 'Charlie', 'Alpha Renamed', 'Delta'],
    );
    assert.equal(second.byId.get(a.id)?.title, 'Alpha Renamed');
    assert.equal(second.byId.has(b.id), false);
    assert.notEqual(second, first);

    // A move with no title changed (a scan's last one, an episode's) hands back the same catalogue.
    await store.bumpVersion();
    assert.equal(await titledNow(), second);
    await store.put([episode(s.id)]);
    assert.equal(await titledNow(), second);

    // A move that cannot name its items: read whole.
    await store.put([{ ...c, title: 'Charlie Again' }]);
    await store.bumpVersion({ everything: true });
    const third = await titledNow();
    assert.equal(store.wholeReads, 3);
    assert.equal(third.byId.get(c.id)?.title, 'Charlie Again');
  });

  it('moves racing from two processes are all kept, each with its own items', async () => {
    const [one, two] = [new DynamoCatalogStore(table.db), new DynamoCatalogStore(table.db)];
    const from = await one.version();
    const films = Array.from({ length: 16 }, (_, i) => film(`Race ${i}`, '2021-01-01T00:00:00.000Z'));
    await Promise.all(
      films.map(async (f, i) => {
        const store = i % 2 ? one : two;
        await store.put([f], { quiet: true });
      }),
    );
    const to = await one.version();
    assert.equal(to - from, 16, 'every move counted');
    assert.deepEqual((await one.changedBetween(from, to))?.sort(), films.map((f) => f.id).sort(), 'every film announced');
    await one.remove(films.map((f) => f.id));
  });

  it("in a shared process, knows its own moves without reading the stamp, and another process's within a second", async () => {
    const store = new CountingStore(table.db);
    let now = 0;
    const snapshot = new CatalogueSnapshot(store, 'shared-process', () => now);
    const f = film('Foxtrot', '2022-01-01T00:00:00.000Z');
    await store.put([f]);
    const first = await snapshot.titled();
    assert.equal(store.stampReads, 0, 'its own moves are known: the stamp is not read');
    assert.equal(first.byId.get(f.id)?.title, 'Foxtrot');

    // A match fixed here: the next read waits for it, and asks the database nothing but the item.
    await store.put([{ ...f, title: 'Foxtrot Fixed' }]);
    assert.equal((await snapshot.titled()).byId.get(f.id)?.title, 'Foxtrot Fixed');
    assert.equal((await snapshot.title(f.id))?.title, 'Foxtrot Fixed');
    assert.equal(store.stampReads, 0, 'nor after a move of its own');

    // Another process on the same table: seen once the stamp is read again, behind a reader.
    const elsewhere = new DynamoCatalogStore(table.db);
    await elsewhere.put([{ ...f, title: 'Foxtrot Elsewhere' }]);
    assert.equal((await snapshot.titled()).byId.get(f.id)?.title, 'Foxtrot Fixed', 'within the second: not asked');
    now += 1_000;
    await snapshot.titled();
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(store.stampReads, 1, 'read behind a reader, once the second was over');
    assert.equal((await snapshot.titled()).byId.get(f.id)?.title, 'Foxtrot Elsewhere');
    await store.remove([f.id]);
  });
});
