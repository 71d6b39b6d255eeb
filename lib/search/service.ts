// Search over the catalogue from an in-memory index, built once per catalogue the process holds
// (lib/catalog/snapshot.ts): a query is a walk over precomputed tokens, and at home asks the
// database nothing.
import type { Static } from '@sinclair/typebox';
import type { SearchHit } from '../api/schemas';
import type { TitledItem } from '../catalog/model';
import type { MediaKind } from '../library/model';
import type { CatalogStore } from '../catalog/store';
import { derived, snapshotOf } from '../catalog/snapshot';
import { toEntry } from '../views/entry';
import { SearchIndex, type Searchable } from './index';

type Entry = Searchable & { item: TitledItem };

/** Cast members a search finds an item by: the leads people remember, not the whole billing. */
const SEARCHED_CAST = 5;

/** The people an item is found by: its directors (a show's creators), then its first billed cast. */
const peopleOf = (item: TitledItem): string[] => {
  const m = item.metadata;
  if (!m) return [];
  return [...(item.entity === 'movie' ? m.directors : m.creators), ...m.cast.slice(0, SEARCHED_CAST).map((c) => c.name)];
};

const searchIndex = derived(async ({ items }) => {
  const entries: Entry[] = [];
  // The same items as the watch rows read: kept once per process, the index once per catalogue.
  for (const item of items) {
    entries.push({
      id: item.id,
      type: item.entity,
      title: item.title,
      originalTitle: item.originalTitle,
      year: item.year,
      addedAt: item.addedAt,
      alternativeTitles: item.metadata?.alternativeTitles ?? [],
      people: peopleOf(item),
      item,
    });
  }
  return SearchIndex.build(entries);
});

export const searchCatalog = async (
  catalog: CatalogStore,
  query: string,
  opts: { type?: MediaKind | undefined; limit: number; origin: string },
): Promise<Static<typeof SearchHit>[]> => {
  const index = await snapshotOf(catalog).derive(searchIndex, undefined);
  return index
    .search(query, { ...(opts.type ? { type: opts.type } : {}), limit: opts.limit })
    .map(({ item: { item }, matchedOn, matchedText }) => ({ ...toEntry(item, opts.origin), matchedOn, matchedText }));
};
