import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filtersOf, isBrowsing, sortOf } from '../../../lib/browse/query';
import { type AppError } from '../../../lib/errors';

describe("a list request's browsing parameters", () => {
  it("leaves a request with only the recent list's parameters to the recent list", () => {
    assert.equal(isBrowsing({ limit: 10, cursor: 'x', profileId: 'default', matched: false }), false);
    for (const extra of [
      { sort: 'added' as const },
      { order: 'desc' as const },
      { genre: 'Drama' },
      { yearTo: 1999 },
      { letter: 'M' as const },
      { played: false },
      { favorite: true },
      { libraryId: 'l1' },
      { collectionId: 10 },
    ]) {
      assert.equal(isBrowsing({ limit: 10, ...extra }), true, JSON.stringify(extra));
    }
  });

  it('reads every genre from the raw query string, commas and all, else splits the joined value', () => {
    // API Gateway's parsed parameters join a repeated one with commas.
    assert.deepEqual(filtersOf({ genre: 'Drama,Action & Adventure' }, 'genre=Drama&genre=Action+%26+Adventure&limit=2').genres, [
      'Drama',
      'Action & Adventure',
    ]);
    assert.deepEqual(filtersOf({ genre: 'Drama,Comedy, Romance' }, 'genre=Drama&genre=Comedy%2C%20Romance').genres, [
      'Drama',
      'Comedy, Romance',
    ]);
    assert.deepEqual(filtersOf({ genre: 'Drama,Crime' }, undefined).genres, ['Drama', 'Crime']);
    assert.equal(filtersOf({}, 'limit=2').genres, undefined);
  });

  it('refuses a year range that ends before it starts, naming yearTo', () => {
    assert.deepEqual(filtersOf({ yearFrom: 1990, yearTo: 1990 }, undefined).yearTo, 1990);
    assert.throws(
      () => filtersOf({ yearFrom: 2000, yearTo: 1990 }, undefined),
      (err: AppError) => err.status === 400 && err.fields?.[0]?.field === 'query.yearTo',
    );
  });

  it('orders titles A to Z by default, everything else newest, best or latest first', () => {
    assert.deepEqual(sortOf({}), { sort: 'added', order: 'desc' });
    assert.deepEqual(sortOf({ sort: 'title' }), { sort: 'title', order: 'asc' });
    assert.deepEqual(sortOf({ sort: 'rating' }), { sort: 'rating', order: 'desc' });
    assert.deepEqual(sortOf({ sort: 'title', order: 'desc' }), { sort: 'title', order: 'desc' });
  });
});
