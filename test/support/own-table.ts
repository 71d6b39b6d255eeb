// A table of a test file's own on the test run's DynamoDB Local, made from the project's one
// table definition by the same code that makes the service's table (infra/ensure-table.ts),
// so store adapters built on it see only what the test wrote: lists and totals can be asserted
// whole. The shared stack's table is never one of these: a name this module did not make, or
// a table that already existed, is refused rather than created, adopted or deleted.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { after, before } from 'node:test';
import { ensureTable } from '../../infra/runner/ensure-table';
import { config } from '../../lib/config';
import { createDb, type Db } from '../../lib/db/client';
import { OWN_TABLE_PREFIX, ownTableName } from './own-table-name';

export interface OwnTable {
  name: string;
  /** The connection to the table, in the shape store adapters take (`new DynamoCatalogStore(table.db)`). */
  db: () => Db;
}

/**
 * A fresh table for the tests of the current file, or of the `describe` it is called in:
 * created before them, deleted after them (items and all). `name` is for a file whose handlers
 * use the process's default table (lib/deps.ts): test/support/own-process-table.ts names it.
 */
export const ownTable = (label: string, name = ownTableName(label)): OwnTable => {
  if (!name.startsWith(OWN_TABLE_PREFIX))
    throw new Error(`${name} is not a table of a test's own (import test/support/own-process-table.ts before lib/config)`);
  if (!config.db.endpoint) throw new Error('DYNAMODB_ENDPOINT is not set: run the tests through `npm test`');
  const db = createDb({ ...config.db, tableName: name });
  let created = false;
  before(async () => {
    const outcome = await ensureTable(db.raw, name);
    if (outcome !== 'created') throw new Error(`table ${name} already existed: it is not this test's own`);
    created = true;
  });
  after(async () => {
    if (created) await db.raw.send(new DeleteTableCommand({ TableName: name }));
    db.raw.destroy();
  });
  return { name, db: () => db };
};
