// A browsing cursor: the last item's place in its order (its sort value, year and id), never an
// offset, so a page after a scan added titles neither repeats nor skips one. Opaque to clients
// (base64url JSON) and checked when it comes back: it must be of the same list, sort and order.
import { invalidRequest } from '../errors';
import type { MediaKind } from '../library/model';
import type { Order, SortKey, SortPoint } from './model';

interface Wire {
  t: MediaKind;
  s: SortKey;
  o: Order;
  k: number | string | null;
  y: number | null;
  i: string;
}

export const encodeCursor = (type: MediaKind, sort: SortKey, order: Order, point: SortPoint): string =>
  Buffer.from(JSON.stringify({ t: type, s: sort, o: order, k: point.key, y: point.year, i: point.id } satisfies Wire)).toString(
    'base64url',
  );

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The place a cursor names; 400 when it is not one this list, sorted this way, handed out. */
export const decodeCursor = (cursor: string, type: MediaKind, sort: SortKey, order: Order): SortPoint => {
  const bad = () => invalidRequest([{ field: 'query.cursor', message: 'is not a cursor this list handed out with this sort and order' }]);
  let wire: Partial<Wire>;
  try {
    wire = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<Wire>;
  } catch {
    throw bad();
  }
  if (typeof wire !== 'object' || wire === null || wire.t !== type || wire.s !== sort || wire.o !== order) throw bad();
  const { k, y, i } = wire;
  // A title always has a sort title; the other sorts' values are numbers, or null for none.
  const keyFits = sort === 'title' ? typeof k === 'string' : k === null || isNumber(k);
  if (!keyFits || !(y === null || (isNumber(y) && Number.isInteger(y))) || typeof i !== 'string' || i === '') throw bad();
  return { key: k!, year: y, id: i };
};
