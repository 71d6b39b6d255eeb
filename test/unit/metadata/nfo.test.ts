import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  MAX_NFO_BYTES,
  parseNfo,
  pickEpisode,
  type NfoEpisodeFields,
  type NfoResult,
  type NfoTitleFields,
} from '../../../lib/metadata/nfo';

const noTitleFields: NfoTitleFields = {
  title: null,
  originalTitle: null,
  year: null,
  overview: null,
  tagline: null,
  runtimeMinutes: null,
  genres: [],
  rating: null,
  directors: [],
  cast: [],
  ids: {},
  collection: null,
};
const noEpisodeFields: NfoEpisodeFields = {
  title: null,
  showTitle: null,
  season: null,
  episode: null,
  overview: null,
  airDate: null,
  runtimeMinutes: null,
  rating: null,
  ids: {},
};
const movie = (fields: Partial<NfoTitleFields>): NfoResult => ({ ok: true, kind: 'movie', fields: { ...noTitleFields, ...fields } });
const show = (fields: Partial<NfoTitleFields>): NfoResult => ({ ok: true, kind: 'tvshow', fields: { ...noTitleFields, ...fields } });
const episodes = (...list: Partial<NfoEpisodeFields>[]): NfoResult => ({
  ok: true,
  kind: 'episode',
  fields: list.map((fields) => ({ ...noEpisodeFields, ...fields })),
});

// A movie NFO as Kodi 20 exports it (shortened: most actors, sets and file info left out).
const KODI_MOVIE = `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
<!-- created on 2024-01-01 - Kodi -->
<movie>
    <title>The Matrix</title>
    <originaltitle>The Matrix</originaltitle>
    <sorttitle>Matrix 1</sorttitle>
    <ratings>
        <rating name="imdb" max="10">
            <value>8.700000</value>
            <votes>2000000</votes>
        </rating>
        <rating name="themoviedb" max="10" default="true">
            <value>8.217000</value>
            <votes>25000</votes>
        </rating>
    </ratings>
    <userrating>0</userrating>
    <top250>0</top250>
    <outline></outline>
    <plot>Set in the 22nd century, The Matrix tells the story of a computer hacker who joins a group of underground insurgents fighting the vast and powerful computers who now rule the earth.</plot>
    <tagline>Welcome to the Real World.</tagline>
    <runtime>136</runtime>
    <thumb aspect="poster" preview="https://image.tmdb.org/t/p/w500/poster.jpg">https://image.tmdb.org/t/p/original/poster.jpg</thumb>
    <mpaa>Rated R</mpaa>
    <playcount>0</playcount>
    <id>tt0133093</id>
    <uniqueid type="imdb">tt0133093</uniqueid>
    <uniqueid type="tmdb" default="true">603</uniqueid>
    <genre>Action</genre>
    <genre>Science Fiction</genre>
    <country>United States of America</country>
    <premiered>1999-03-30</premiered>
    <year>1999</year>
    <studio>Warner Bros. Pictures</studio>
    <director>Lana Wachowski</director>
    <director>Lilly Wachowski</director>
    <actor>
        <name>Laurence Fishburne</name>
        <role>Morpheus</role>
        <order>1</order>
        <thumb>https://image.tmdb.org/t/p/original/fishburne.jpg</thumb>
    </actor>
    <actor>
        <name>Keanu Reeves</name>
        <role>Neo</role>
        <order>0</order>
    </actor>
</movie>
`;

const MATRIX = movie({
  title: 'The Matrix',
  originalTitle: 'The Matrix',
  year: 1999,
  overview:
    'Set in the 22nd century, The Matrix tells the story of a computer hacker who joins a group of underground insurgents fighting the vast and powerful computers who now rule the earth.',
  tagline: 'Welcome to the Real World.',
  runtimeMinutes: 136,
  genres: ['Action', 'Science Fiction'],
  rating: 8.22,
  directors: ['Lana Wachowski', 'Lilly Wachowski'],
  cast: [
    { name: 'Keanu Reeves', character: 'Neo', order: 0 },
    { name: 'Laurence Fishburne', character: 'Morpheus', order: 1 },
  ],
  ids: { tmdb: 603, imdb: 'tt0133093' },
});

type Row = readonly [why: string, input: string, expected: NfoResult];

