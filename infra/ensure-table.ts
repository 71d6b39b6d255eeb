// Creates the table from infra/table.json when it is missing, and adds any index the
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
import { TABLE_DEFINITION } from '../lib/db/table';

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
  const have = new Set((existing.GlobalSecondaryIndexes ?? []).map((i) => i.IndexName));
  const missing = definition.GlobalSecondaryIndexes.filter((i) => !have.has(i.IndexName));
  for (const index of missing) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: definition.AttributeDefinitions as CreateTableCommandInput['AttributeDefinitions'],
        GlobalSecondaryIndexUpdates: [{ Create: index as never }],
      }),
    );
  }
  return missing.length ? 'updated' : 'ok';
};
