// The collections' pages from films and stored collections held in memory: which films count,
// the order of the list and of the parts, and the parts the provider does not list.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CollectionStore, StoredCollection } from '../../../lib/catalog/collections';
import type { MovieItem, TitledItem } from '../../../lib/catalog/model';
import type { CatalogStore } from '../../../lib/catalog/store';
import { collectionDetail, collectionList } from '../../../lib/views/collections';

const ORIGIN = 'http://box:3000';
let version = 0;

const film = (
  id: string,
  title: string,
  year: number,
  tmdbId: number | null,
  collection: { id: number; name: string } | null,
  releaseDate: string | null = null,
) =>
  ({
    id,
    entity: 'movie',
    libraryId: 'lib',
    addedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    lastJob: 'j',
    lastChange: 'added',
    title,
    originalTitle: null,
    year,
    overview: null,
    genres: [],
    rating: null,
    meshGradientColors: ['#000000', '#000000', '#000000', '#000000'],
    tmdbId,
    files: [],
    metadata: {
      source: 'provider',
      matched: true,
      confidence: 1,
      tagline: null,
      runtimeMinutes: null,
      releaseDate,
      certification: null,
      cast: [],
      directors: [],
      creators: [],
      imdbId: null,
      tvdbId: null,
      collection,
    },
  }) as MovieItem;

const stored = (id: number, name: string, parts: Array<[number, string, string | null]>): StoredCollection => ({
  id,
  name,
  overview: `${name}.`,
  posterPath: '/p.jpg',
  backdropPath: null,
  fetchedAt: '2026-01-01T00:00:00.000Z',
  artwork: { poster: { etag: `e${id}`, contentType: 'image/jpeg', width: 500, height: 750, source: 'provider', from: '/p.jpg' } },
  parts: parts.map(([tmdbId, title, releaseDate]) => ({
    tmdbId,
    title,
    releaseDate,
    year: releaseDate ? Number(releaseDate.slice(0, 4)) : null,
  })),
});

/** The catalogue and the collections as the stores would give them; a new version each time. */
const deps = (films: TitledItem[], collections: StoredCollection[]) => {
  version++;
  const v = version;
  // Its moves name nothing (changedBetween: undefined), so each version is read whole.
  const catalog = {
    version: async () => v,
    versionState: async () => ({ version: v, quiet: false }),
    titled: async function* () {
      yield* films;
    },
    changedBetween: async () => undefined,
  } as unknown as CatalogStore;
  const store: CollectionStore = {
    getMany: async (ids) => new Map(collections.filter((c) => ids.includes(c.id)).map((c) => [c.id, c])),
    put: async () => undefined,
  };
  return { catalog, collections: store };
};

const GODFATHER = { id: 230, name: 'The Godfather Collection' };
const ALIEN = { id: 8091, name: 'Alien Collection' };

describe('film collections as clients read them', () => {
  it("lists collections with a film here, filed as titles are, counting a film's two copies once", async () => {
    const d = deps(
      [
        film('mv_a', 'The Godfather', 1972, 238, GODFATHER),
        film('mv_b', 'The Godfather', 1972, 238, GODFATHER), // a second copy, in another library
        film('mv_c', 'Alien³', 1992, 8077, ALIEN, '1992-05-22'),
        film('mv_d', 'Heat', 1995, 949, null),
        film('mv_e', 'Hellboy', 2004, 1487, { id: 17235, name: 'Hellboy Collection' }),
      ],
      [
        stored(230, 'The Godfather Collection', [
          [240, 'The Godfather Part II', '1974-12-20'],
          [238, 'The Godfather', '1972-03-14'],
          [242, 'The Godfather Part III', '1990-12-25'],
        ]),
        stored(99, 'Nobody Here', [[1, 'x', null]]),
      ],
    );

    const list = await collectionList(d, ORIGIN);

    assert.deepEqual(list, [
      // Not asked of the provider yet: the film's name for it, no pictures, its films alone.
      { id: 8091, name: 'Alien Collection', posterUrl: null, backdropUrl: null, owned: 1, total: 1 },
      // Under G, not T.
      {
        id: 230,
        name: 'The Godfather Collection',
        posterUrl: `${ORIGIN}/api/v1/artwork/co_230/poster?v=e230`,
        backdropUrl: null,
        owned: 1,
        total: 3,
      },
      { id: 17235, name: 'Hellboy Collection', posterUrl: null, backdropUrl: null, owned: 1, total: 1 },
    ]);
  });

  it('lists the parts in release order, undated last, with the films here the provider does not list', async () => {
    const d = deps(
      [film('mv_b', 'Aliens (Special Edition)', 1986, 679, ALIEN), film('mv_n', 'Alien: The Home Cut', 2001, null, ALIEN)],
      [
        stored(8091, 'Alien Collection', [
          [999, 'Alien 5', null],
          [679, 'Aliens', '1986-07-18'],
          [348, 'Alien', '1979-05-25'],
        ]),
      ],
    );

    const page = await collectionDetail(d, 8091, ORIGIN);

    assert.deepEqual(
      page.parts.map((p) => [p.tmdbId, p.title, p.year, p.owned, p.id, p.media?.id ?? null]),
      [
        [348, 'Alien', 1979, false, null, null],
        [679, 'Aliens (Special Edition)', 1986, true, 'mv_b', 'mv_b'],
        // The year alone places it when it has no date.
        [null, 'Alien: The Home Cut', 2001, true, 'mv_n', 'mv_n'],
        [999, 'Alien 5', null, false, null, null],
      ],
    );
    assert.deepEqual([page.id, page.name, page.overview], [8091, 'Alien Collection', 'Alien Collection.']);
  });

  it('answers 404 for a collection no film here is in, stored or not', async () => {
    const d = deps(
      [film('mv_a', 'Heat', 1995, 949, null)],
      [stored(230, 'The Godfather Collection', [[238, 'The Godfather', '1972-03-14']])],
    );

    for (const id of [230, 12345]) {
      await assert.rejects(collectionDetail(d, id, ORIGIN), (err: any) => err.status === 404 && err.code === 'not-found');
    }
  });
});
