// Pages of the recent lists and their cursors: a page's last key, opaque to clients and checked
// when it comes back. The store's pages (a Query of the recent index) and the pages the process
// cut from the catalogue it holds (lib/views/recent.ts) hand out and take the same cursors.
import { keys } from '../db/table';
import { invalidRequest } from '../errors';
import type { MediaKind } from '../library/model';
import { firstWhere } from '../util/first-where';
import type { TitledItem } from './model';

export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** Cursors are the page's last key, opaque to clients and checked when they come back. */
export const encodeCursor = (key: Record<string, unknown> | undefined) =>
  key ? Buffer.from(JSON.stringify(key)).toString('base64url') : null;

export const decodeCursor = (cursor: string, indexPk: string): Record<string, string> => {
  const bad = () => invalidRequest([{ field: 'query.cursor', message: 'is not a cursor this list handed out' }]);
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw bad();
  }
  const k = key as Record<string, unknown>;
  const shape = ['pk', 'sk', 'gsi1pk', 'gsi1sk'];
  if (
    typeof key !== 'object' ||
    key === null ||
    Object.keys(k).length !== shape.length ||
    !shape.every((a) => typeof k[a] === 'string') ||
    k.gsi1pk !== indexPk
  ) {
    throw bad();
  }
  return k as Record<string, string>;
};

/**
 * A page of the recent list held in memory (lib/views/recent.ts), with cursors the store's own
 * pages take too: `titles` newest first, as the recent index lists them.
 */
export const recentPageOf = (titles: readonly TitledItem[], type: MediaKind, limit: number, cursor?: string): Page<TitledItem> => {
  const { pk } = keys.recentIndex(type);
  const sortKey = (item: TitledItem) => keys.recent(type, item.addedAt, item.id).gsi1sk;
  let start = 0;
  if (cursor) {
    const after = decodeCursor(cursor, pk).gsi1sk!;
    // Newest first: the first title whose key sorts before the cursor's.
    start = firstWhere(titles, (title) => sortKey(title) < after);
  }
  const items = titles.slice(start, start + limit);
  const last = items.at(-1);
  const more = start + limit < titles.length && last;
  return { items, nextCursor: more ? encodeCursor({ ...keys.media(last.id), ...keys.recent(type, last.addedAt, last.id) }) : null };
};
