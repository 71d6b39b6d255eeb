import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MATCH_THRESHOLD, chooseMatch, titleSimilarity, yearAgreement, type Candidate, type MatchQuery } from '../../../lib/metadata/match';

// Search results as TMDB returns them for these titles (ids and popularity rounded from real ones).
const matrix: Candidate[] = [
  { id: 604, title: 'The Matrix Reloaded', originalTitle: 'The Matrix Reloaded', year: 2003, popularity: 60 },
  { id: 603, title: 'The Matrix', originalTitle: 'The Matrix', year: 1999, popularity: 80 },
  { id: 624860, title: 'The Matrix Resurrections', originalTitle: 'The Matrix Resurrections', year: 2021, popularity: 90 },
];
const dune: Candidate[] = [
  { id: 438631, title: 'Dune', originalTitle: 'Dune', year: 2021, popularity: 150 },
  { id: 841, title: 'Dune', originalTitle: 'Dune', year: 1984, popularity: 30 },
  { id: 693134, title: 'Dune: Part Two', originalTitle: 'Dune: Part Two', year: 2024, popularity: 200 },
];
const amelie: Candidate[] = [
  { id: 194, title: 'Amélie', originalTitle: "Le Fabuleux Destin d'Amélie Poulain", year: 2001, popularity: 30 },
];
const heat: Candidate[] = [
  { id: 136795, title: 'The Heat', originalTitle: 'The Heat', year: 2013, popularity: 40 },
  { id: 949, title: 'Heat', originalTitle: 'Heat', year: 1995, popularity: 50 },
];
const doctorWho: Candidate[] = [
  { id: 57243, title: 'Doctor Who', originalTitle: 'Doctor Who', year: 2005, popularity: 120 },
  { id: 121, title: 'Doctor Who', originalTitle: 'Doctor Who', year: 1963, popularity: 40 },
  { id: 239770, title: 'Doctor Who', originalTitle: 'Doctor Who', year: 2023, popularity: 70 },
];
const bicycleThieves: Candidate[] = [
  { id: 5156, title: 'Bicycle Thieves', originalTitle: 'Ladri di biciclette', year: 1948, popularity: 15 },
];
const lobster: Candidate[] = [{ id: 254320, title: 'The Lobster', originalTitle: 'The Lobster', year: 2015, popularity: 20 }];
const leon: Candidate[] = [{ id: 101, title: 'Léon: The Professional', originalTitle: 'Léon', year: 1994, popularity: 40 }];
const homeVideos: Candidate[] = [
  { id: 771, title: 'Home Alone', originalTitle: 'Home Alone', year: 1990, popularity: 50 },
  { id: 4032, title: 'My Girl', originalTitle: 'My Girl', year: 1991, popularity: 20 },
];
const hallows: Candidate[] = [
  { id: 12444, title: 'Harry Potter and the Deathly Hallows: Part 1', originalTitle: null, year: 2010, popularity: 90 },
];

type Expected = { id: number; confidence: number } | { id: null; confidence: number };
type Row = readonly [why: string, query: MatchQuery, candidates: Candidate[], expected: Expected];

