// Profiles in the one table (the access patterns are listed in lib/db/table.ts), oldest first
// on gsi1; each name is claimed by an item of its own, written in the same transaction as its
// profile, so two profiles never share one.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { batchWrite, type Write } from '../db/batch';
import { guarded, queryItems, type Db } from '../db/client';
import { keys } from '../db/table';
import { DEFAULT_PROFILE, NameTaken, type Profile } from './model';
import type { ProfileStore } from './watch-store';

const toProfile = (row: Record<string, unknown>): Profile => ({
  id: String(row.id),
  name: String(row.name),
  createdAt: String(row.createdAt),
});

export class DynamoProfileStore implements ProfileStore {
  constructor(private readonly db: () => Db) {}

  /** Oldest first, the household's first (it is kept only once renamed). */
  async profiles(): Promise<Profile[]> {
    const { index, pk } = keys.profilesIndex();
    const found: Profile[] = [];
    for await (const row of queryItems(this.db(), {
      IndexName: index,
      KeyConditionExpression: 'gsi1pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
    }))
      found.push(toProfile(row));
    return found.some((p) => p.id === DEFAULT_PROFILE.id) ? found : [DEFAULT_PROFILE, ...found];
  }

  async profile(id: string): Promise<Profile | undefined> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.profile(id) })));
    if (out.Item) return toProfile(out.Item);
    return id === DEFAULT_PROFILE.id ? DEFAULT_PROFILE : undefined;
  }

  /** A new profile, or `previous` renamed: the name is claimed in the same transaction, so two never share one. */
  async save(profile: Profile, previous?: Profile): Promise<void> {
    const { doc, tableName } = this.db();
    const sameName = previous && keys.profileName(previous.name).pk === keys.profileName(profile.name).pk;
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      {
        Put: {
          TableName: tableName,
          Item: { ...keys.profile(profile.id), ...keys.profilesByAge(profile.createdAt, profile.id), entity: 'profile', ...profile },
        },
      },
    ];
    if (!sameName) {
      items.push({
        Put: {
          TableName: tableName,
          Item: { ...keys.profileName(profile.name), entity: 'profile-name', profileId: profile.id },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      // The household's first name is never stored: nothing to free.
      if (previous && (previous !== DEFAULT_PROFILE || (await this.nameHeld(previous.name))))
        items.push({ Delete: { TableName: tableName, Key: keys.profileName(previous.name) } });
    }
    try {
      await guarded(() => doc.send(new TransactWriteCommand({ TransactItems: items })));
    } catch (err) {
      if ((err as Error).name === 'TransactionCanceledException') throw new NameTaken(profile.name);
      throw err;
    }
  }

  /** Whether a name is taken (the household's first name counts as taken while it has it). */
  async nameHeld(name: string): Promise<boolean> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.profileName(name) })));
    return out.Item !== undefined;
  }

  /** The profile, its name and all of its state. */
  async removeProfile(profile: Profile): Promise<void> {
    const writes: Write[] = [{ delete: keys.profile(profile.id) }, { delete: keys.profileName(profile.name) }];
    const { pk } = keys.userDataOfProfile(profile.id);
    for await (const row of queryItems(this.db(), {
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'pk, sk',
    })) {
      writes.push({ delete: { pk: String(row.pk), sk: String(row.sk) } });
    }
    await batchWrite(this.db(), writes);
  }
}
