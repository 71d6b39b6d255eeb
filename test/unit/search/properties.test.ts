import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DEFAULT_LIMIT, SearchIndex, tokenize, type SearchOptions, type Searchable } from '../../../lib/search';
import { editsFor } from '../../../lib/search/fuzzy';
import { mostRecentFirst } from '../../../lib/search/order';
import { titleTokens } from '../../../lib/search/tokens';

const ARTICLES = ['the', 'a', 'an', 'le', 'la', 'les', 'l', 'el', 'los', 'las', 'der', 'die', 'das', 'il', 'lo', 'gli'];

/**
 * Optimal string alignment distances (edits, with a swap of neighbours as one) from `a` to each
 * start of `b`, `b.slice(0, n)` at index n: a column of the table depends only on those before it.
 */
const distances = (a: string, b: string): number[] => {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]!;
};

/** Remembered: the oracle asks about the same few titles' words thousands of times. */
const memo = <T>(compute: (key: string) => T) => {
  const known = new Map<string, T>();
  return (key: string): T => {
    let value = known.get(key);
    if (value === undefined) known.set(key, (value = compute(key)));
    return value;
  };
};
const distancesOf = memo((pair) => {
  const [a, b] = pair.split('\u0000') as [string, string];
  return distances(a, b);
});
/** From `a` to each start of `b`. */
const toStarts = (a: string, b: string) => distancesOf(`${a}\u0000${b}`);
const osa = (a: string, b: string) => toStarts(a, b).at(-1)!;
const tokensOf = memo(tokenize);
const titleTokensOf = memo(titleTokens);

/** Whether a token is within the word's edits: the whole token, or for the last word any start of it. */
const near = (word: string, token: string, last: boolean) => {
  const edits = editsFor(word);
  if (edits === 0) return false;
  return last ? Math.min(...toStarts(word, token)) <= edits : osa(word, token) <= edits;
};

const FIELDS = ['title', 'originalTitle', 'alternativeTitle', 'person'] as const;
type Field = (typeof FIELDS)[number];
const textsOf = (item: Searchable): [Field, string | null][] => [
  ['title', item.title],
  ['originalTitle', item.originalTitle],
  ...(item.alternativeTitles ?? []).map((t): [Field, string] => ['alternativeTitle', t]),
  ...(item.people ?? []).map((p): [Field, string] => ['person', p]),
];

// The contract, written the slow and obvious way: every item, every text, every token.
function oracle(items: Searchable[], query: string, { type, limit = DEFAULT_LIMIT }: SearchOptions = {}) {
  const words = tokenize(query);
  if (words.length === 0) return [];
  const joined = words.join('');
  const last = words.at(-1)!;
  // A leading article may be left out, of the text or of the query.
  const article = (ws: string[]) => (ws.length > 1 && ARTICLES.includes(ws[0]!) ? ws.slice(1) : ws).join('');
  const levelOf = (text: string | null) => {
    if (text === null) return Infinity;
    const whole = tokensOf(text).join('');
    const tokens = titleTokensOf(text);
    if (whole === '') return Infinity;
    if (words.every((word) => tokens.some((token) => token.startsWith(word)))) {
      const level = (t: string, q: string) => (t === q ? 0 : t.startsWith(q) ? 1 : 2);
      return Math.min(level(whole, joined), level(article(tokensOf(text)), article(words)));
    }
    // Below every match as typed: each word as typed or within its edits.
    if (!words.every((word) => tokens.some((token) => token.startsWith(word) || near(word, token, word === last)))) return Infinity;
    // The whole text (or without its article) within one edit, then two, then only its words.
    const edits = editsFor(joined);
    const apart = Math.min(osa(joined, whole), osa(joined, article(tokensOf(text))));
    return apart <= Math.min(edits, 1) ? 3 : apart <= edits ? 4 : 5;
  };
  // As typed before typos; within each, any title before any person; by level; among titles, by field.
  const rankOf = (field: Field, level: number) =>
    level === Infinity
      ? Infinity
      : (level >= 3 ? 1000 : 0) + (field === 'person' ? 100 : 0) + level * 10 + (field === 'person' ? 0 : FIELDS.indexOf(field));
  return mostRecentFirst(items)
    .filter((item) => type === undefined || item.type === type)
    .map((item) => {
      const ranked = textsOf(item).map(([field, text]) => ({ field, rank: rankOf(field, levelOf(text)) }));
      const best = ranked.reduce((a, b) => (b.rank < a.rank ? b : a));
      return { item, rank: best.rank, matchedOn: best.field };
    })
    .filter(({ rank }) => rank !== Infinity)
    .sort((a, b) => a.rank - b.rank) // stable: recency order stays within a rank
    .slice(0, limit)
    .map(({ item, matchedOn }) => ({ item, matchedOn }));
}

const TITLES = [
  'Amélie',
  "Le Fabuleux Destin d'Amélie Poulain",
  'The Dark Knight',
  'The Dark Knight Rises',
  'Dark',
  'Knight Rider',
  'Léon: The Professional',
  'Léon',
  'Spider-Man',
  'Spider-Man 2',
  'Spider-Man: Into the Spider-Verse',
  'The Amazing Spider-Man',
  'WALL·E',
  "Ocean's Eleven",
  "Ocean's Twelve",
  'Pokémon',
  'ポケットモンスター',
  'Æon Flux',
  'Spirited Away',
  '千と千尋の神隠し',
  'となりのトトロ',
  'Москва слезам не верит',
  'Moscow Does Not Believe in Tears',
  'S.W.A.T.',
  'M*A*S*H',
  "L'Avventura",
  'Stranger Things',
  'The Office',
  'Bad Genius',
  'ฉลาดเกมส์โกง',
  'Alien',
  'Aliens',
  'Alien: Covenant',
  'Cowboys & Aliens',
  'Halloween',
  'Dune',
  'Dune: Part Two',
  'Star Wars',
  'Stardust',
  'Ὀδύσσεια',
  'Die Blechtrommel',
  'Straße',
  '기생충',
  'Crouching Tiger, Hidden Dragon',
  '臥虎藏龍',
  '!!!',
];

