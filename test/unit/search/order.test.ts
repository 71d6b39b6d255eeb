import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mostRecentFirst, type Dated } from '../../../lib/search/order';

const ADDED = '2024-05-01T10:00:00.000Z';
const item = (id: string, title: string, year: number | null, addedAt = ADDED): Dated => ({ id, title, year, addedAt });
const ids = (items: Iterable<Dated>) => mostRecentFirst(items).map(({ id }) => id);

describe('mostRecentFirst', () => {
  const rows: [why: string, items: Dated[], expected: string[]][] = [
    [
      'newest year first, no year last',
      [
        item('h1978', 'Halloween', 1978),
        item('hnull', 'Halloween', null),
        item('h2018', 'Halloween', 2018),
        item('h2007', 'Halloween', 2007),
      ],
      ['h2018', 'h2007', 'h1978', 'hnull'],
    ],
    [
      'same year: latest added first, an unreadable date last',
      [
        item('early', 'Dune', 2021, '2022-01-01T00:00:00Z'),
        item('bad', 'Dune', 2021, 'not a date'),
        item('late', 'Dune', 2021, '2023-06-30T12:00:00Z'),
        item('offset', 'Dune', 2021, '2023-07-01T01:00:00+02:00'), // 2023-06-30T23:00Z
      ],
      ['offset', 'late', 'early', 'bad'],
    ],
    [
      'same year and date: title A–Z by its normalised form, accents aside',
      [item('z', 'Zodiac', 2007), item('e', 'Élite', 2007), item('am', 'amélie', 2007), item('al', 'Alien', 2007)],
      ['al', 'am', 'e', 'z'],
    ],
    [
      'the same normalised title: the raw title, then the id',
      [item('b', 'Les Misérables', 2012), item('c', 'Les Miserables', 2012), item('a', 'Les Misérables', 2012)],
      ['c', 'a', 'b'],
    ],
  ];
  for (const [why, items, expected] of rows) {
    it(why, () => assert.deepEqual(ids(items), expected));
  }

  it('does not depend on the order items come in, and leaves the input alone', () => {
    // Distinct ids: the order is total, so a single right answer exists.
    const catalogue = fc.uniqueArray(
      fc.record({
        id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f'),
        title: fc.constantFrom('Amélie', 'Amelie', 'Dune', 'Zodiac', 'Élite'),
        year: fc.option(fc.constantFrom(1999, 2001, 2021), { nil: null }),
        addedAt: fc.constantFrom(ADDED, '2020-01-01T00:00:00Z', 'garbage'),
      }),
      { maxLength: 6, selector: ({ id }) => id },
    );
    fc.assert(
      fc.property(
        catalogue.chain((items) => fc.tuple(fc.constant(items), fc.shuffledSubarray(items, { minLength: items.length }))),
        ([items, shuffled]) => {
          const before = [...items];
          assert.deepEqual(mostRecentFirst(shuffled), mostRecentFirst(items));
          assert.deepEqual(items, before);
        },
      ),
      { numRuns: 1_000 },
    );
  });
});
