// Libraries in the one table. A library and its path are written in one transaction, so two
// racing creates of the same folder cannot both succeed.
import { GetCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import { libraryExists } from '../errors';
import type { Library, LibraryCounts } from './model';

export interface LibraryStore {
  /** Saves a new library with its path; 409 library-exists when the path is taken (also by a racing create). */
  create(library: Library): Promise<void>;
  get(id: string): Promise<Library | undefined>;
  /** Oldest first. */
  list(): Promise<Library[]>;
  /** Records what a finished scan found; a library deleted meanwhile stays deleted. */
  recordScan(id: string, counts: LibraryCounts, at: string): Promise<void>;
  /** Removes the library and frees its path. */
  remove(library: Library): Promise<void>;
}

const toLibrary = (item: Record<string, unknown>): Library => {
  const { pk: _p, sk: _s, gsi1pk: _g, gsi1sk: _h, entity: _e, ...library } = item;
  return library as unknown as Library;
};

export class DynamoLibraryStore implements LibraryStore {
  constructor(private readonly db: () => Db) {}

  async create(library: Library): Promise<void> {
    const { doc, tableName } = this.db();
    try {
      await guarded(() =>
        doc.send(
          new TransactWriteCommand({
            TransactItems: [
              {
                Put: {
                  TableName: tableName,
                  Item: { ...keys.library(library.id), ...keys.librariesByAge(library.createdAt, library.id), entity: 'library', ...library },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
              {
                Put: {
                  TableName: tableName,
                  Item: { ...keys.libraryPath(library.path), entity: 'library-path', libraryId: library.id },
                  ConditionExpression: 'attribute_not_exists(pk)',
                },
              },
            ],
          }),
        ),
      );
    } catch (err) {
      if ((err as Error).name === 'TransactionCanceledException') throw libraryExists(library.path, library.path);
      throw err;
    }
  }

  async get(id: string): Promise<Library | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.library(id), ConsistentRead: true })));
    return out.Item ? toLibrary(out.Item) : undefined;
  }

  /** Oldest first. */
  async list(): Promise<Library[]> {
    const { index, pk } = keys.librariesIndex();
    const libraries: Library[] = [];
    for await (const item of queryItems(this.db(), { IndexName: index, KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': pk } })) {
      libraries.push(toLibrary(item));
    }
    return libraries;
  }

  /** Records what a finished scan found; a library deleted meanwhile stays deleted. */
  async recordScan(id: string, counts: LibraryCounts, at: string): Promise<void> {
    const { doc, tableName } = this.db();
    try {
      await guarded(() =>
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.library(id),
            UpdateExpression: 'SET #counts = :counts, lastScannedAt = :at',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#counts': 'counts' },
            ExpressionAttributeValues: { ':counts': counts, ':at': at },
          }),
        ),
      );
    } catch (err) {
      if ((err as Error).name !== 'ConditionalCheckFailedException') throw err;
    }
  }

  async remove(library: Library): Promise<void> {
    const { doc, tableName } = this.db();
    await guarded(() =>
      doc.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: tableName, Key: keys.library(library.id) } },
            { Delete: { TableName: tableName, Key: keys.libraryPath(library.path) } },
          ],
        }),
      ),
    );
  }
}