// Some share words with titles ("Gladys Knight", "Dune" in a name), so titles and people compete.
const PEOPLE = [
  'Christopher Nolan',
  'Heath Ledger',
  'Agnès Varda',
  'Jean-Pierre Jeunet',
  'Audrey Tautou',
  'Gladys Knight',
  'Bong Joon-ho',
  '是枝裕和',
  'Sigourney Weaver',
  'Alienor Dune',
  'Darko Stranger',
  'Léon Spirit',
];

const catalogues = fc.uniqueArray(
  fc.record({
    id: fc.integer({ min: 1, max: 500 }).map(String),
    type: fc.constantFrom('movie' as const, 'tvshow' as const),
    title: fc.constantFrom(...TITLES),
    originalTitle: fc.option(fc.constantFrom(...TITLES), { nil: null }),
    alternativeTitles: fc.array(fc.constantFrom(...TITLES), { maxLength: 2 }),
    people: fc.array(fc.constantFrom(...PEOPLE), { maxLength: 3 }),
    year: fc.option(fc.integer({ min: 1990, max: 1995 }), { nil: null }),
    addedAt: fc.constantFrom('2024-01-01T00:00:00Z', '2024-06-01T00:00:00Z', 'unknown'),
  }),
  { maxLength: 40, selector: ({ id }) => id },
);

// Queries the way people type them: prefixes of a title's words in any order, in any case, with
// or without accents and punctuation; and now and then noise.
const typed = fc
  .tuple(fc.constantFrom(...TITLES, ...PEOPLE), fc.array(fc.nat(), { maxLength: 4 }), fc.boolean(), fc.constantFrom(' ', '-', ''))
  .map(([title, cuts, upper, join]) => {
    const words = title.split(/[\s:,.*·-]+/u).filter((word) => word !== '');
    const picked = cuts.map((cut, i) => {
      const word = words[(cut + i) % words.length] ?? '';
      return word.slice(0, 1 + (cut % word.length));
    });
    const query = picked.join(join);
    return upper ? query.toUpperCase() : query.normalize('NFD');
  });
const queries = fc.oneof(
  { weight: 6, arbitrary: typed },
  { weight: 1, arbitrary: fc.constantFrom(...TITLES) },
  { weight: 1, arbitrary: fc.string() },
);
const options = fc.record(
  { type: fc.constantFrom('movie' as const, 'tvshow' as const), limit: fc.integer({ min: 1, max: 25 }) },
  { requiredKeys: [] },
);

const ids = (hits: { item: Searchable }[]) => hits.map(({ item }) => item.id);
const described = (hits: { item: Searchable; matchedOn: string }[]) => hits.map(({ item, matchedOn }) => `${item.id}:${matchedOn}`);

describe('SearchIndex against the contract', () => {
  it('returns what a scan of every item and token would, in the same order', () => {
    fc.assert(
      fc.property(catalogues, fc.array(fc.tuple(queries, options), { minLength: 1, maxLength: 5 }), (items, searches) => {
        const index = new SearchIndex(items);
        for (const [query, opts] of searches) assert.deepEqual(described(index.search(query, opts)), described(oracle(items, query, opts)));
      }),
      { numRuns: 1_500 },
    );
  });

  it('gives the same results whether titles and queries arrive NFC or NFD', () => {
    const nfd = (item: Searchable): Searchable => ({
      ...item,
      title: item.title.normalize('NFD'),
      originalTitle: item.originalTitle?.normalize('NFD') ?? null,
      alternativeTitles: item.alternativeTitles?.map((t) => t.normalize('NFD')) ?? [],
      people: item.people?.map((p) => p.normalize('NFD')) ?? [],
    });
    fc.assert(
      fc.property(catalogues, queries, (items, query) => {
        const composed = new SearchIndex(items.map((item) => ({ ...item, title: item.title.normalize('NFC') })));
        const decomposed = new SearchIndex(items.map(nfd));
        const expected = ids(composed.search(query.normalize('NFC')));
        assert.deepEqual(ids(composed.search(query.normalize('NFD'))), expected);
        assert.deepEqual(ids(decomposed.search(query.normalize('NFC'))), expected);
        assert.deepEqual(ids(decomposed.search(query.normalize('NFD'))), expected);
      }),
      { numRuns: 1_000 },
    );
  });

  it('finds every item by its own title, at the exact level', () => {
    fc.assert(
      fc.property(catalogues, (items) => {
        const index = new SearchIndex(items);
        for (const item of items) {
          if (tokenize(item.title).length === 0) continue;
          const found = index.search(item.title, { limit: Infinity }).map((h) => h.item);
          assert.ok(found.includes(item), `${item.title} finds itself`);
          // Items whose title is the same, spaces and punctuation aside, come first.
          const exact = found.findIndex(
            (other) =>
              tokenize(other.title).join('') !== tokenize(item.title).join('') &&
              tokenize(other.originalTitle ?? '').join('') !== tokenize(item.title).join(''),
          );
          assert.ok(exact === -1 || found.indexOf(item) < exact);
        }
      }),
      { numRuns: 300 },
    );
  });
});
