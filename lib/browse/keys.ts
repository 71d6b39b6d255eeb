// The values titles are ordered by, read from the item itself: the index sorts by them once when
// it is built, and a cursor's place is found again by comparing them with a few items (a binary
// search), so the index keeps no copy of them.
import type { TitledItem } from '../catalog/model';
import { filing, type Letter } from '../text/sort-title';
import { ascending } from '../util/order';
import type { SortPoint, StoredSort } from './model';

/** Milliseconds of an ISO date or time; null when there is none or it does not parse. */
export const timeOf = (text: string | null | undefined): number | null => {
  const ms = text ? Date.parse(text) : NaN;
  return Number.isNaN(ms) ? null : ms;
};

// "[" follows "Z" in code-unit order: titles under '#' come after Z, as the letters are listed.
const letterMark = (letter: Letter) => (letter === '#' ? '[' : letter);

/** The title's letter, then its sort title: one string to compare (lib/text/sort-title.ts). */
export const titleKey = (title: string): string => {
  const { sortTitle, letter } = filing(title);
  return letterMark(letter) + sortTitle;
};

/** The letter a title key files under. */
export const letterOfKey = (key: string): Letter => (key[0] === '[' ? '#' : (key[0] as Letter));

/** An item's value for a sort; null when it has none (it then comes last, in either order). */
export const keyOf = (sort: StoredSort, item: TitledItem): number | string | null => {
  switch (sort) {
    case 'added':
      return timeOf(item.addedAt);
    case 'title':
      return titleKey(item.title);
    case 'year':
      return item.year;
    case 'rating':
      return item.rating;
    case 'released':
      return timeOf(item.metadata?.releaseDate);
  }
};

/** Two values of one sort: numbers by value, title keys by code unit. */
export const compareKeys = (a: number | string, b: number | string): number =>
  typeof a === 'number' && typeof b === 'number' ? a - b : ascending(String(a), String(b));

/** Years as ties are broken by: no year before any (it is the lowest). */
export const tieYear = (year: number | null): number => year ?? -Infinity;

/**
 * An item against a place in an order, ascending: its value (when both have one), its year,
 * its id. Items without a value are compared by year and id alone.
 */
export const compareToPoint = (key: number | string | null, year: number | null, id: string, point: SortPoint): number => {
  const byKey = key !== null && point.key !== null ? compareKeys(key, point.key) : 0;
  return byKey || ascending(tieYear(year), tieYear(point.year)) || ascending(id, point.id);
};
