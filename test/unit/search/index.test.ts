import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_LIMIT, SearchIndex, type SearchOptions, type Searchable } from '../../../lib/search';

const ADDED = '2024-05-01T10:00:00.000Z';
const movie = (id: string, title: string, year: number | null, originalTitle: string | null = null): Searchable => ({
  id,
  type: 'movie',
  title,
  originalTitle,
  year,
  addedAt: ADDED,
});
const show = (id: string, title: string, year: number | null, originalTitle: string | null = null): Searchable => ({
  id,
  type: 'tvshow',
  title,
  originalTitle,
  year,
  addedAt: ADDED,
});

const catalogue: Searchable[] = [
  movie('amelie', 'Amélie', 2001, "Le Fabuleux Destin d'Amélie Poulain"),
  movie('dark-knight', 'The Dark Knight', 2008),
  movie('dark-knight-rises', 'The Dark Knight Rises', 2012),
  show('dark', 'Dark', 2017),
  show('knight-rider', 'Knight Rider', 1982),
  movie('leon', 'Léon: The Professional', 1994, 'Léon'),
  movie('spider-man', 'Spider-Man', 2002),
  movie('spider-man-2', 'Spider-Man 2', 2004),
  movie('spider-verse', 'Spider-Man: Into the Spider-Verse', 2018),
  movie('amazing-spider-man', 'The Amazing Spider-Man', 2012),
  movie('wall-e', 'WALL·E', 2008),
  movie('oceans-eleven', "Ocean's Eleven", 2001),
  show('pokemon', 'Pokémon', 1997, 'ポケットモンスター'),
  movie('pokemon-movie', 'Pokémon: The First Movie', 1998, 'ミュウツーの逆襲'),
  movie('aeon-flux', 'Æon Flux', 2005),
  show('aeon-flux-show', 'Æon Flux', 1991),
  movie('spirited-away', 'Spirited Away', 2001, '千と千尋の神隠し'),
  movie('moscow', 'Moscow Does Not Believe in Tears', 1980, 'Москва слезам не верит'),
  show('swat', 'S.W.A.T.', 2017),
  show('mash', 'M*A*S*H', 1972),
  movie('avventura', "L'Avventura", 1960),
  show('stranger-things', 'Stranger Things', 2016),
  show('office', 'The Office', null),
  movie('bad-genius', 'Bad Genius', 2017, 'ฉลาดเกมส์โกง'),
  movie('pride-zombies', 'Pride & Prejudice & Zombies', 2016),
  movie('pride', 'Pride & Prejudice', 2005),
  movie('rocky', 'Rocky', 1976),
  movie('rocky-ii', 'Rocky II', 1979),
  movie('toy-story-3', 'Toy Story 3', 2010),
];
const index = new SearchIndex(catalogue);
const find = (query: string, options?: SearchOptions) => index.search(query, options).map(({ item }) => item.id);

