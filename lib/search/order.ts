// The order matches of the same level come back in, fixed once when the index is built so a search
// only compares positions. Total, so results never depend on the order items were given in.
import { normalize } from '../text/normalize';
import { ascending } from '../util/order';

export interface Dated {
  readonly id: string;
  readonly title: string;
  readonly year: number | null;
  /** ISO 8601; an unreadable date sorts as the oldest. */
  readonly addedAt: string;
}

interface Keyed<T> {
  readonly item: T;
  readonly year: number;
  readonly added: number;
  readonly title: string;
}

/** Newest year first (no year last), then latest added, then title A–Z (normalised), then id. */
export function mostRecentFirst<T extends Dated>(items: Iterable<T>): T[] {
  const keyed: Keyed<T>[] = Array.from(items, (item) => ({
    item,
    year: orLast(item.year ?? NaN),
    added: orLast(Date.parse(item.addedAt)),
    title: normalize(item.title),
  }));
  keyed.sort(
    (a, b) =>
      descending(a.year, b.year) ||
      descending(a.added, b.added) ||
      ascending(a.title, b.title) ||
      ascending(a.item.title, b.item.title) ||
      ascending(a.item.id, b.item.id),
  );
  return keyed.map(({ item }) => item);
}

// Descending puts -Infinity last: no year, or an unreadable date.
const orLast = (value: number) => (Number.isNaN(value) ? -Infinity : value);

const descending = (a: number, b: number) => ascending(b, a);
