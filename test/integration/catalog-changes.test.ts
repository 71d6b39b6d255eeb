// The catalogue kept in memory follows the stamp's moves by reading only the items each move
// names (lib/catalog/changes.ts, lib/catalog/titled-now.ts): what it holds is what a whole
// read would give, in the same order, a move that changed none of its titles hands back the
// same catalogue (and so the same search index), and moves racing from two processes are
// all kept.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import type { EpisodeItem, MovieItem, ShowItem, TitledItem } from '../../lib/catalog/model';
import { DynamoCatalogStore } from '../../lib/catalog/store';
import { titledNow } from '../../lib/catalog/titled-now';
import { ownTable } from '../support/own-table';

const uid = () => randomUUID().replaceAll('-', '');
const LIBRARY = `lib_${uid()}`;

/** A real store that counts its whole reads of the catalogue. */
class CountingStore extends DynamoCatalogStore {
  wholeReads = 0;
  override titled(): AsyncGenerator<TitledItem> {
    this.wholeReads++;
    return super.titled();
  }
}

const base = (id: string, addedAt: string) => ({
  id, libraryId: LIBRARY, addedAt, updatedAt: addedAt, lastJob: 'job_1', lastChange: 'added' as const,
  originalTitle: null, year: 2001, overview: null, genres: [], rating: null, tmdbId: null,
  meshGradientColors: ['#101010', '#202020', '#303030', '#404040'] as [string, string, string, string],
});

const film = (title: string, addedAt: string): MovieItem => {
  const id = `mv_cc${uid()}`;
  return { ...base(id, addedAt), entity: 'movie', title, files: [{ relPath: `${title}.mkv`, size: 1, mtimeMs: 1, part: null }] };
};

const show = (title: string, addedAt: string): ShowItem => ({ ...base(`tv_cc${uid()}`, addedAt), entity: 'tvshow', title });

const episode = (showId: string): EpisodeItem => ({
  id: `ep_cc${uid()}`, libraryId: LIBRARY, addedAt: '2020-01-01T00:00:00.000Z', updatedAt: '2020-01-01T00:00:00.000Z', lastJob: 'job_1', lastChange: 'added',
  entity: 'episode', showId, seasonNumber: 1, episodeNumber: 1, title: 'Pilot', overview: null, airDate: null,
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
    const [a, b, c] = [film('Alpha', '2020-01-02T00:00:00.000Z'), film('Bravo', '2020-01-03T00:00:00.000Z'), film('Charlie', '2020-01-01T00:00:00.000Z')];
    const s = show('Delta', '2020-01-01T00:00:00.000Z');
    await store.put([a, b, c, s]);
    await store.bumpVersion();
    const first = await titledNow(store, store);
    assert.equal(store.wholeReads, 1);
    assert.deepEqual(first.items.map((i) => i.title), ['Charlie', 'Alpha', 'Bravo', 'Delta']);

    // A film added (earlier than all), one renamed, one removed, an episode written.
    const e = film('Echo', '2019-12-31T00:00:00.000Z');
    await store.put([e, { ...a, title: 'Alpha Renamed' }, episode(s.id)]);
    await store.remove([b.id]);
    await store.bumpVersion({ quiet: true });
    const second = await titledNow(store, store);
    assert.equal(store.wholeReads, 1, 'the move was followed without a whole read');
    const whole = await wholeRead(store);
    assert.deepEqual(second.items, whole, 'the same items in the same order as a whole read');
    assert.deepEqual(second.items.map((i) => i.title), ['Echo', 'Charlie', 'Alpha Renamed', 'Delta']);
    assert.equal(second.byId.get(a.id)?.title, 'Alpha Renamed');
    assert.equal(second.byId.has(b.id), false);
    assert.notEqual(second, first);

    // A move with no title changed (a scan's last one, an episode's) hands back the same catalogue.
    await store.bumpVersion();
    assert.equal(await titledNow(store, store), second);
    await store.put([episode(s.id)]);
    await store.bumpVersion();
    assert.equal(await titledNow(store, store), second);

    // A move that cannot name its items: read whole.
    await store.put([{ ...c, title: 'Charlie Again' }]);
    await store.bumpVersion({ everything: true });
    const third = await titledNow(store, store);
    assert.equal(store.wholeReads, 3);
    assert.equal(third.byId.get(c.id)?.title, 'Charlie Again');
  });

  it('moves racing from two processes are all kept, each with its own items', async () => {
    const [one, two] = [new DynamoCatalogStore(table.db), new DynamoCatalogStore(table.db)];
    const from = await one.version();
    const films = Array.from({ length: 16 }, (_, i) => film(`Race ${i}`, '2021-01-01T00:00:00.000Z'));
    await Promise.all(films.map(async (f, i) => {
      const store = i % 2 ? one : two;
      await store.put([f]);
      await store.bumpVersion({ quiet: true });
    }));
    const to = await one.version();
    assert.equal(to - from, 16, 'every move counted');
    assert.deepEqual((await one.changedBetween(from, to))?.sort(), films.map((f) => f.id).sort(), 'every film announced');
    await one.remove(films.map((f) => f.id));
    await one.bumpVersion();
  });
});