// Every match, best first: the whole expected list, so an extra or missing result fails too.
const rows: [query: string, expected: string[], why: string][] = [
  ['amelie', ['amelie'], 'accents need not be typed'],
  ['AMÉLIE', ['amelie'], 'case and accents both ignored'],
  ['Ame\u0301lie', ['amelie'], 'an NFD query'],
  ['fabuleux destin', ['amelie'], 'the original title is searched'],
  ['amelie poulain', ['amelie'], 'words of one title'],
  ['dark kni', ['dark-knight-rises', 'dark-knight'], 'word prefixes, newest first'],
  ['kni dark', ['dark-knight-rises', 'dark-knight'], 'words in any order'],
  ['the dark knight', ['dark-knight', 'dark-knight-rises'], 'exact before title prefix, though older'],
  ['dark', ['dark', 'dark-knight-rises', 'dark-knight'], 'exact, then word matches'],
  ['knight', ['knight-rider', 'dark-knight-rises', 'dark-knight'], 'title prefix before word match, though older'],
  ['leon', ['leon', 'aeon-flux', 'aeon-flux-show'], 'exact on the original title; "aeon" is one edit away, so it follows'],
  ['leon the pro', ['leon'], 'title prefix'],
  ['professional', ['leon'], 'a later word'],
  ['spiderman', ['spider-man', 'spider-verse', 'spider-man-2', 'amazing-spider-man'], 'a hyphenated title typed as one word'],
  ['spider-man', ['spider-man', 'spider-verse', 'spider-man-2', 'amazing-spider-man'], 'the same typed with its hyphen'],
  ['Spider Man', ['spider-man', 'spider-verse', 'spider-man-2', 'amazing-spider-man'], 'and with a space'],
  ['spiderverse', ['spider-verse'], 'the second join of a title'],
  ['spider verse', ['spider-verse'], 'both words of a join'],
  ['walle', ['wall-e'], 'WALL·E typed as one word'],
  ['wall-e', ['wall-e'], 'WALL·E typed with a hyphen'],
  ['WALL·E', ['wall-e'], 'WALL·E typed as written'],
  ["ocean's", ['oceans-eleven'], 'an apostrophe in the query'],
  ['oceans eleven', ['oceans-eleven'], 'an apostrophe left out'],
  ['ocean', ['oceans-eleven'], 'the word before the apostrophe'],
  ['eleven', ['oceans-eleven'], 'the word after it'],
  ['avventura', ['avventura'], 'the word after an elision'],
  ["l'avventura", ['avventura'], 'the elision typed'],
  ['pokemon', ['pokemon', 'pokemon-movie'], 'exact, then title prefix, though older'],
  ['ポケット', ['pokemon'], 'katakana original title'],
  ['ﾎﾟｹｯﾄ', ['pokemon'], 'halfwidth katakana query'],
  ['aeon flux', ['aeon-flux', 'aeon-flux-show'], 'æ typed as ae; movie and show together, newest first'],
  ['æon', ['aeon-flux', 'aeon-flux-show', 'leon'], 'æ typed as æ; "leon" one edit away after'],
  ['千と千尋', ['spirited-away'], 'CJK title prefix'],
  ['神隠し', ['spirited-away'], 'CJK: any part of a word'],
  ['москва', ['moscow'], 'Cyrillic'],
  ['МОСКВА слезам', ['moscow'], 'Cyrillic, uppercase'],
  ['верит москва', ['moscow'], 'Cyrillic, any order'],
  ['เกมส์', ['bad-genius'], 'Thai: any part of a word'],
  ['swat', ['swat'], 'a dotted acronym typed plain'],
  ['s.w.a.t.', ['swat'], 'a dotted acronym typed dotted'],
  ['mash', ['mash'], 'a starred acronym typed plain'],
  ['stranger', ['stranger-things'], 'title prefix'],
  [
    'the',
    ['amazing-spider-man', 'dark-knight-rises', 'dark-knight', 'office', 'spider-verse', 'pokemon-movie', 'leon'],
    'title prefixes (same year: A–Z; no year last), then word matches newest first',
  ],
  ['spirited 千', [], 'words of the title and of the original title do not mix'],
  ['dark zzz', [], 'every query word must match'],
  ['matirx', [], 'a typo of no title'],
  ['pride and prejudice', ['pride', 'pride-zombies'], '"&" typed as "and": the title itself first'],
  ['pride & prejudice', ['pride', 'pride-zombies'], 'and typed as "&"'],
  ['rocky 2', ['rocky-ii'], 'a sequel number typed in arabic numerals'],
  ['rocky ii', ['rocky-ii'], 'and in roman ones'],
  ['toy story 3', ['toy-story-3'], 'a title written in arabic numerals found by them'],
  ['toy story iii', ['toy-story-3'], 'and by roman ones'],
  ['dark 2017', ['dark', 'dark-knight-rises', 'dark-knight'], 'a year names the item from it, which comes first'],
  ['dark knight 2008', ['dark-knight', 'dark-knight-rises'], 'the year lifts the 2008 film above the later one'],
  ['dark knight 2012', ['dark-knight-rises', 'dark-knight'], 'and the 2012 one, above the title matched whole'],
  ['office', ['office'], 'a leading article left out: the whole title'],
  ['the office', ['office'], 'or typed'],
  ['dark 1999', ['dark', 'dark-knight-rises', 'dark-knight'], 'a year no item is from changes nothing'],
  [
    'spidrman',
    ['spider-man', 'spider-man-2', 'spider-verse', 'amazing-spider-man'],
    'a letter missing: the whole title within one edit, then within two (eight letters), then the words',
  ],
  ['stranegr things', ['stranger-things'], 'two letters swapped count as one edit'],
  ['amelei', ['amelie'], 'a swap in the last word typed'],
  ['dakr', ['dark', 'dark-knight-rises', 'dark-knight'], 'a swap in a word of four letters: the title within reach first'],
  ['drk', [], 'words under four letters stay exact'],
  ['zzz', [], 'nothing'],
  ['rk', [], 'word prefixes, not substrings, outside unspaced scripts'],
  ['!!!', [], 'no letters or digits'],
  ['   ', [], 'blank'],
  ['', [], 'empty'],
];

