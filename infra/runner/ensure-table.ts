// Creates the table from lib/db/table.json when it is missing, and adds any index the
// definition gained since the table was created (so a DATA_DIR from an older version
// upgrades in place). Idempotent: safe on every start.
import {
  CreateTableCommand,
  DescribeTableCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { TABLE_DEFINITION } from '../../lib/db/table';

const describe = async (client: DynamoDBClient, name: string) => {
  try {
    return (await client.send(new DescribeTableCommand({ TableName: name }))).Table;
  } catch (err) {
    if ((err as Error).name === 'ResourceNotFoundException') return undefined;
    throw err;
  }
};

export const ensureTable = async (client: DynamoDBClient, tableName: string): Promise<'created' | 'updated' | 'ok'> => {
  const { TimeToLiveSpecification: ttl, ...definition } = TABLE_DEFINITION;
  const existing = await describe(client, tableName);
  if (!existing) {
    try {
      await client.send(new CreateTableCommand({ ...(definition as Omit<CreateTableCommandInput, 'TableName'>), TableName: tableName }));
    } catch (err) {
      // Another process created it first: that is what we wanted.
      if ((err as Error).name !== 'ResourceInUseException') throw err;
    }
    await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
    await client.send(new UpdateTimeToLiveCommand({ TableName: tableName, TimeToLiveSpecification: ttl }));
    return 'created';
  }
  // An index whose projection changed since the table was made is dropped and made again (a
  // projection cannot be altered in place); DynamoDB fills the new one from the table.
  const projectionOf = (p: { ProjectionType?: string; NonKeyAttributes?: string[] } | undefined) =>
    `${p?.ProjectionType}:${[...(p?.NonKeyAttributes ?? [])].sort().join(',')}`;
  const wanted = new Map(definition.GlobalSecondaryIndexes.map((i) => [i.IndexName, projectionOf(i.Projection)]));
  const stale = (existing.GlobalSecondaryIndexes ?? []).filter(
    (i) => wanted.has(i.IndexName!) && wanted.get(i.IndexName!) !== projectionOf(i.Projection),
  );
  for (const index of stale) {
    await client.send(
      new UpdateTableCommand({ TableName: tableName, GlobalSecondaryIndexUpdates: [{ Delete: { IndexName: index.IndexName! } }] }),
    );
    await waitForIndexes(client, tableName, (names) => !names.has(index.IndexName!));
  }
  const have = new Set((existing.GlobalSecondaryIndexes ?? []).filter((i) => !stale.includes(i)).map((i) => i.IndexName));
  const missing = definition.GlobalSecondaryIndexes.filter((i) => !have.has(i.IndexName));
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: definition.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
        GlobalSecondaryIndexUpdates: [{ Create: index as never }],
      }),
    );
    // One index change at a time per table.
    await waitForIndexes(client, tableName, (_names, active) => active.has(index.IndexName));
  }
  return missing.length || stale.length ? 'updated' : 'ok';
};

/** Polls until the table's indexes satisfy `ready` (the names there; the names active). */
const waitForIndexes = async (client: DynamoDBClient, tableName: string, ready: (names: Set<string>, active: Set<string>) => boolean) => {
  for (let i = 0; i < 600; i++) {
    const indexes = (await describe(client, tableName))?.GlobalSecondaryIndexes ?? [];
    const names = new Set(indexes.map((x) => x.IndexName!));
    const active = new Set(indexes.filter((x) => x.IndexStatus === 'ACTIVE').map((x) => x.IndexName!));
    if (ready(names, active)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the indexes of ${tableName} did not become ready`);
};
