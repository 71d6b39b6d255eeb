// Search quality, measured: a generated catalogue of 10,000 titles (remakes, sequels, accents,
// original and alternative titles, people) and a query set with the first result each query
// should give (test/support/search-quality.ts). `npm run bench` reports the same scores with
// their latency at 10,000 and 100,000 titles (bench/search.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SearchIndex, type Searchable } from '../../../lib/search';
import { qualityQueries, scoreQueries, searchCatalogue } from '../../support/search-quality';

const TOP1_MIN = 0.95;
const TOP1_MIN_TYPOS = 0.9;

describe('search quality over a generated catalogue of 10,000 titles', () => {
  const catalogue = searchCatalogue(10_000);
  const queries = qualityQueries(catalogue);
  const index = new SearchIndex(catalogue);
  const scores = scoreQueries(queries, (query) => index.search(query, { limit: 5 }).map((hit) => hit.item.id));

  it('has at least 200 queries, of every kind', () => {
    assert.ok(queries.length >= 200, `${queries.length} queries`);
    const kinds = new Set(queries.map((q) => q.kind));
    for (const kind of [
      'exact',
      'prefix',
      'typo-deletion',
      'typo-insertion',
      'typo-substitution',
      'typo-transposition',
      'year',
      'original-title',
      'alternative-title',
      'person',
    ] as const) {
      assert.ok(kinds.has(kind), kind);
    }
  });

  for (const score of scores) {
    const min = score.kind.startsWith('typo') ? TOP1_MIN_TYPOS : TOP1_MIN;
    it(`${score.kind}: the intended title first in at least ${min * 100}% of ${score.queries} queries`, () => {
      const misses = score.misses.map(
        (m) => `"${m.query}": got ${m.got.join(', ') || 'nothing'}, expected one of ${m.expected.join(', ')}`,
      );
      assert.ok(score.top1 >= min, `top-1 ${(score.top1 * 100).toFixed(1)}%\n${misses.join('\n')}`);
    });
  }
});

// The queries the issue found failing, over the films they mean and the ones that get in the way.
describe('what users typed', () => {
  const film = (id: string, title: string, year: number, more: Partial<Searchable> = {}): Searchable => ({
    id,
    type: 'movie',
    title,
    originalTitle: null,
    year,
    addedAt: '2024-05-01T10:00:00.000Z',
    ...more,
  });
  const index = new SearchIndex([
    film('matrix', 'The Matrix', 1999, { people: ['Lana Wachowski', 'Lilly Wachowski', 'Keanu Reeves'] }),
    film('matrix-resurrections', 'The Matrix Resurrections', 2021),
    film('alien', 'Alien', 1979, { people: ['Ridley Scott', 'Sigourney Weaver'] }),
    film('aliens', 'Aliens', 1986),
    film('alien-covenant', 'Alien: Covenant', 2017),
    film('brazil', 'Brazil', 1985, { people: ['Terry Gilliam'] }),
    film('heat', 'Heat', 1995, { people: ['Michael Mann', 'Al Pacino'] }),
    film('heat-2013', 'The Heat', 2013, { people: ['Paul Feig', 'Sandra Bullock'] }),
    film('amelie', 'Amélie', 2001, {
      originalTitle: "Le Fabuleux Destin d'Amélie Poulain",
      people: ['Jean-Pierre Jeunet', 'Audrey Tautou'],
    }),
    film('inception', 'Inception', 2010, { people: ['Christopher Nolan', 'Leonardo DiCaprio'] }),
    film('oppenheimer', 'Oppenheimer', 2023, { people: ['Christopher Nolan', 'Cillian Murphy'] }),
    film('spider-verse', 'Spider-Man: Into the Spider-Verse', 2018),
    film('spider-man', 'Spider-Man', 2002),
    film('harold-kumar', 'Harold & Kumar Go to White Castle', 2004),
    film('harold', 'Harold and Maude', 1971),
    film('rocky', 'Rocky', 1976),
    film('rocky-ii', 'Rocky II', 1979),
    film('pride', 'Pride & Prejudice', 2005),
    film('pride-zombies', 'Pride & Prejudice & Zombies', 2016),
  ]);
  const rows: [query: string, first: string][] = [
    ['matirx', 'matrix'],
    ['the matrx', 'matrix'],
    ['alein', 'alien'],
    ['brazl', 'brazil'],
    ['heat 1995', 'heat'],
    ['le fabuleux destin', 'amelie'],
    ['nolan', 'oppenheimer'],
    ['spiderman into the spiderverse', 'spider-verse'],
    ['harold and kumar', 'harold-kumar'],
    ['rocky 2', 'rocky-ii'],
    ['pride & prejudice', 'pride'],
  ];
  for (const [query, first] of rows) {
    it(`"${query}" puts ${first} first`, () => assert.equal(index.search(query)[0]?.item.id, first));
  }
  it('"le fabuleux destin" says it matched the original title', () => {
    const [hit] = index.search('le fabuleux destin');
    assert.deepEqual([hit?.matchedOn, hit?.matchedText], ['originalTitle', "Le Fabuleux Destin d'Amélie Poulain"]);
  });
  it('"nolan" finds both of his films, by his name', () => {
    assert.deepEqual(
      index.search('nolan').map((h) => [h.item.id, h.matchedOn, h.matchedText]),
      [
        ['oppenheimer', 'person', 'Christopher Nolan'],
        ['inception', 'person', 'Christopher Nolan'],
      ],
    );
  });
});