describe('SearchIndex.search', () => {
  for (const [query, expected, why] of rows) {
    it(`${JSON.stringify(query)}: ${why}`, () => assert.deepEqual(find(query, { limit: 100 }), expected));
  }
});

describe('SearchIndex ranking', () => {
  const rank = (items: Searchable[], query: string) => new SearchIndex(items).search(query).map(({ item }) => item.id);
  const rows: [why: string, items: Searchable[], query: string, expected: string[]][] = [
    [
      'a leading article left out: the whole title before a newer one it starts',
      [
        movie('matrix-reloaded', 'The Matrix Reloaded', 2003),
        movie('matrix', 'The Matrix', 1999),
        movie('matrix-doc', 'Matrix Reloaded: A Documentary', 2004),
      ],
      'matrix',
      ['matrix', 'matrix-doc', 'matrix-reloaded'],
    ],
    [
      'exact, then title prefix, then word match; newest first within each',
      [
        movie('cowboys', 'Cowboys & Aliens', 2011),
        movie('aliens', 'Aliens', 1986),
        movie('covenant', 'Alien: Covenant', 2017),
        movie('alien', 'Alien', 1979),
        movie('attic', 'Aliens in the Attic', 2009),
      ],
      'alien',
      ['alien', 'covenant', 'attic', 'aliens', 'cowboys'],
    ],
    [
      'same level: year descending, no year last',
      [
        movie('h1978', 'Halloween', 1978),
        show('hnull', 'Halloween', null),
        movie('h2018', 'Halloween', 2018),
        movie('h2007', 'Halloween', 2007),
      ],
      'halloween',
      ['h2018', 'h2007', 'h1978', 'hnull'],
    ],
    [
      'same level and year: latest added first',
      [
        { ...movie('dune-a', 'Dune', 2021), addedAt: '2022-01-01T00:00:00Z' },
        { ...movie('dune-b', 'Dune', 2021), addedAt: '2023-01-01T00:00:00Z' },
        { ...show('dune-c', 'Dune', 2021), addedAt: '2022-06-01T00:00:00Z' },
      ],
      'dune',
      ['dune-b', 'dune-c', 'dune-a'],
    ],
    [
      'same level, year and date: title A–Z',
      [movie('wars', 'Star Wars', 1977), movie('trek', 'Star Trek', 1977), movie('dust', 'Stardust', 1977)],
      'star',
      ['trek', 'wars', 'dust'],
    ],
    [
      'the better of title and original title: exact on the original beats a newer title prefix',
      [movie('leonie', 'Leonie', 2010), movie('leon', 'The Professional', 1994, 'Léon')],
      'leon',
      ['leon', 'leonie'],
    ],
    ['an item matching on both titles comes once', [movie('pokemon', 'Pokémon', 1998, 'Pokemon')], 'pokemon', ['pokemon']],
  ];
  for (const [why, items, query, expected] of rows) {
    it(why, () => assert.deepEqual(rank(items, query), expected));
  }
});

