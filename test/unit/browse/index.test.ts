import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { buildBrowseIndex } from '../../../lib/browse/build';
import { decodeCursor, encodeCursor } from '../../../lib/browse/cursor';
import type { BrowseIndex } from '../../../lib/browse/index';
import type { Filters, Order, SortKey, SortPoint, Watched } from '../../../lib/browse/model';
import type { MovieItem, ShowItem, TitledItem } from '../../../lib/catalog/model';
import { type AppError } from '../../../lib/errors';
import { filing } from '../../../lib/text/sort-title';
import { Pacer } from '../../../lib/util/pace';

interface Spec {
  year?: number | null;
  rating?: number | null;
  released?: string | null;
  added?: string;
  genres?: string[];
  library?: string;
  matched?: boolean;
  collection?: number;
}

let serial = 0;
const movie = (title: string, spec: Spec = {}, id = `m${String(++serial).padStart(4, '0')}`): MovieItem => ({
  id,
  entity: 'movie',
  libraryId: spec.library ?? 'lib1',
  addedAt: spec.added ?? `2026-01-01T00:00:${String(serial % 60).padStart(2, '0')}.000Z`,
  updatedAt: '2026-01-01T00:00:00.000Z',
  lastJob: 'job',
  lastChange: 'added',
  files: [],
  title,
  originalTitle: null,
  year: spec.year === undefined ? 2000 : spec.year,
  overview: null,
  genres: spec.genres ?? [],
  rating: spec.rating ?? null,
  meshGradientColors: ['#000000', '#000000', '#000000', '#000000'],
  tmdbId: null,
  metadata: {
    source: 'file',
    matched: spec.matched ?? false,
    confidence: null,
    tagline: null,
    runtimeMinutes: null,
    releaseDate: spec.released ?? null,
    certification: null,
    cast: [],
    directors: [],
    creators: [],
    imdbId: null,
    tvdbId: null,
    ...(spec.collection ? { collection: { id: spec.collection, name: `Collection ${spec.collection}` } } : {}),
  },
});
const show = (title: string): ShowItem => {
  const { files: _, ...rest } = movie(title);
  return { ...rest, entity: 'tvshow', id: `s${serial}` };
};

const build = (items: TitledItem[], type: 'movie' | 'tvshow' = 'movie') => buildBrowseIndex(items, type, new Pacer(7));

/** Every title of a listing, a page of `limit` at a time through the cursors. */
const allPages = (
  index: BrowseIndex,
  sort: SortKey,
  order: Order,
  limit: number,
  filters: Filters = {},
  watched?: Map<string, Watched>,
) => {
  const seen: string[] = [];
  let after: SortPoint | undefined;
  for (let pages = 0; pages < 1_000; pages++) {
    const page = index.page({ sort, order, limit, after }, filters, watched);
    seen.push(...page.items.map((i) => i.title));
    if (!page.next) return seen;
    // Through the wire, as a client carries it.
    after = decodeCursor(encodeCursor('movie', sort, order, page.next), 'movie', sort, order);
  }
  throw new Error('paging did not end');
};
const titles = (index: BrowseIndex, sort: SortKey, order: Order, filters: Filters = {}, watched?: Map<string, Watched>) =>
  index.page({ sort, order, limit: 10_000 }, filters, watched).items.map((i) => i.title);

