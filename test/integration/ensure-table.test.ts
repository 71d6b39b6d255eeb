// Upgrading a DATA_DIR in place: a table made from an older definition (an index missing, an
// index projecting fewer attributes) is brought to the current one on start, items kept.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  waitUntilTableExists,
  type CreateTableCommandInput,
} from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { after, describe, it } from 'node:test';
import { ensureTable } from '../../infra/runner/ensure-table';
import { config } from '../../lib/config';
import { createDb } from '../../lib/db/client';
import { TABLE_DEFINITION } from '../../lib/db/table';

const db = createDb({ ...config.db, tableName: `upgrade-${randomUUID()}` });
after(() => db.raw.send(new DeleteTableCommand({ TableName: db.tableName })).catch(() => undefined));

describe('table upgrade on start', () => {
  it('re-creates an index whose projection changed and adds a missing one, keeping the items', async () => {
    const { TimeToLiveSpecification: _ttl, ...current } = TABLE_DEFINITION;
    const [gsi1, gsi2] = current.GlobalSecondaryIndexes;
    // An older table: gsi2 without the enrichment state, and no gsi1 at all.
    const oldGsi2 = {
      ...gsi2!,
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: gsi2!.Projection.NonKeyAttributes!.filter((a) => a !== 'enrich') },
    };
    const AttributeDefinitions = current.AttributeDefinitions.filter((a) => !a.AttributeName.startsWith('gsi1'));
    await db.raw.send(
      new CreateTableCommand({
        ...(current as Omit<CreateTableCommandInput, 'TableName'>),
        AttributeDefinitions: AttributeDefinitions as never,
        GlobalSecondaryIndexes: [oldGsi2 as never],
        TableName: db.tableName,
      }),
    );
    await waitUntilTableExists({ client: db.raw, maxWaitTime: 30 }, { TableName: db.tableName });
    await db.doc.send(
      new PutCommand({
        TableName: db.tableName,
        Item: {
          pk: 'media#mv_1',
          sk: 'media',
          gsi2pk: 'lib#l1',
          gsi2sk: 'movie#mv_1',
          gsi1pk: 'recent#movie',
          gsi1sk: 'x',
          id: 'mv_1',
          entity: 'movie',
          enrich: 'metadata',
        },
      }),
    );

    assert.equal(await ensureTable(db.raw, db.tableName), 'updated');
    const table = (await db.raw.send(new DescribeTableCommand({ TableName: db.tableName }))).Table!;
    const byName = new Map(table.GlobalSecondaryIndexes!.map((i) => [i.IndexName, i]));
    assert.deepEqual([...byName.keys()].sort(), [gsi1!.IndexName, gsi2!.IndexName].sort());
    assert.ok(byName.get('gsi2')!.Projection!.NonKeyAttributes!.includes('enrich'));
    const found = await db.doc.send(
      new QueryCommand({
        TableName: db.tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :p',
        ExpressionAttributeValues: { ':p': 'lib#l1' },
      }),
    );
    assert.deepEqual(
      found.Items!.map((i) => i.enrich),
      ['metadata'],
    );
    assert.equal(await ensureTable(db.raw, db.tableName), 'ok');
  });
});
