import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TokenTable } from '../../../lib/search/token-table';

const entries = [
  ['spider', 'man', 'spiderman'], // 0
  ['spirited', 'away'], // 1
  ['the', 'dark', 'knight'], // 2
  ['dark'], // 3
  ['москва'], // 4
  ['千と千尋', '千尋'], // 5
  [], // 6: an entry with no tokens
];

// The entries holding a token with the prefix, each once, the slow way.
const holding = (table: readonly (readonly string[])[], prefix: string) =>
  table.flatMap((tokens, entry) => (tokens.some((token) => token.startsWith(prefix)) ? [entry] : []));

const distinctEntries = (table: TokenTable, prefix: string) => [...new Set(table.entriesIn(table.range(prefix)))].sort((a, b) => a - b);

describe('TokenTable', () => {
  const table = new TokenTable(entries);
  const rows: [prefix: string, entries: number[], postings: number][] = [
    ['s', [0, 1], 3], // spider, spiderman, spirited
    ['spi', [0, 1], 3],
    ['spider', [0], 2],
    ['spiderm', [0], 1],
    ['dark', [2, 3], 2],
    ['d', [2, 3], 2],
    ['k', [2], 1],
    ['москва', [4], 1],
    ['千', [5], 2],
    ['尋', [], 0], // a prefix, not a substring
    ['z', [], 0],
    ['spidermann', [], 0],
    ['', [0, 1, 2, 3, 4, 5], 12], // every token
  ];
  for (const [prefix, expected, postings] of rows) {
    it(`finds the entries with a token starting with ${JSON.stringify(prefix)}`, () => {
      const range = table.range(prefix);
      assert.deepEqual(distinctEntries(table, prefix), expected);
      assert.equal(table.count(range), postings);
      for (let entry = 0; entry < entries.length; entry++) assert.equal(table.holds(entry, range), expected.includes(entry));
    });
  }

  it('agrees with a scan of every token, on any tokens and prefix', () => {
    const token = fc.string({ unit: fc.constantFrom('a', 'b', 'ab', 'é', 'ж', '千', '\uD83D\uDE00'), maxLength: 5 });
    const tokenLists = fc.array(
      fc.uniqueArray(
        token.filter((t) => t !== ''),
        { maxLength: 6 },
      ),
      { maxLength: 12 },
    );
    fc.assert(
      fc.property(tokenLists, token, (lists, prefix) => {
        const built = new TokenTable(lists);
        const expected = holding(lists, prefix);
        assert.deepEqual(distinctEntries(built, prefix), expected);
        const range = built.range(prefix);
        lists.forEach((_, entry) => assert.equal(built.holds(entry, range), expected.includes(entry)));
        const postings = lists.reduce((sum, tokens) => sum + tokens.filter((t) => t.startsWith(prefix)).length, 0);
        assert.equal(built.count(range), postings);
      }),
      { numRuns: 2_000 },
    );
  });
});