describe('SearchIndex options', () => {
  const rows: [query: string, options: SearchOptions, expected: string[], why: string][] = [
    ['aeon flux', { type: 'movie' }, ['aeon-flux'], 'movies only'],
    ['aeon flux', { type: 'tvshow' }, ['aeon-flux-show'], 'shows only'],
    ['pokemon', { type: 'tvshow' }, ['pokemon'], 'shows only, exact'],
    ['dark', { type: 'movie', limit: 1 }, ['dark-knight-rises'], 'the type is filtered before the limit'],
    ['dark', { type: 'tvshow' }, ['dark'], 'shows only, one match'],
    ['spiderman', { limit: 2 }, ['spider-man', 'spider-verse'], 'the best two'],
    ['spiderman', { limit: 1 }, ['spider-man'], 'the best one'],
    ['spiderman', { limit: 2.9 }, ['spider-man', 'spider-verse'], 'a fractional limit rounds down'],
    ['spiderman', { limit: Infinity }, ['spider-man', 'spider-verse', 'spider-man-2', 'amazing-spider-man'], 'no limit'],
    ['spiderman', { limit: 0 }, [], 'limit 0'],
    ['spiderman', { limit: -5 }, [], 'a negative limit'],
    ['spiderman', { limit: Number.NaN }, [], 'a limit that is not a number'],
  ];
  for (const [query, options, expected, why] of rows) {
    it(`${JSON.stringify(query)} ${JSON.stringify(options)}: ${why}`, () => assert.deepEqual(find(query, options), expected));
  }

  it(`returns at most ${DEFAULT_LIMIT} results by default`, () => {
    const many = Array.from({ length: DEFAULT_LIMIT + 5 }, (_, i) => movie(`m${i}`, `Friday the 13th Part ${i + 1}`, 1980 + i));
    const found = new SearchIndex(many).search('friday');
    assert.equal(found.length, DEFAULT_LIMIT);
    assert.deepEqual(
      found.map(({ item }) => item.id),
      many
        .map(({ id }) => id)
        .reverse()
        .slice(0, DEFAULT_LIMIT),
    );
  });
});

describe('SearchIndex as a whole', () => {
  it('counts its items, including those with no searchable title', () => {
    assert.equal(index.size, catalogue.length);
    assert.equal(new SearchIndex([movie('x', '!!!', 2000), movie('y', 'Up', 2009)]).size, 2);
    assert.equal(new SearchIndex([]).size, 0);
  });

  it('finds nothing in an empty index', () => {
    assert.deepEqual(new SearchIndex([]).search('anything'), []);
  });

  it('returns the very items it was given, extra fields and all, and leaves the input alone', () => {
    type Movie = Searchable & { poster: string };
    const up: Movie = { ...movie('up', 'Up', 2009), poster: '/p/up.jpg' };
    const items: Movie[] = [{ ...movie('upgrade', 'Upgrade', 2018), poster: '/p/upgrade.jpg' }, up];
    const before = [...items];
    const found = new SearchIndex(items).search('up');
    assert.equal(found[0]?.item, up);
    assert.equal(found[0]?.item.poster, '/p/up.jpg');
    assert.deepEqual(items, before);
  });

  it('takes any iterable', () => {
    const fromSet = new SearchIndex(new Set(catalogue));
    const fromGenerator = new SearchIndex(
      (function* () {
        yield* catalogue;
      })(),
    );
    for (const built of [fromSet, fromGenerator]) {
      assert.equal(built.size, catalogue.length);
      assert.deepEqual(
        built.search('dark kni').map(({ item }) => item.id),
        ['dark-knight-rises', 'dark-knight'],
      );
    }
  });

  it('can be searched many times with the same answers', () => {
    const first = find('the', { limit: 100 });
    find('spiderman');
    find('dark', { type: 'movie' });
    assert.deepEqual(find('the', { limit: 100 }), first);
  });
});

