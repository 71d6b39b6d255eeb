// Film collections ("The Godfather Collection"), one item each, keyed by the provider's
// collection id (never by name): its name, overview, pictures and every part the provider
// lists, owned or not. Films point at one through `metadata.collection`; the scan's metadata
// phase stores a collection the first time one of its films is described, and again once its
// copy is older than COLLECTION_TTL_SECONDS, so the parts are asked for once per collection,
// not once per film. Which films are here is never stored on it: that is read from the films.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type { ArtworkSet } from '../artwork/model';
import type { Pictured } from '../artwork/service';
import { batchGet } from '../db/batch';
import { guarded, type Db } from '../db/client';
import { keys } from '../db/table';
import type { CollectionPart } from '../metadata/provider';
import type { CatalogStore } from './store';

export interface StoredCollection {
  /** The provider's collection id. */
  id: number;
  name: string;
  overview: string | null;
  /** Every film the provider lists in it, in the provider's order. */
  parts: CollectionPart[];
  /** The provider's picture paths as last fetched; null when it has none. */
  posterPath: string | null;
  backdropPath: string | null;
  /** Stored in the artwork cache under collectionArtworkId(id). */
  artwork: ArtworkSet;
  /** ISO time the provider was last asked. */
  fetchedAt: string;
}

/**
 * The id a collection's pictures go by in the artwork cache and the artwork endpoint: never a
 * catalogue id (those start mv_, tv_, ep_), so the endpoint can tell what to look up.
 */
export const collectionArtworkId = (tmdbCollectionId: number) => `co_${tmdbCollectionId}`;

/** The collection id of an artwork id collectionArtworkId made, else undefined. */
export const collectionOfArtworkId = (id: string): number | undefined => {
  const match = /^co_([1-9][0-9]{0,14})$/.exec(id);
  return match ? Number(match[1]) : undefined;
};

export interface CollectionStore {
  /** Those of `ids` that are stored. */
  getMany(ids: readonly number[]): Promise<Map<number, StoredCollection>>;
  /** Writes it whole. */
  put(collection: StoredCollection): Promise<void>;
}

const fromRow = ({ pk: _pk, sk: _sk, ...row }: Record<string, unknown>) => row as unknown as StoredCollection;

export class DynamoCollectionStore implements CollectionStore {
  constructor(private readonly db: () => Db) {}

  async getMany(ids: readonly number[]): Promise<Map<number, StoredCollection>> {
    const rows = await batchGet(
      this.db(),
      ids.map((id) => keys.collection(id)),
    );
    return new Map(rows.map((row) => [Number(row.id), fromRow(row)]));
  }

  async put(collection: StoredCollection): Promise<void> {
    const { doc, tableName } = this.db();
    await guarded(() => doc.send(new PutCommand({ TableName: tableName, Item: { ...keys.collection(collection.id), ...collection } })));
  }
}

/** What the artwork endpoint looks pictures up in: a collection's by its artwork id, else the catalogue item's. */
export const picturedIn = (catalog: Pick<CatalogStore, 'get'>, collections: CollectionStore) => ({
  async get(id: string): Promise<Pictured | undefined> {
    const collectionId = collectionOfArtworkId(id);
    if (collectionId === undefined) return catalog.get(id);
    const stored = (await collections.getMany([collectionId])).get(collectionId);
    return stored && { id, entity: 'collection', artwork: stored.artwork };
  },
});
