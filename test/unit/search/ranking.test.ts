import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bare, FIELDS, PERSON, rankOf, RANKS, TYPO_ONE, TYPO_WORDS, yearIn, type Level } from '../../../lib/search/ranking';

const LEVELS: Level[] = [0, 1, 2, 3, 4, 5];
const ALL = LEVELS.flatMap((level) =>
  FIELDS.map((_, field) => field).flatMap((field) =>
    [true, false].map((named) => ({ level, field, named, rank: rankOf(level, field, named) })),
  ),
);

describe('rankOf', () => {
  it('gives every rank between 1 and RANKS', () => {
    for (const { rank } of ALL) assert.ok(rank >= 1 && rank <= RANKS, String(rank));
  });

  it('puts any match as typed before any match with typos', () => {
    const typed = ALL.filter((r) => r.level < TYPO_ONE).map((r) => r.rank);
    const typos = ALL.filter((r) => r.level >= TYPO_ONE).map((r) => r.rank);
    assert.ok(Math.max(...typed) < Math.min(...typos));
  });

  it('puts titles before people at the same typo-ness, and a named year before the level', () => {
    assert.ok(rankOf(2, 2, false) < rankOf(0, PERSON, true), 'an alternative title in any order before a person exactly');
    assert.ok(rankOf(2, 0, true) < rankOf(0, 0, false), 'the year named first');
    assert.ok(rankOf(TYPO_WORDS, 0, false) < rankOf(TYPO_ONE, PERSON, true), 'with typos too');
  });

  it("ranks the fields of titles in order at one level, and all of a person's alike", () => {
    assert.ok(rankOf(0, 0, false) < rankOf(0, 1, false) && rankOf(0, 1, false) < rankOf(0, 2, false));
  });
});

describe('yearIn and bare', () => {
  it('reads four digits from 1870 to a few years ahead as a year', () => {
    assert.deepEqual(['1995', '1869', '0042', '12345', 'abcd'].map(yearIn), [1995, undefined, undefined, undefined, undefined]);
  });

  it('leaves out a leading article only when more words follow it', () => {
    assert.deepEqual([bare(['the', 'matrix']), bare(['the']), bare(['dark', 'knight'])], ['matrix', 'the', 'darkknight']);
  });
});