const rows: Row[] = [
  ['a Kodi 20 movie export', KODI_MOVIE, MATRIX],
  [
    'an older movie NFO: bare <rating>, <id> from the IMDb scraper, year from <premiered>, outline for plot',
    `<movie><title>Heat</title><rating>8.2</rating><year>0</year><premiered>1995-12-15</premiered>
     <outline>A group of high-end professional thieves.</outline><id>tt0113277</id><genre>Action / Crime / Drama</genre></movie>`,
    movie({
      title: 'Heat',
      year: 1995,
      rating: 8.2,
      overview: 'A group of high-end professional thieves.',
      genres: ['Action', 'Crime', 'Drama'],
      ids: { imdb: 'tt0113277' },
    }),
  ],
  [
    'a <set> with the provider’s collection id as a tmdbcolid attribute, Kodi’s <name> and <overview> inside',
    '<movie><title>Alien</title><set tmdbcolid="8091"><name>Alien Collection</name><overview>Ripley and the xenomorphs.</overview></set></movie>',
    movie({ title: 'Alien', collection: { id: 8091, name: 'Alien Collection' } }),
  ],
  [
    'an older bare <set>Name</set> with Jellyfin’s <collectionnumber> beside it',
    '<movie><title>Alien</title><set>Alien  Collection</set><collectionnumber>8091</collectionnumber></movie>',
    movie({ title: 'Alien', collection: { id: 8091, name: 'Alien Collection' } }),
  ],
  [
    // Kept by id, never by name: a name alone could be another collection's, or a set someone made up.
    'a <set> without a collection id is left out',
    '<movie><title>Alien</title><set><name>Alien Collection</name></set><collectionnumber>none</collectionnumber></movie>',
    movie({ title: 'Alien' }),
  ],
  [
    'a show’s <set> is no film collection',
    '<tvshow><title>Firefly</title><set tmdbcolid="1">Whedon</set></tvshow>',
    show({ title: 'Firefly' }),
  ],
  [
    'a bare numeric <id> in a movie is the TMDB scraper’s id',
    '<movie><title>Heat</title><id>949</id></movie>',
    movie({ title: 'Heat', ids: { tmdb: 949 } }),
  ],
  [
    'Jellyfin’s <tmdbid>, <imdbid> and <releasedate>',
    '<movie><title>Dune</title><tmdbid>841</tmdbid><imdbid>tt0087182</imdbid><releasedate>1984-12-14</releasedate></movie>',
    movie({ title: 'Dune', year: 1984, ids: { tmdb: 841, imdb: 'tt0087182' } }),
  ],
  [
    '<uniqueid> wins over <tmdbid> and <id>',
    '<movie><id>1</id><tmdbid>2</tmdbid><uniqueid type="tmdb">3</uniqueid></movie>',
    movie({ ids: { tmdb: 3 } }),
  ],
  [
    'the default <uniqueid> wins among several of one type',
    '<movie><uniqueid type="tmdb">10</uniqueid><uniqueid type="tmdb" default="true">11</uniqueid></movie>',
    movie({ ids: { tmdb: 11 } }),
  ],
  [
    'ids that are not ids are dropped',
    '<movie><tmdbid>0</tmdbid><imdbid>0133093</imdbid><uniqueid type="tmdb">abc</uniqueid><id>-5</id></movie>',
    movie({}),
  ],
  [
    'without a default rating, TMDB’s is taken',
    '<movie><ratings><rating name="imdb"><value>7.1</value></rating><rating name="tmdb"><value>6.9</value></rating></ratings></movie>',
    movie({ rating: 6.9 }),
  ],
  [
    'a rating on another scale is brought to 0..10',
    '<movie><ratings><rating name="metacritic" max="100" default="true"><value>73</value></rating></ratings></movie>',
    movie({ rating: 7.3 }),
  ],
  ['Kodi’s zeros mean "none": rating, runtime, year', '<movie><rating>0</rating><runtime>0</runtime><year>0</year></movie>', movie({})],
  ['a runtime with its unit', '<movie><runtime>142 min</runtime></movie>', movie({ runtimeMinutes: 142 })],
  [
    'entities and character references decoded, whitespace trimmed and collapsed',
    '<movie><title>  Tom &amp; Jerry:\n   the &#x4D;ovie </title><originaltitle>Am&#233;lie</originaltitle><tagline><![CDATA[Cats & mice]]></tagline></movie>',
    movie({ title: 'Tom & Jerry: the Movie', originalTitle: 'Amélie', tagline: 'Cats & mice' }),
  ],
  ['a plot keeps its paragraphs', '<movie><plot>\n  First.\r\n\r\nSecond.  \n</plot></movie>', movie({ overview: 'First.\n\nSecond.' })],
  [
    'empty elements are absent, and the first non-empty one counts',
    '<movie><title></title><title/><title>  </title><title>Real</title><genre></genre><genre> / Drama /</genre></movie>',
    movie({ title: 'Real', genres: ['Drama'] }),
  ],
  [
    'genres keep their first spelling, once',
    '<movie><genre>Drama</genre><genre>drama / Crime</genre></movie>',
    movie({ genres: ['Drama', 'Crime'] }),
  ],
  [
    'people as other tools write them: directors joined with " / ", actors without an order or a role, an actor without a name left out',
    '<movie><director>Joel Coen / Ethan Coen</director><director>joel coen</director><actor><name>Frances McDormand</name></actor><actor><role>Extra</role></actor><actor><name>William H. Macy</name><order>x</order></actor></movie>',
    movie({
      directors: ['Joel Coen', 'Ethan Coen'],
      cast: [
        { name: 'Frances McDormand', character: '', order: 0 },
        { name: 'William H. Macy', character: '', order: 2 },
      ],
    }),
  ],
  [
    'hand-written tags in any case',
    '<Movie><Title>Alien</Title><Year>1979</Year><UniqueID Type="TMDB">348</UniqueID></Movie>',
    movie({ title: 'Alien', year: 1979, ids: { tmdb: 348 } }),
  ],
  [
    'a TV show',
    `<?xml version="1.0" encoding="UTF-8"?>
     <tvshow><title>Doctor Who</title><originaltitle>Doctor Who</originaltitle><premiered>2005-03-26</premiered>
     <plot>The Doctor travels in time.</plot><id>78804</id>
     <uniqueid type="tvdb" default="true">78804</uniqueid><uniqueid type="tmdb">57243</uniqueid><uniqueid type="imdb">tt0436992</uniqueid>
     <genre>Action &amp; Adventure</genre><genre>Drama</genre><status>Ended</status></tvshow>`,
    show({
      title: 'Doctor Who',
      originalTitle: 'Doctor Who',
      year: 2005,
      overview: 'The Doctor travels in time.',
      genres: ['Action & Adventure', 'Drama'],
      ids: { tmdb: 57243, imdb: 'tt0436992', tvdb: 78804 },
    }),
  ],
  [
    'a bare numeric <id> in a show is not taken as TMDB’s (it has long been TVDB’s)',
    '<tvshow><title>House</title><id>73255</id></tvshow>',
    show({ title: 'House' }),
  ],
  ['a show titled only by <showtitle>', '<tvshow><showtitle>House</showtitle></tvshow>', show({ title: 'House' })],
  [
    'an episode',
    `<episodedetails><title>Rose</title><showtitle>Doctor Who</showtitle><season>1</season><episode>1</episode>
     <aired>2005-03-26</aired><plot>Rose meets the Doctor.</plot><runtime>45</runtime><rating>7.5</rating>
     <uniqueid type="tvdb" default="true">295296</uniqueid><id>295296</id></episodedetails>`,
    episodes({
      title: 'Rose',
      showTitle: 'Doctor Who',
      season: 1,
      episode: 1,
      airDate: '2005-03-26',
      overview: 'Rose meets the Doctor.',
      runtimeMinutes: 45,
      rating: 7.5,
      ids: { tvdb: 295296 },
    }),
  ],
  [
    'a special, and Kodi’s -1 for "no number"',
    '<episodedetails><season>0</season><episode>-1</episode><aired>1969-13-01</aired></episodedetails>',
    episodes({ season: 0 }),
  ],
  [
    'a multi-episode file holds several <episodedetails>',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?>
     <episodedetails><title>Part One</title><season>1</season><episode>5</episode></episodedetails>
     <episodedetails><title>Part Two</title><season>1</season><episode>6</episode></episodedetails>`,
    episodes({ title: 'Part One', season: 1, episode: 5 }, { title: 'Part Two', season: 1, episode: 6 }),
  ],
  // Parsing NFOs: only a link.
  [
    'a TMDB movie link',
    'https://www.themoviedb.org/movie/603-the-matrix\n',
    { ok: true, kind: 'link', fields: { ids: { tmdb: 603 }, tmdbType: 'movie' } },
  ],
  [
    'a TMDB TV link',
    'https://www.themoviedb.org/tv/57243-doctor-who?language=en-US',
    { ok: true, kind: 'link', fields: { ids: { tmdb: 57243 }, tmdbType: 'tv' } },
  ],
  [
    'an IMDb link',
    'https://www.imdb.com/title/tt0133093/',
    { ok: true, kind: 'link', fields: { ids: { imdb: 'tt0133093' }, tmdbType: null } },
  ],
  [
    'a localised mobile IMDb link',
    'http://m.imdb.com/de/title/tt0133093/?ref_=fn_al_tt_1',
    { ok: true, kind: 'link', fields: { ids: { imdb: 'tt0133093' }, tmdbType: null } },
  ],
  ['a TVDB link', 'http://thetvdb.com/?tab=series&id=78804', { ok: true, kind: 'link', fields: { ids: { tvdb: 78804 }, tmdbType: null } }],
  [
    'a release NFO of plain text with an IMDb link',
    '   ░▒▓ SOME.GROUP ▓▒░\r\n Title....: The Matrix\r\n IMDb.....: http://www.imdb.com/title/tt0133093/\r\n\u001a',
    { ok: true, kind: 'link', fields: { ids: { imdb: 'tt0133093' }, tmdbType: null } },
  ],
  [
    'broken XML beside a link still names the title',
    '<movie><title>x</movie>\nhttps://www.themoviedb.org/movie/603',
    { ok: true, kind: 'link', fields: { ids: { tmdb: 603 }, tmdbType: 'movie' } },
  ],
  // XML followed by a link.
  [
    'a link after the XML fills the ids the XML lacks',
    '<movie><title>The Matrix</title><uniqueid type="imdb">tt0133093</uniqueid></movie>\nhttps://www.themoviedb.org/movie/603-the-matrix?a=1&b=2',
    movie({ title: 'The Matrix', ids: { tmdb: 603, imdb: 'tt0133093' } }),
  ],
  [
    'the XML’s own ids win over the link’s',
    '<movie><tmdbid>603</tmdbid></movie>https://www.themoviedb.org/movie/604',
    movie({ ids: { tmdb: 603 } }),
  ],
  [
    'a TMDB link to the other collection is not taken',
    '<movie><title>Doctor Who</title></movie>\nhttps://www.themoviedb.org/tv/57243',
    movie({ title: 'Doctor Who' }),
  ],
  [
    'a link inside an element is not a parsing link',
    '<movie><plot>See https://www.imdb.com/title/tt0000001/ too</plot></movie>',
    movie({ overview: 'See https://www.imdb.com/title/tt0000001/ too' }),
  ],
  // Files that are not usable NFOs.
  ['an empty file', '', { ok: false, reason: 'empty file' }],
  ['only whitespace', ' \n\t\r\n ', { ok: false, reason: 'empty file' }],
  ['plain text without a link', 'Ripped by me. Enjoy!', { ok: false, reason: 'neither XML nor a provider link' }],
  [
    'an unclosed element',
    '<movie><title>x</movie>',
    { ok: false, reason: "bad XML: Expected closing tag 'title' (opened in line 1, col 8) instead of closing tag 'movie'. (line 1)" },
  ],
  [
    'a multi-episode file with a broken entry',
    '<episodedetails><title>A</title></episodedetails>\n<episodedetails><title>B</episodedetails>',
    {
      ok: false,
      reason: "bad XML: Expected closing tag 'title' (opened in line 2, col 17) instead of closing tag 'episodedetails'. (line 2)",
    },
  ],
  [
    'a music video NFO',
    '<musicvideo><title>x</title></musicvideo>',
    { ok: false, reason: 'root <musicvideo> is not <movie>, <tvshow>, <episodedetails>' },
  ],
  [
    'an HTML page saved as .nfo',
    '<html><body>404</body></html>',
    { ok: false, reason: 'root <html> is not <movie>, <tvshow>, <episodedetails>' },
  ],
  ['a movie and a show in one file', '<movie/><tvshow/>', { ok: false, reason: 'several root elements: <movie>, <tvshow>' }],
  ['two movies in one file', '<movie/><movie/>', { ok: false, reason: 'several <movie> elements' }],
  ['only a comment', '<!-- nothing here -->', { ok: false, reason: 'bad XML: Start tag expected. (line 1)' }],
  [
    'an element name the parser refuses to make a key of',
    '<movie><constructor>x</constructor></movie>',
    {
      ok: false,
      reason: 'bad XML: [SECURITY] Invalid name: "constructor" is a reserved JavaScript keyword that could cause prototype pollution',
    },
  ],
];

describe('parseNfo', () => {
  for (const [why, input, expected] of rows) {
    it(why, () => assert.deepEqual(parseNfo(input), expected));
  }

  it('reads UTF-8 bytes with a byte order mark', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(KODI_MOVIE, 'utf8')]);
    assert.deepEqual(parseNfo(bytes), MATRIX);
  });

  it('reads UTF-16 bytes, which Windows editors write as "Unicode"', () => {
    const little = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<movie><title>Amélie</title></movie>', 'utf16le')]);
    assert.deepEqual(parseNfo(little), movie({ title: 'Amélie' }));
    const big = Buffer.from(little).swap16();
    assert.deepEqual(parseNfo(big), movie({ title: 'Amélie' }));
  });

  it('refuses binary data', () => {
    const junk = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256);
    assert.deepEqual(parseNfo(junk), { ok: false, reason: 'binary data, not text' });
    assert.deepEqual(parseNfo('<movie>\u0000</movie>'), { ok: false, reason: 'binary data, not text' });
  });

  it('refuses a file over the size cap without reading it', () => {
    const big = `<movie><plot>${'x'.repeat(MAX_NFO_BYTES)}</plot></movie>`;
    assert.deepEqual(parseNfo(big), { ok: false, reason: `over ${MAX_NFO_BYTES} bytes, too big for an NFO` });
    assert.deepEqual(parseNfo(new Uint8Array(MAX_NFO_BYTES + 1)), { ok: false, reason: `over ${MAX_NFO_BYTES} bytes, too big for an NFO` });
  });

  it('counts the cap in bytes, not characters', () => {
    const title = 'é'.repeat(MAX_NFO_BYTES / 2); // 2 bytes each in UTF-8
    assert.equal(parseNfo(`<movie><title>${title}</title></movie>`).ok, false);
  });

  it('refuses entity declarations: no expansion bomb, no external entity', () => {
    const laughs = `<?xml version="1.0"?>
      <!DOCTYPE movie [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>
      <movie><title>&c;</title></movie>`;
    const external = '<!DOCTYPE movie [<!ENTITY x SYSTEM "file:///etc/passwd">]><movie><title>&x;</title></movie>';
    const reason = 'has a DOCTYPE or entity declaration, which NFOs never need';
    assert.deepEqual(parseNfo(laughs), { ok: false, reason });
    assert.deepEqual(parseNfo(external), { ok: false, reason });
  });

  it('leaves undeclared entities as written', () => {
    assert.deepEqual(parseNfo('<movie><title>A &unknown; B</title></movie>'), movie({ title: 'A &unknown; B' }));
  });

  it('answers quickly for hostile shapes near the cap', () => {
    const hostile = [
      '<a>'.repeat(200_000),
      `<movie>${'<genre>x</genre>'.repeat(60_000)}</movie>`,
      `<movie><title>${'&amp;'.repeat(200_000)}</title></movie>`,
      '<'.repeat(MAX_NFO_BYTES - 1),
      `<movie>${'<x a="1" '.repeat(100_000)}</movie>`,
      `${'https://www.themoviedb.org/movie/'.repeat(30_000)}`,
    ];
    for (const input of hostile) {
      const started = performance.now();
      const result = parseNfo(input);
      const took = performance.now() - started;
      assert.equal(typeof result.ok, 'boolean');
      // Each takes well under a second on an idle box; the bound only tells linear from runaway.
      assert.ok(took < 5000, `took ${Math.round(took)} ms for ${input.slice(0, 20)}…`);
    }
  });

  it('never throws, whatever the input', () => {
    const xmlish = fc
      .array(
        fc.constantFrom(
          '<movie>',
          '</movie>',
          '<title>',
          '</title>',
          '<episodedetails>',
          '</episodedetails>',
          '<!DOCTYPE',
          '&amp;',
          '&#',
          '<![CDATA[',
          ']]>',
          '<?xml ?>',
          'tt0133093',
          'themoviedb.org/movie/1',
          '/',
          ' ',
        ),
        { maxLength: 30 },
      )
      .map((parts) => parts.join(''));
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'binary' }), xmlish, fc.uint8Array()), (input) => {
        const result = parseNfo(input);
        assert.equal(typeof result.ok, 'boolean');
      }),
      { numRuns: 500 },
    );
  });
});

describe('pickEpisode', () => {
  const parsed = parseNfo(
    '<episodedetails><title>A</title><season>1</season><episode>5</episode></episodedetails><episodedetails><title>B</title><season>1</season><episode>6</episode></episodedetails>',
  );
  const entries = parsed.ok && parsed.kind === 'episode' ? parsed.fields : [];

  it('finds the entry of one episode in a multi-episode file', () => {
    assert.equal(pickEpisode(entries, 1, 6)?.title, 'B');
    assert.equal(pickEpisode(entries, 1, 7), undefined);
  });

  it('applies a file of one entry whole, numbered or not', () => {
    assert.equal(pickEpisode([{ ...noEpisodeFields, title: 'Only' }], 3, 9)?.title, 'Only');
  });
});
