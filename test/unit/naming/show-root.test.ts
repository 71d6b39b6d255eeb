// A TV library whose root is one show's own folder ("/media/Breaking Bad (2008)"): files with no
// show folder of their own belong to the show the root names; everything else reads as in any
// TV library.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseEpisode, rootFolderName, showDirOf, type EpisodeResult, type ShowFrom } from '../../../lib/naming';

type Episode = {
  showTitle: string;
  showYear: number | null;
  tmdbId?: number | null;
  season: number;
  episodes: number[];
  showFrom: ShowFrom;
};
type Expected = Episode | { ok: false };
type Row = readonly [root: string, path: string, expected: Expected];

const picked = (result: EpisodeResult) =>
  result.ok
    ? {
        showTitle: result.showTitle,
        showYear: result.showYear,
        tmdbId: result.tmdbId,
        season: result.season,
        episodes: result.episodes,
        showFrom: result.showFrom,
      }
    : { ok: false as const };

const wanted = (expected: Expected) => ('ok' in expected ? expected : { tmdbId: null, ...expected });

const says = (expected: Expected) =>
  'ok' in expected
    ? 'not an episode'
    : `${JSON.stringify(expected.showTitle)}${expected.showYear ? ` (${expected.showYear})` : ''} season ${expected.season} episode ${expected.episodes.join('+')}, named by the ${expected.showFrom}`;

const rows: Row[] = [
  // Season folders at the root: the root is the show, whatever the file names say.
  [
    'Breaking Bad',
    'Season 1/Breaking.Bad.S01E01.mkv',
    { showTitle: 'Breaking Bad', showYear: null, season: 1, episodes: [1], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008)',
    'Season 1/Breaking.Bad.S01E01.720p.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [1], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008)',
    'Season 02/02 - Grilled.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 2, episodes: [2], showFrom: 'root' },
  ],
  ['Breaking Bad (2008)', 'Season 1/S01E03.mkv', { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [3], showFrom: 'root' }],
  [
    'Breaking Bad (2008)',
    'Season 1/bb.s01e04.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [4], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008)',
    'Specials/Breaking.Bad.S00E01.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 0, episodes: [1], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008)',
    'S03/Breaking.Bad.S03E01.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 3, episodes: [1], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008) [tmdbid-1396]',
    'Season 1/Breaking.Bad.S01E01.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, tmdbId: 1396, season: 1, episodes: [1], showFrom: 'root' },
  ],
  ['Les Revenants (2012)', 'Saison 1/01.mkv', { showTitle: 'Les Revenants', showYear: 2012, season: 1, episodes: [1], showFrom: 'root' }],
  [
    'Breaking.Bad.S01.1080p.BluRay.x264-GRP',
    'Season 1/grp-bb-s01e05.mkv',
    { showTitle: 'Breaking Bad', showYear: null, season: 1, episodes: [5], showFrom: 'root' },
  ], // a season pack added as the library
  ['E\u0301lite', 'Temporada 1/S01E01.mkv', { showTitle: '\u00c9lite', showYear: null, season: 1, episodes: [1], showFrom: 'root' }], // NFD root in, NFC out
  // Loose files at the root: the root's show when they name no show, or name the root's.
  ['Breaking Bad (2008)', 'S01E01.mkv', { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [1], showFrom: 'root' }],
  ['Breaking Bad (2008)', 'S01E01-E02.mkv', { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [1, 2], showFrom: 'root' }],
  [
    'Breaking Bad (2008)',
    'Breaking.Bad.S01E02.720p.HDTV.x264.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [2], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008)',
    'breaking bad - 1x03 - ...And the Bag.avi',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [3], showFrom: 'root' },
  ],
  [
    'Breaking Bad (2008)',
    'Breaking.Bad.2008.S01E04.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, season: 1, episodes: [4], showFrom: 'root' },
  ],
  [
    'Breaking Bad',
    'Breaking.Bad.2008.S01E04.mkv',
    { showTitle: 'Breaking Bad', showYear: null, season: 1, episodes: [4], showFrom: 'root' },
  ], // one show, as the root says
  [
    "Grey's Anatomy",
    'Greys.Anatomy.S01E01.mkv',
    { showTitle: "Grey's Anatomy", showYear: null, season: 1, episodes: [1], showFrom: 'root' },
  ],
  ['Some Show (2019)', 'Some.Show.S02E01.mkv', { showTitle: 'Some Show', showYear: 2019, season: 2, episodes: [1], showFrom: 'root' }],
  // Loose files naming another show keep it: a flat folder of many shows reads as before.
  ['TV', 'The.Wire.S01E01.mkv', { showTitle: 'The Wire', showYear: null, season: 1, episodes: [1], showFrom: 'file' }],
  ['Downloads', 'Doctor.Who.2005.S01E01.720p.mkv', { showTitle: 'Doctor Who', showYear: 2005, season: 1, episodes: [1], showFrom: 'file' }],
  [
    'Doctor Who (2005)',
    'Doctor.Who.1963.S01E01.mkv',
    { showTitle: 'Doctor Who', showYear: 1963, season: 1, episodes: [1], showFrom: 'file' },
  ], // the years disagree
  [
    'Breaking Bad (2008)',
    'Better.Call.Saul.S01E01.mkv',
    { showTitle: 'Better Call Saul', showYear: null, season: 1, episodes: [1], showFrom: 'file' },
  ],
  // A show folder at the root is its own show, in a show's root as in any TV library.
  [
    'TV',
    'Breaking Bad/Season 1/Breaking.Bad.S01E01.mkv',
    { showTitle: 'Breaking Bad', showYear: null, season: 1, episodes: [1], showFrom: 'folder' },
  ],
  [
    'TV',
    'Doctor Who (2005)/Season 01/Doctor.Who.2005.S01E01.mkv',
    { showTitle: 'Doctor Who', showYear: 2005, season: 1, episodes: [1], showFrom: 'folder' },
  ],
  [
    'Breaking Bad (2008)',
    'Better Call Saul/Season 1/Better.Call.Saul.S01E01.mkv',
    { showTitle: 'Better Call Saul', showYear: null, season: 1, episodes: [1], showFrom: 'folder' },
  ], // a stray show folder
  [
    'Breaking Bad (2008)',
    'Breaking.Bad.S05.1080p.BluRay-GRP/Breaking.Bad.S05E01.mkv',
    { showTitle: 'Breaking Bad', showYear: null, season: 5, episodes: [1], showFrom: 'folder' },
  ], // a release folder names itself too
  // A root that names no show: files read as without one.
  ['', 'Season 01/Breaking.Bad.S01E01.mkv', { showTitle: 'Breaking Bad', showYear: null, season: 1, episodes: [1], showFrom: 'file' }],
  ['Season 1', 'Breaking.Bad.S01E01.mkv', { showTitle: 'Breaking Bad', showYear: null, season: 1, episodes: [1], showFrom: 'file' }], // a season folder added as the library
  ['Season 1', 'S01E01.mkv', { ok: false }],
  ['', 'S01E01.mkv', { ok: false }],
  // Not episodes, whatever the root.
  ['Breaking Bad (2008)', 'Season 1/Pilot.mkv', { ok: false }],
  ['Breaking Bad (2008)', 'Season 1/poster.jpg', { ok: false }],
  ['Breaking Bad (2008)', 'Breaking Bad (2008).mkv', { ok: false }],
];