const rows: Row[] = [
  ['the film among its sequels', { title: 'The Matrix', year: 1999 }, matrix, { id: 603, confidence: 1 }],
  ['the film among its sequels, no year', { title: 'The Matrix', year: null }, matrix, { id: 603, confidence: 0.85 }],
  ['a release name spelling', { title: 'the matrix', year: 1999 }, matrix, { id: 603, confidence: 1 }],
  ['a sequel by its own title', { title: 'The Matrix Reloaded', year: 2003 }, matrix, { id: 604, confidence: 1 }],
  ['the original of a remake, by year', { title: 'Dune', year: 1984 }, dune, { id: 841, confidence: 1 }],
  ['the remake, by year', { title: 'Dune', year: 2021 }, dune, { id: 438631, confidence: 1 }],
  // No year: both are equally "Dune", so TMDB's popularity decides, as its own ranking would.
  ['a remake without a year goes to the popular one', { title: 'Dune', year: null }, dune, { id: 438631, confidence: 0.85 }],
  ['accents folded', { title: 'Amelie', year: 2001 }, amelie, { id: 194, confidence: 1 }],
  ['the original title', { title: "Le Fabuleux Destin d'Amelie Poulain", year: 2001 }, amelie, { id: 194, confidence: 1 }],
  ['a foreign original title', { title: 'Ladri di biciclette', year: 1948 }, bicycleThieves, { id: 5156, confidence: 1 }],
  // Cannes 2015, released in the US in 2016: a file named after the later date.
  ['a year off by one', { title: 'The Lobster', year: 2016 }, lobster, { id: 254320, confidence: 0.9 }],
  ['an article left out', { title: 'Lobster', year: 2015 }, lobster, { id: 254320, confidence: 1 }],
  ['a year off by two is a different film', { title: 'The Lobster', year: 2017 }, lobster, { id: null, confidence: 0.55 }],
  ['a short title with the same year', { title: 'Leon', year: 1994 }, leon, { id: 101, confidence: 1 }], // its original title
  [
    'a short title, original title aside',
    { title: 'Leon', year: 1994 },
    [{ ...leon[0]!, originalTitle: null }],
    { id: 101, confidence: 0.675 },
  ],
  ['a title that matches nothing close', { title: 'My Home Videos', year: 2019 }, homeVideos, { id: null, confidence: 0.115 }],
  ['"Heat" 1995 against a 2013 "The Heat"', { title: 'Heat', year: 1995 }, heat, { id: 949, confidence: 1 }],
  ['"The Heat" 2013 against "Heat" 1995', { title: 'The Heat', year: 2013 }, heat, { id: 136795, confidence: 1 }],
  ['"Heat" 1995 with only the 2013 film listed', { title: 'Heat', year: 1995 }, [heat[0]!], { id: null, confidence: 0.35 }],
  ['a revived show by its first year', { title: 'Doctor Who', year: 2005 }, doctorWho, { id: 57243, confidence: 1 }],
  ['the classic show by its first year', { title: 'Doctor Who', year: 1963 }, doctorWho, { id: 121, confidence: 1 }],
  [
    'another part of a series is not a near match',
    { title: 'Harry Potter and the Deathly Hallows Part 2', year: 2011 },
    hallows,
    { id: null, confidence: 0.425 },
  ],
  [
    '"&" and "and" are one word',
    { title: 'Fast and Furious', year: 2009 },
    [{ id: 13804, title: 'Fast & Furious', originalTitle: null, year: 2009 }],
    { id: 13804, confidence: 1 },
  ],
  [
    'spaces aside, as in search',
    { title: 'Spiderman', year: 2002 },
    [{ id: 557, title: 'Spider-Man', originalTitle: 'Spider-Man', year: 2002 }],
    { id: 557, confidence: 1 },
  ],
  ['no candidates', { title: 'Anything', year: 2000 }, [], { id: null, confidence: 0 }],
  ['a title without words', { title: '!!!', year: 2000 }, matrix, { id: null, confidence: 0 }],
];

const outcome = (result: ReturnType<typeof chooseMatch>): Expected =>
  result.match === null ? { id: null, confidence: result.confidence } : { id: result.match.id, confidence: result.confidence };

describe('chooseMatch', () => {
  for (const [why, query, candidates, expected] of rows) {
    it(`${why}: "${query.title}" (${query.year ?? 'no year'}) → ${expected.id ?? 'unmatched'}`, () => {
      assert.deepEqual(outcome(chooseMatch(query, candidates)), expected);
    });
  }

  it('takes a known TMDB id outright, returning the listed candidate', () => {
    const result = chooseMatch({ title: 'Matrix', year: null, ids: { tmdb: 624860 } }, matrix);
    assert.deepEqual(result, { match: matrix[2], confidence: 1, by: 'id' });
  });

  it('takes a known TMDB id that the candidates do not list, as a stand-in to fetch by id', () => {
    const result = chooseMatch({ title: 'Dune', year: 1984, ids: { tmdb: 841 } }, []);
    assert.deepEqual(result, { match: { id: 841, title: 'Dune', originalTitle: null, year: 1984 }, confidence: 1, by: 'id' });
  });

  it('does not decide by an IMDb id, which search results do not carry', () => {
    const result = chooseMatch({ title: 'Dune', year: 1984, ids: { imdb: 'tt0087182' } }, dune);
    assert.deepEqual(result, { match: dune[1], confidence: 1, by: 'title' });
  });

  it('says why an item stays unmatched', () => {
    assert.deepEqual(chooseMatch({ title: 'My Home Videos', year: 2019 }, homeVideos), {
      match: null,
      confidence: 0.115,
      reason: 'no candidate close enough',
    });
  });

  it('chooses the same whatever order the candidates come in', () => {
    const reversed = [...doctorWho].reverse();
    assert.equal(chooseMatch({ title: 'Doctor Who', year: null }, reversed).match?.id, 57243);
    assert.equal(chooseMatch({ title: 'Doctor Who', year: null }, doctorWho).match?.id, 57243);
  });

  it('keeps the caller’s own candidate objects', () => {
    const own = [{ ...matrix[1]!, posterPath: '/p.jpg' }];
    const result = chooseMatch({ title: 'The Matrix', year: 1999 }, own);
    assert.equal(result.match, own[0]);
  });
});

describe('the threshold', () => {
  it('lies between a year off by one and a year off by two for an equal title', () => {
    assert.ok(yearAgreement(2015, 2016) >= MATCH_THRESHOLD);
    assert.ok(yearAgreement(null, 2016) >= MATCH_THRESHOLD);
    assert.ok(yearAgreement(2015, 2017) < MATCH_THRESHOLD);
  });

  it('ranks an equal title above any near one', () => {
    assert.equal(titleSimilarity(['matrix'], ['matrix']), 1);
    assert.ok(titleSimilarity(['matrix'], ['matrix', 'reloaded']) < 1);
    assert.ok(titleSimilarity(['matrix'], ['matrix', 'reloaded']) * yearAgreement(null, null) < yearAgreement(null, null));
  });
});
