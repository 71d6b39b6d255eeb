// The names of tables of a test's own (test/support/own-table.ts), in a module that loads no
// configuration, so test/support/own-process-table.ts can name one before lib/config is read.
import { randomUUID } from 'node:crypto';

export const OWN_TABLE_PREFIX = 'own-';

/** A fresh table name for `label` (letters, digits, dashes), never the stack's. */
export const ownTableName = (label: string) => `${OWN_TABLE_PREFIX}${label.replace(/[^A-Za-z0-9-]/g, '-').slice(0, 40)}-${randomUUID()}`;