const shelf = [
  movie('The Matrix', { year: 1999, rating: 8.7, genres: ['Action', 'Science Fiction'], released: '1999-03-31' }),
  movie('Matrix', { year: 1993, rating: 5.1, genres: ['Drama'] }),
  movie('Mad Max', { year: 1979, rating: 6.9, genres: ['Action'], released: '1979-04-12', matched: true }),
  movie('Les Misérables', { year: 2012, rating: 7.6, genres: ['Drama', 'Music'], released: '2012-12-18', matched: true }),
  movie("L'Avventura", { year: 1960, rating: 7.8, genres: ['drama'] }),
  movie('Édith', { year: null, genres: ['Documentary'] }),
  movie('Amélie', { year: 2001, rating: 7.9, genres: ['Comedy', 'Romance'], released: '2001-04-25', matched: true, collection: 7 }),
  movie('2001: A Space Odyssey', {
    year: 1968,
    rating: 8.1,
    genres: ['Science Fiction'],
    released: '1968-04-02',
    matched: true,
    collection: 7,
  }),
  movie('(500) Days of Summer', { year: 2009, rating: null, genres: ['Comedy', 'Drama'] }),
  movie('Das Boot', { year: 1981, rating: 8.3, genres: ['War', 'Drama'], library: 'lib2' }),
  movie('El Laberinto del Fauno', { year: 2006, rating: 8.2, genres: ['Fantasy', 'Drama'], library: 'lib2' }),
  movie('Il Postino', { year: 1994, rating: 7.7, genres: ['Drama'], library: 'lib2' }),
  movie('Heat', { year: 1995, rating: 8.3, genres: ['Crime', 'DRAMA'] }),
  movie('Heat', { year: 1986, rating: 4.8, genres: ['Crime'] }),
  movie('Москва слезам не верит', { year: 1980, rating: 7.9, genres: ['Drama'] }),
];

