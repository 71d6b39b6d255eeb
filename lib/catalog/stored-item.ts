// A catalogue item as the one table stores it: its own attributes, and the keys that place it
// on the indexes (lib/db/table.ts), which readers never see.
import { keys } from '../db/table';
import type { CatalogItem } from './model';

const TABLE_ATTRIBUTES = ['pk', 'sk', 'gsi1pk', 'gsi1sk', 'gsi2pk', 'gsi2sk'] as const;

/** An item read from the table, without its keys. */
export const strip = <T>(item: Record<string, unknown>): T => {
  const copy = { ...item };
  for (const a of TABLE_ATTRIBUTES) delete copy[a];
  return copy as T;
};

/** An item with its keys: by id, on the recent index (a show's episodes in order, for an episode) and on its library's index. */
export const stored = (item: CatalogItem) => ({
  ...keys.media(item.id),
  ...(item.entity === 'episode'
    ? keys.episodeOrder(item.showId, item.seasonNumber, item.episodeNumber, item.id)
    : keys.recent(item.entity, item.addedAt, item.id)),
  ...keys.libraryMember(item.libraryId, item.entity, item.id),
  ...item,
});

/** The recent index of a kind, only the titles the provider described (or not: never asked, or no match with confidence). */
export const matchedFilter = (pk: string, matched: boolean) => ({
  KeyConditionExpression: 'gsi1pk = :pk',
  FilterExpression: matched ? '#m.#matched = :yes' : 'attribute_not_exists(#m.#matched) OR #m.#matched = :no',
  ExpressionAttributeNames: { '#m': 'metadata', '#matched': 'matched' },
  ExpressionAttributeValues: { ':pk': pk, ...(matched ? { ':yes': true } : { ':no': false }) },
});
