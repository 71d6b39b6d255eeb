import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Value } from '@sinclair/typebox/value';
import { Id, isId } from '../../../lib/api/schemas/common';

describe('isId', () => {
  const rows: [value: string, why: string][] = [
    ['abc123', 'letters and digits'],
    ['a_b-C', "'_' and '-'"],
    ['x'.repeat(128), 'the longest'],
    ['x'.repeat(129), 'one too long'],
    ['', 'empty'],
    ['a/b', 'a slash'],
    ['..', 'dots'],
    ['é', 'a letter outside ASCII'],
    ['a\n', 'a line break at the end'],
  ];
  for (const [value, why] of rows) {
    it(`agrees with the Id schema on ${JSON.stringify(value.length > 20 ? `${value.slice(0, 5)}... (${value.length})` : value)}: ${why}`, () =>
      assert.equal(isId(value), Value.Check(Id, value)));
  }
});