describe('the browse index', () => {
  it('files titles by their sort title, A to Z, then #', async () => {
    const index = await build(shelf);
    assert.deepEqual(titles(index, 'title', 'asc'), [
      'Amélie',
      "L'Avventura",
      'Das Boot',
      'Édith',
      'Heat',
      'Heat',
      'El Laberinto del Fauno',
      'Mad Max',
      'Matrix',
      'The Matrix',
      'Les Misérables',
      'Il Postino',
      '(500) Days of Summer',
      '2001: A Space Odyssey',
      'Москва слезам не верит',
    ]);
    // Ties by year: the 1986 Heat, then the 1995 one; "Matrix" (1993) before "The Matrix" (1999).
    const heats = index
      .page({ sort: 'title', order: 'asc', limit: 100 }, {})
      .items.filter((i) => i.title === 'Heat')
      .map((i) => i.year);
    assert.deepEqual(heats, [1986, 1995]);
    assert.deepEqual(titles(index, 'title', 'desc'), titles(index, 'title', 'asc').reverse(), 'descending is ascending turned round');
  });

  it('keeps titles without a value last, in either order', async () => {
    const index = await build(shelf);
    // Neither Édith nor (500) Days of Summer has a rating: by year then, Édith (no year) the lowest.
    assert.deepEqual(titles(index, 'rating', 'desc').slice(-2), ['(500) Days of Summer', 'Édith']);
    assert.deepEqual(titles(index, 'rating', 'asc').slice(-2), ['Édith', '(500) Days of Summer']);
    // Das Boot and the 1995 Heat tie at 8.3: by year, turned round with the order.
    assert.deepEqual(titles(index, 'rating', 'desc').slice(0, 3), ['The Matrix', 'Heat', 'Das Boot']);
    assert.deepEqual(titles(index, 'rating', 'asc').slice(10, 13), ['Das Boot', 'Heat', 'The Matrix']);
    assert.equal(titles(index, 'year', 'asc').at(-1), 'Édith');
    assert.equal(titles(index, 'year', 'desc').at(-1), 'Édith');
    assert.deepEqual(titles(index, 'released', 'desc').slice(0, 5), [
      'Les Misérables',
      'Amélie',
      'The Matrix',
      'Mad Max',
      '2001: A Space Odyssey',
    ]);
    assert.deepEqual(titles(index, 'released', 'asc').slice(0, 5), [
      '2001: A Space Odyssey',
      'Mad Max',
      'The Matrix',
      'Amélie',
      'Les Misérables',
    ]);
  });

  it('filters by letter, genres (all of them, any case), years, library, collection and match, and counts what it keeps', async () => {
    const index = await build(shelf);
    const kept = (filters: Filters) => {
      const page = index.page({ sort: 'title', order: 'asc', limit: 100 }, filters);
      return [page.total, page.items.map((i) => i.title)];
    };
    assert.deepEqual(kept({ letter: 'M' }), [4, ['Mad Max', 'Matrix', 'The Matrix', 'Les Misérables']]);
    assert.deepEqual(kept({ letter: 'A' }), [2, ['Amélie', "L'Avventura"]]);
    assert.deepEqual(kept({ letter: '#' }), [3, ['(500) Days of Summer', '2001: A Space Odyssey', 'Москва слезам не верит']]);
    assert.deepEqual(kept({ letter: 'Q' }), [0, []]);
    assert.deepEqual(kept({ genres: ['drama'], letter: 'H' }), [1, ['Heat']]);
    assert.deepEqual(kept({ genres: ['Drama', 'comedy'] }), [1, ['(500) Days of Summer']]);
    assert.deepEqual(kept({ genres: ['Drama', 'Western'] }), [0, []], 'a genre nobody has keeps nothing');
    assert.deepEqual(kept({ yearFrom: 1990, yearTo: 1999 }), [4, ['Heat', 'Matrix', 'The Matrix', 'Il Postino']]);
    assert.deepEqual(kept({ yearTo: 1970 }), [2, ["L'Avventura", '2001: A Space Odyssey']]);
    assert.deepEqual(kept({ libraryId: 'lib2' }), [3, ['Das Boot', 'El Laberinto del Fauno', 'Il Postino']]);
    assert.deepEqual(kept({ libraryId: 'nowhere' }), [0, []]);
    assert.deepEqual(kept({ collectionId: 7 }), [2, ['Amélie', '2001: A Space Odyssey']]);
    assert.deepEqual(kept({ collectionId: 8 }), [0, []]);
    assert.deepEqual(kept({ matched: true, yearFrom: 1970 }), [3, ['Amélie', 'Mad Max', 'Les Misérables']]);
    assert.equal(kept({ matched: false })[0], shelf.length - 4);
  });

  it("filters and sorts by a profile's state", async () => {
    const index = await build(shelf);
    const id = (title: string) => shelf.find((m) => m.title === title)!.id;
    const watched = new Map<string, Watched>([
      [id('Heat'), { played: true, lastPlayedAt: '2026-03-01T10:00:00.000Z', favorite: true }],
      [id('Amélie'), { played: false, lastPlayedAt: '2026-03-02T10:00:00.000Z', favorite: false }],
      [id('Das Boot'), { played: true, lastPlayedAt: '2026-02-01T10:00:00.000Z', favorite: false }],
      [id('The Matrix'), { played: false, lastPlayedAt: null, favorite: true }], // a favourite never watched
      ['some-show', { played: true, lastPlayedAt: '2026-03-03T10:00:00.000Z', favorite: true }],
    ]);
    assert.deepEqual(titles(index, 'title', 'asc', { played: true }, watched), ['Das Boot', 'Heat']);
    assert.equal(index.page({ sort: 'title', order: 'asc', limit: 1 }, { played: false }, watched).total, shelf.length - 2);
    assert.deepEqual(titles(index, 'title', 'asc', { favorite: true }, watched), ['Heat', 'The Matrix']);
    assert.deepEqual(titles(index, 'title', 'asc', { favorite: true, played: true }, watched), ['Heat'], 'both must match');
    assert.equal(titles(index, 'title', 'asc', { favorite: false }, watched).length, shelf.length - 2);
    assert.deepEqual(titles(index, 'title', 'asc', { favorite: true }, new Map()), [], 'no favourites: none');
    assert.equal(index.facets({ favorite: true }, watched).total, 2);
    const recent = titles(index, 'lastPlayed', 'desc', {}, watched);
    assert.deepEqual(recent.slice(0, 3), ['Amélie', 'Heat', 'Das Boot']);
    assert.deepEqual(
      titles(index, 'lastPlayed', 'asc', {}, watched).slice(0, 3),
      ['Das Boot', 'Heat', 'Amélie'],
      'never played last either way',
    );
    assert.equal(recent.length, shelf.length);
    assert.deepEqual(allPages(index, 'lastPlayed', 'desc', 2, {}, watched), recent);
  });

  it('counts genres, years and letters of what a filter keeps', async () => {
    const index = await build(shelf);
    const facets = index.facets({ yearFrom: 1990 });
    assert.equal(facets.total, 8);
    assert.deepEqual(facets.genres.slice(0, 3), [
      { name: 'Drama', count: 6 },
      { name: 'Comedy', count: 2 },
      { name: 'Action', count: 1 },
    ]);
    assert.deepEqual(
      facets.years.map((y) => y.year),
      [2012, 2009, 2006, 2001, 1999, 1995, 1994, 1993],
    );
    assert.deepEqual(facets.letters, [
      { letter: 'A', count: 1 },
      { letter: 'H', count: 1 },
      { letter: 'L', count: 1 },
      { letter: 'M', count: 3 },
      { letter: 'P', count: 1 },
      { letter: '#', count: 1 },
    ]);
    const all = index.facets({});
    assert.equal(all.total, shelf.length);
    assert.equal(
      all.years.reduce((n, y) => n + y.count, 0),
      shelf.length - 1,
      'Édith has no year',
    );
    assert.equal(all.letters.at(-1)?.letter, '#');
    assert.deepEqual(index.facets({ genres: ['western'] }), { total: 0, genres: [], years: [], letters: [] });
  });

  it('indexes one kind of title at a time', async () => {
    const mixed = [...shelf, show('The Wire'), show('Deadwood')];
    assert.equal((await build(mixed)).size, shelf.length);
    assert.deepEqual(titles(await build(mixed, 'tvshow'), 'title', 'asc'), ['Deadwood', 'The Wire']);
  });

  it('pages through every sort and order, each title once, in the order of one long page', async () => {
    const index = await build(shelf);
    const watched = new Map<string, Watched>([[shelf[3]!.id, { played: true, lastPlayedAt: '2026-03-01T10:00:00.000Z', favorite: false }]]);
    for (const sort of ['added', 'title', 'year', 'rating', 'released', 'lastPlayed'] as const) {
      for (const order of ['asc', 'desc'] as const) {
        for (const limit of [1, 2, 3]) {
          for (const filters of [{}, { genres: ['drama'] }, { letter: 'M' as const }, { letter: '#' as const, yearFrom: 1970 }]) {
            const label = `${sort} ${order} by ${limit}, ${JSON.stringify(filters)}`;
            assert.deepEqual(allPages(index, sort, order, limit, filters, watched), titles(index, sort, order, filters, watched), label);
          }
        }
      }
    }
  });
});