describe('SearchIndex over more than the title', () => {
  const credited = (item: Searchable, extra: Pick<Searchable, 'alternativeTitles' | 'people'>): Searchable => ({ ...item, ...extra });
  const items: Searchable[] = [
    credited(movie('amelie', 'Amélie', 2001, "Le Fabuleux Destin d'Amélie Poulain"), {
      alternativeTitles: ['The Fabulous Destiny of Amélie Poulain'],
      people: ['Jean-Pierre Jeunet', 'Audrey Tautou', 'Mathieu Kassovitz'],
    }),
    credited(movie('inception', 'Inception', 2010), { people: ['Christopher Nolan', 'Leonardo DiCaprio', 'Elliot Page'] }),
    credited(movie('dark-knight', 'The Dark Knight', 2008), { people: ['Christopher Nolan', 'Christian Bale', 'Heath Ledger'] }),
    credited(movie('memento', 'Memento', 2000), { alternativeTitles: ['Memento Mori'], people: ['Christopher Nolan', 'Guy Pearce'] }),
    credited(movie('heat', 'Heat', 1995), { people: ['Michael Mann', 'Al Pacino', 'Robert De Niro'] }),
    credited(movie('heat-2013', 'Heat', 2013), { people: ['Paul Feig', 'Sandra Bullock'] }),
    credited(movie('cellular', 'Cellular', 2004), { people: ['David R. Ellis', 'Heather Graham'] }),
    credited(movie('matrix', 'The Matrix', 1999), { people: ['Lana Wachowski', 'Keanu Reeves'] }),
    credited(movie('matrix-reloaded', 'The Matrix Reloaded', 2003), { people: ['Lana Wachowski', 'Keanu Reeves'] }),
    credited(movie('matrix-revolutions', 'The Matrix Revolutions', 2003), { people: ['Lana Wachowski', 'Keanu Reeves'] }),
    credited(show('office', 'The Office', 2005), {
      alternativeTitles: ['The Office: An American Workplace'],
      people: ['Greg Daniels', 'Steve Carell'],
    }),
    credited(movie('spider-verse', 'Spider-Man: Into the Spider-Verse', 2018), { people: ['Bob Persichetti', 'Shameik Moore'] }),
    credited(movie('alien', 'Alien', 1979), { people: ['Ridley Scott', 'Sigourney Weaver'] }),
    credited(movie('aliens', 'Aliens', 1986), { people: ['James Cameron', 'Sigourney Weaver'] }),
    credited(movie('brazil', 'Brazil', 1985), { people: ['Terry Gilliam', 'Jonathan Pryce'] }),
  ];
  const index = new SearchIndex(items);
  const hits = (query: string, options?: SearchOptions) =>
    index.search(query, { limit: 100, ...options }).map((h) => [h.item.id, h.matchedOn, h.matchedText]);
  const ids = (query: string) => index.search(query, { limit: 100 }).map(({ item }) => item.id);

  it('says what matched: the title, as the item has it', () => assert.deepEqual(hits('inception'), [['inception', 'title', 'Inception']]));
  it('the original title', () =>
    assert.deepEqual(hits('le fabuleux destin'), [['amelie', 'originalTitle', "Le Fabuleux Destin d'Amélie Poulain"]]));
  it('an alternative title', () =>
    assert.deepEqual(hits('fabulous destiny'), [['amelie', 'alternativeTitle', 'The Fabulous Destiny of Amélie Poulain']]));
  it('a director, the most recent film first', () =>
    assert.deepEqual(hits('nolan'), [
      ['inception', 'person', 'Christopher Nolan'],
      ['dark-knight', 'person', 'Christopher Nolan'],
      ['memento', 'person', 'Christopher Nolan'],
    ]));
  it('a cast member, accents and case aside', () => assert.deepEqual(hits('AUDREY tautou'), [['amelie', 'person', 'Audrey Tautou']]));
  it('a name with a typo', () => assert.deepEqual(ids('sigourny weaver'), ['aliens', 'alien']));
  it("a year lifts one of a person's films", () => assert.deepEqual(ids('nolan 2008'), ['dark-knight', 'inception', 'memento']));
  it('the best match of an item is the one it reports', () => assert.deepEqual(hits('memento'), [['memento', 'title', 'Memento']]));
  it('a title always outranks a person, whatever the levels', () =>
    assert.deepEqual(hits('heat'), [
      ['heat-2013', 'title', 'Heat'],
      ['heat', 'title', 'Heat'],
      ['dark-knight', 'person', 'Heath Ledger'],
      ['cellular', 'person', 'Heather Graham'],
    ]));
  it("a title's year lifts it among the titles only", () =>
    assert.deepEqual(ids('heat 1995'), ['heat', 'heat-2013', 'dark-knight', 'cellular']));
  it('at one level the title comes before the original title, before an alternative one', () => {
    const three = new SearchIndex([
      movie('alt', 'Nightfall', 2020, null),
      { ...movie('alt', 'Nightfall', 2020), id: 'has-alternative', title: 'Evening', alternativeTitles: ['Solaris'] },
      movie('has-original', 'Starfish', 2021, 'Solaris'),
      movie('has-title', 'Solaris', 1972),
    ]);
    assert.deepEqual(
      three.search('solaris').map((h) => [h.item.id, h.matchedOn]),
      [
        ['has-title', 'title'],
        ['has-original', 'originalTitle'],
        ['has-alternative', 'alternativeTitle'],
      ],
    );
  });
  it('a typo of the whole title, its article left out, comes before titles it only starts', () =>
    assert.deepEqual(ids('matirx'), ['matrix', 'matrix-reloaded', 'matrix-revolutions']));
  it('"the matrx" likewise', () => assert.deepEqual(ids('the matrx'), ['matrix', 'matrix-reloaded', 'matrix-revolutions']));
  it('"alein" puts Alien first', () => assert.deepEqual(ids('alein'), ['alien', 'aliens']));
  it('a name as typed comes before a title with a typo', () => {
    const both = new SearchIndex([
      movie('hawks', 'Hawks', 1988),
      { ...movie('big', 'Big', 1988), people: ['Penny Marshall', 'Tom Hanks'] },
    ]);
    assert.deepEqual(
      both.search('hanks').map((h) => [h.item.id, h.matchedOn]),
      [
        ['big', 'person'],
        ['hawks', 'title'],
      ],
    );
  });
  it('closer spellings first: one edit before two', () => {
    const two = new SearchIndex([movie('bridge', 'Bridge', 1975), movie('bridges', 'Bridges', 1964)]);
    assert.deepEqual(
      two.search('briddges').map((h) => h.item.id),
      ['bridges', 'bridge'],
    );
  });
  it('"brazl" finds Brazil', () => assert.deepEqual(ids('brazl'), ['brazil']));
  it('"spiderman into the spiderverse" finds the film', () => assert.deepEqual(ids('spiderman into the spiderverse'), ['spider-verse']));
  it('the type filter holds for people', () => {
    assert.deepEqual(ids('carell'), ['office']);
    assert.deepEqual(hits('carell', { type: 'movie' }), []);
  });
  it('words of a title and of a name do not mix', () => assert.deepEqual(ids('inception nolan'), []));
  it('a person shared by many items is one entry, and each of the items is found', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({ ...movie(`m${i}`, `Film ${i}`, 1950 + i), people: ['Michael Caine'] }));
    const found = new SearchIndex(many).search('caine', { limit: 100 });
    assert.equal(found.length, 50);
    assert.ok(found.every((h) => h.matchedOn === 'person' && h.matchedText === 'Michael Caine'));
  });
});

describe('SearchIndex.build', () => {
  it('pauses while it builds, and gives the index the constructor gives', async () => {
    const many = Array.from({ length: 5_000 }, (_, i) => ({
      ...movie(`m${i}`, `Film number ${i}`, 1950 + (i % 70)),
      people: [`Director ${i % 300}`],
    }));
    let pauses = 0;
    const built = await SearchIndex.build(many, async () => {
      pauses++;
    });
    assert.ok(pauses >= 4, `${pauses} pauses`); // after sorting, every 2,000 items, around the token table
    const direct = new SearchIndex(many);
    for (const query of ['film number 42', 'director 7', 'numbr 4999', '1999 film']) {
      assert.deepEqual(
        built.search(query).map((h) => [h.item.id, h.matchedOn]),
        direct.search(query).map((h) => [h.item.id, h.matchedOn]),
        query,
      );
    }
  });
});