describe('parseEpisode in a library whose root is a show', () => {
  for (const [root, path, expected] of rows) {
    it(`reads ${JSON.stringify(path)} under the root ${JSON.stringify(root)} as ${says(expected)}`, () => {
      assert.deepStrictEqual(picked(parseEpisode(path, root)), wanted(expected));
    });
  }

  it('reads a root and its files as one show however the seasons are laid out', () => {
    const paths = [
      'Season 1/Some.Show.S01E01.mkv',
      'Season 1/Some.Show.S01E02.mkv',
      'Some.Show.S02E01.mkv',
      'S02E02.mkv',
      'Specials/01 - Pilot Special.mkv',
    ];
    const shows = paths.map((path) => {
      const name = parseEpisode(path, 'Some Show (2019)');
      return name.ok ? [name.showTitle, name.showYear, name.showFrom] : name.reason;
    });
    assert.deepStrictEqual(
      shows,
      paths.map(() => ['Some Show', 2019, 'root']),
    );
  });

  it('reads a path without a root exactly as with an empty one', () => {
    fc.assert(
      fc.property(fc.string(), (path) => assert.deepStrictEqual(parseEpisode(path), parseEpisode(path, ''))),
      { numRuns: 1_000 },
    );
  });

  it('never throws, and reads NFC and NFD spellings of a root the same way', () => {
    const names = fc.oneof(
      fc.string(),
      fc.constantFrom('Ame\u0301lie (2001)', 'Season 01', 'S01E01', '(2008)', '[tmdbid-1]', '千と千尋', ''),
    );
    fc.assert(
      fc.property(
        names,
        fc.constantFrom('S01E01.mkv', 'Season 1/01.mkv', 'Ame\u0301lie.S01E01.mkv', 'Show/Season 1/Show.S01E01.mkv'),
        (root, path) => {
          const result = parseEpisode(path, root);
          assert.equal(typeof result.ok, 'boolean');
          assert.deepStrictEqual(parseEpisode(path, root.normalize('NFD')), parseEpisode(path, root.normalize('NFC')));
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('rootFolderName', () => {
  const rows = [
    ['/media/Breaking Bad (2008)', 'Breaking Bad (2008)'],
    ['/media/Breaking Bad (2008)/', 'Breaking Bad (2008)'],
    ['s3://media/tv/Breaking Bad', 'Breaking Bad'],
    ['/', ''],
    ['', ''],
  ] as const;
  for (const [path, name] of rows) {
    it(`names the folder of ${JSON.stringify(path)} ${JSON.stringify(name)}`, () => assert.equal(rootFolderName(path), name));
  }
});

describe('showDirOf', () => {
  const rows = [
    ['Breaking Bad/Season 1/Breaking.Bad.S01E01.mkv', 'folder', 'Breaking Bad'],
    ['Season 1/Breaking.Bad.S01E01.mkv', 'root', ''],
    ['S01E01.mkv', 'root', ''],
    ['The.Wire.S01E01.mkv', 'file', undefined],
  ] as const;
  for (const [path, from, dir] of rows) {
    it(`finds the show folder of ${JSON.stringify(path)} named by the ${from} at ${JSON.stringify(dir)}`, () =>
      assert.equal(showDirOf(path, from), dir));
  }
});