describe('paging while the catalogue changes', () => {
  const arbitrarySpec = fc.record({
    title: fc.constantFrom('The Matrix', 'Matrix', 'Heat', 'Alien', 'Aliens', 'Élan', "L'Argent", '12 Monkeys', 'Zodiac', 'Up', 'Up'),
    year: fc.option(fc.integer({ min: 1990, max: 1995 }), { nil: null }),
    rating: fc.option(fc.constantFrom(5, 6.5, 7), { nil: null }),
    released: fc.option(fc.constantFrom('1990-01-01', '1991-06-01', '1992-02-02'), { nil: null }),
    added: fc.constantFrom('2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'),
  });
  const items = (specs: Array<{ title: string } & Spec>, prefix: string) =>
    specs.map((s, i) => movie(s.title, s, `${prefix}${String(i).padStart(3, '0')}`));

  /** The order the contract describes, written plainly: with a value by (value, year, id), then without by (year, id); desc turns each round. */
  const reference = (list: MovieItem[], sort: Exclude<SortKey, 'lastPlayed'>, order: Order) => {
    const value = (m: MovieItem): number | string | null => {
      if (sort === 'title') {
        const { sortTitle, letter } = filing(m.title);
        return `${letter === '#' ? 'Z~' : letter}${sortTitle}`;
      }
      if (sort === 'added') return Date.parse(m.addedAt);
      if (sort === 'released') return m.metadata?.releaseDate ? Date.parse(m.metadata.releaseDate) : null;
      return sort === 'year' ? m.year : m.rating;
    };
    const by = (a: number | string, b: number | string) => (a < b ? -1 : a > b ? 1 : 0);
    const tie = (a: MovieItem, b: MovieItem) => by(a.year ?? -1, b.year ?? -1) || by(a.id, b.id);
    const sign = order === 'asc' ? 1 : -1;
    const withValue = list.filter((m) => value(m) !== null).sort((a, b) => sign * (by(value(a)!, value(b)!) || tie(a, b)));
    const without = list.filter((m) => value(m) === null).sort((a, b) => sign * tie(a, b));
    return [...withValue, ...without].map((m) => m.id);
  };

  it('orders as the contract says, under every sort and order', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(arbitrarySpec, { maxLength: 30 }), async (specs) => {
        const list = items(specs, 'a');
        const index = await build(list);
        for (const sort of ['added', 'title', 'year', 'rating', 'released'] as const) {
          for (const order of ['asc', 'desc'] as const) {
            assert.deepEqual(
              index.page({ sort, order, limit: 100 }, {}).items.map((i) => i.id),
              reference(list, sort, order),
              `${sort} ${order}`,
            );
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never repeats nor skips a title that was there all along, under any sort, while titles are added', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(arbitrarySpec, { minLength: 1, maxLength: 25 }),
        fc.array(arbitrarySpec, { maxLength: 10 }),
        fc.constantFrom<SortKey>('added', 'title', 'year', 'rating', 'released'),
        fc.constantFrom<Order>('asc', 'desc'),
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 0, max: 5 }),
        async (before, added, sort, order, limit, pagesBefore) => {
          const old = items(before, 'a');
          const first = await build(old);
          const next = await build([...old, ...items(added, 'b')]);
          const seen: string[] = [];
          let after: SortPoint | undefined;
          for (let pages = 0; pages < 200; pages++) {
            const page = (pages < pagesBefore ? first : next).page({ sort, order, limit, after }, {});
            seen.push(...page.items.map((i) => i.id));
            if (!page.next) break;
            after = page.next;
          }
          assert.equal(new Set(seen).size, seen.length, `no title twice: ${seen.join(' ')}`);
          for (const m of old) assert.ok(seen.includes(m.id), `${m.id} (${m.title}) is not skipped`);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('cursors', () => {
  it('refuses a cursor of another list, sort or order, and anything else', () => {
    const good = encodeCursor('movie', 'title', 'asc', { key: 'Mmatrix', year: 1999, id: 'm1' });
    assert.deepEqual(decodeCursor(good, 'movie', 'title', 'asc'), { key: 'Mmatrix', year: 1999, id: 'm1' });
    const refused = (cursor: string, sort: SortKey = 'title', order: Order = 'asc', type: 'movie' | 'tvshow' = 'movie') =>
      assert.throws(
        () => decodeCursor(cursor, type, sort, order),
        (err: AppError) => err.status === 400 && err.code === 'invalid-request',
      );
    refused(good, 'year');
    refused(good, 'title', 'desc');
    refused(good, 'title', 'asc', 'tvshow');
    refused('bm90IGpzb24');
    refused(Buffer.from(JSON.stringify({ t: 'movie', s: 'title', o: 'asc', k: 3, y: null, i: 'm1' })).toString('base64url'));
    refused(Buffer.from(JSON.stringify({ t: 'movie', s: 'rating', o: 'asc', k: 'x', y: null, i: 'm1' })).toString('base64url'), 'rating');
    refused(Buffer.from(JSON.stringify({ t: 'movie', s: 'rating', o: 'asc', k: null, y: 1.5, i: 'm1' })).toString('base64url'), 'rating');
    refused(Buffer.from(JSON.stringify({ t: 'movie', s: 'rating', o: 'asc', k: null, y: null, i: '' })).toString('base64url'), 'rating');
    refused(Buffer.from('null').toString('base64url'));
  });
});
