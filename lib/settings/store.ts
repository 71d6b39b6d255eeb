// The settings port and its DynamoDB adapter. Writes are optimistic: each carries the
// version it read, so two clients patching at once never lose each other's change.
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, isConditionFailed, type Db } from '../db/client';
import { keys } from '../db/table';
import { DEFAULT_SETTINGS, type StoredSettings } from './model';

export interface Versioned<T> {
  value: T;
  version: number;
}

export interface SettingsStore {
  read(): Promise<Versioned<StoredSettings>>;
  /** Writes if the stored version is still `expectedVersion`; false when someone else wrote first. */
  write(value: StoredSettings, expectedVersion: number): Promise<boolean>;
}

export class DynamoSettingsStore implements SettingsStore {
  constructor(private readonly db: () => Db) {}

  async read(): Promise<Versioned<StoredSettings>> {
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.settings(), ConsistentRead: true })));
    if (!out.Item) return { value: DEFAULT_SETTINGS, version: 0 };
    const item = out.Item as Partial<StoredSettings> & { version: number };
    // Defaults fill fields that later versions of the service added.
    return {
      version: item.version,
      value: {
        tmdbApiKey: item.tmdbApiKey ?? null,
        language: item.language ?? DEFAULT_SETTINGS.language,
        features: { ...DEFAULT_SETTINGS.features, ...item.features },
        preferences: {
          ...DEFAULT_SETTINGS.preferences,
          ...item.preferences,
          playback: { ...DEFAULT_SETTINGS.preferences.playback, ...item.preferences?.playback },
        },
      },
    };
  }

  async write(value: StoredSettings, expectedVersion: number): Promise<boolean> {
    const { doc, tableName } = this.db();
    const isFirstWrite = expectedVersion === 0;
    try {
      await guarded(() =>
        doc.send(
          new PutCommand({
            TableName: tableName,
            Item: { ...keys.settings(), entity: 'settings', ...value, version: expectedVersion + 1 },
            ConditionExpression: isFirstWrite ? 'attribute_not_exists(pk)' : '#version = :expected',
            ...(isFirstWrite
              ? {}
              : { ExpressionAttributeNames: { '#version': 'version' }, ExpressionAttributeValues: { ':expected': expectedVersion } }),
          }),
        ),
      );
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }
}
