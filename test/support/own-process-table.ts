// Imported first (before anything that loads lib/config) by a test file whose code under test
// uses the process's default table, such as handlers built on lib/deps.ts: it points that
// table (TABLE_NAME) at a fresh name, which the file then creates and deletes with
// `ownTable(label, config.db.tableName)` (test/support/own-table.ts). Only TABLE_NAME changes:
// the database is still the test run's DynamoDB Local, and the stack's own processes keep theirs.
import { ownTableName } from './own-table-name';

process.env.TABLE_NAME = ownTableName('process');
