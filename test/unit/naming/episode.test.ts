import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseEpisode, type EpisodeResult } from '../../../lib/naming';

// Expected fields of a parsed episode; showYear and tmdbId default to null.
type Episode = { showTitle: string; season: number; episodes: number[]; showYear?: number | null; tmdbId?: number | null };
type Expected = Episode | { ok: false };
type Row = readonly [path: string, expected: Expected];

const picked = (result: EpisodeResult) =>
  result.ok
    ? { showTitle: result.showTitle, showYear: result.showYear, season: result.season, episodes: result.episodes, tmdbId: result.tmdbId }
    : { ok: false as const };

const wanted = (expected: Expected) => ('ok' in expected ? expected : { showYear: null, tmdbId: null, ...expected });

const says = (expected: Expected) =>
  'ok' in expected
    ? 'not an episode'
    : `${JSON.stringify(expected.showTitle)} season ${expected.season} episode ${expected.episodes.join('+')}`;

const rows: Row[] = [
  // Show/Season/file, the Jellyfin layout.
  ['Breaking Bad/Season 01/Breaking.Bad.S01E02.720p.mkv', { showTitle: 'Breaking Bad', season: 1, episodes: [2] }],
  ['Breaking Bad/Season 1/breaking.bad.s1e2.mkv', { showTitle: 'Breaking Bad', season: 1, episodes: [2] }],
  [
    'Game of Thrones/Season 08/Game.of.Thrones.S08E06.The.Iron.Throne.2160p.mkv',
    { showTitle: 'Game of Thrones', season: 8, episodes: [6] },
  ],
  ['The Office (US)/Season 02/The Office (US) - S02E01 - The Dundies.mkv', { showTitle: 'The Office (US)', season: 2, episodes: [1] }],
  ['Show/S02/Show.S02E03.mkv', { showTitle: 'Show', season: 2, episodes: [3] }],
  ['Show/Season 2/Show.S03E01.mkv', { showTitle: 'Show', season: 3, episodes: [1] }], // the file outranks a misfiled folder
  ['Show/Season 1/Show S01.E04.mkv', { showTitle: 'Show', season: 1, episodes: [4] }],
  ['Show/Season 1/Show - Season 1 Episode 2.mkv', { showTitle: 'Show', season: 1, episodes: [2] }],
  ['Show/Season 2010/Show.S2010E05.mkv', { showTitle: 'Show', season: 2010, episodes: [5] }],
  ['SHOW/SEASON 01/SHOW.S01E01.MP4', { showTitle: 'SHOW', season: 1, episodes: [1] }], // uppercase extension
  ['Show/Season 1/Show S01E01 - 24 Hours.mkv', { showTitle: 'Show', season: 1, episodes: [1] }], // " - 24" is a title
  ['Show/Season 1/Show.S01E05-1080p.mkv', { showTitle: 'Show', season: 1, episodes: [5] }], // not a range
  // No folders: the show comes from the file name before the marker.
  ['Breaking.Bad.S01E02.720p.HDTV.x264.mkv', { showTitle: 'Breaking Bad', season: 1, episodes: [2] }],
  ['The.Office.US.S01E01.mkv', { showTitle: 'The Office US', season: 1, episodes: [1] }],
  ['Doctor.Who.2005.S01E01.720p.mkv', { showTitle: 'Doctor Who', showYear: 2005, season: 1, episodes: [1] }],
  ['Show [tmdbid-1396] - S01E01.mkv', { showTitle: 'Show', tmdbId: 1396, season: 1, episodes: [1] }],
  ['Friends - 1x01 - The One Where Monica Gets a Roommate.avi', { showTitle: 'Friends', season: 1, episodes: [1] }],
  // Show folders with years, numbers, tags and release names.
  ['Doctor Who (2005)/Season 01/Doctor.Who.2005.S01E01.Rose.mkv', { showTitle: 'Doctor Who', showYear: 2005, season: 1, episodes: [1] }],
  [
    'Breaking Bad (2008) [tmdbid-1396]/Season 1/Breaking Bad S01E01.mkv',
    { showTitle: 'Breaking Bad', showYear: 2008, tmdbId: 1396, season: 1, episodes: [1] },
  ],
  ['Breaking Bad {tmdb-1396}/Season 1/bb.S01E01.mkv', { showTitle: 'Breaking Bad', tmdbId: 1396, season: 1, episodes: [1] }],
  ['24/Season 1/24.S01E01.mkv', { showTitle: '24', season: 1, episodes: [1] }],
  ['1923 (2022)/Season 1/1923.S01E01.mkv', { showTitle: '1923', showYear: 2022, season: 1, episodes: [1] }],
  ['Breaking.Bad.S01.1080p.BluRay.x264-GRP/Breaking.Bad.S01E05.1080p.mkv', { showTitle: 'Breaking Bad', season: 1, episodes: [5] }],
  ['Breaking Bad Season 2/Breaking.Bad.S02E01.mkv', { showTitle: 'Breaking Bad', season: 2, episodes: [1] }],
  ['Breaking Bad/Breaking.Bad.S02E03.720p.HDTV-GRP/grp-bb-720p.mkv', { showTitle: 'Breaking Bad', season: 2, episodes: [3] }], // obfuscated file
  ['Season 01/Breaking.Bad.S01E01.mkv', { showTitle: 'Breaking Bad', season: 1, episodes: [1] }], // no show folder above
  // Multi-episode files.
  ['Show/Season 1/Show.S01E01-E02.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2] }],
  ['Show/Season 1/Show.S01E01E02.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2] }],
  ['Show/Season 1/Show.S01E01-02.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2] }],
  ['Show/Season 1/Show.S01E01-E03.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2, 3] }], // a dash is a range
  ['Show/Season 1/Show.S01E01E03.mkv', { showTitle: 'Show', season: 1, episodes: [1, 3] }], // concatenation is a list
  ['Show/Season 1/Show.S01E01.E02.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2] }],
  ['Show/Season 1/Show - S01E01 - E02 - Title.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2] }],
  ['Show/Season 1/Show.S01E01-S01E02.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2] }],
  ['Friends/Season 01/Friends - 1x01-1x02.avi', { showTitle: 'Friends', season: 1, episodes: [1, 2] }],
  ['Friends/Season 01/Friends - 1x16-17.avi', { showTitle: 'Friends', season: 1, episodes: [16, 17] }],
  ['Show/Season 1/Show.S01E01-E02-E03.mkv', { showTitle: 'Show', season: 1, episodes: [1, 2, 3] }], // a chained range
  // Specials and bare numbers inside a season folder.
  ['Show/Specials/Show.S00E01.mkv', { showTitle: 'Show', season: 0, episodes: [1] }],
  ['Show/Season 00/Show - 01.mkv', { showTitle: 'Show', season: 0, episodes: [1] }],
  ['Show/Specials/01 - Christmas Special.mkv', { showTitle: 'Show', season: 0, episodes: [1] }],
  ['Show/Season 2/02 - Title.mkv', { showTitle: 'Show', season: 2, episodes: [2] }],
  ['Show/Season 2/E05 - Title.mkv', { showTitle: 'Show', season: 2, episodes: [5] }],
  ['Show/Season 3/Episode 7.mkv', { showTitle: 'Show', season: 3, episodes: [7] }],
  ['Les Revenants (2012)/Saison 1/01.mkv', { showTitle: 'Les Revenants', showYear: 2012, season: 1, episodes: [1] }],
  // Forms peers read right (guessit's test tables, guessit/test/*.yml, and Jellyfin's,
  // tests/Jellyfin.Naming.Tests), as they spell them below the library's own folder ("Series/",
  // "/TV Shows/" dropped); ".mkv" added where the name has no extension.
  ['The Office/Season 6/The Office - S06xE01.avi', { showTitle: 'The Office', season: 6, episodes: [1] }], // guessit episodes.yml
  ['Season 1/seriesname S01x02 blah.avi', { showTitle: 'seriesname', season: 1, episodes: [2] }], // Jellyfin TV/EpisodePathParserTest.cs
  ['Foo/Foo s01x01.mkv', { showTitle: 'Foo', season: 1, episodes: [1] }], // Jellyfin TV/EpisodePathParserTest.cs
  ['Game.of.Thrones.S6.Ep5.X265.Dolby.2.0.KTM3.mp4', { showTitle: 'Game of Thrones', season: 6, episodes: [5] }], // guessit episodes.yml
  ['Mad.M-5x9.mkv', { showTitle: 'Mad M', season: 5, episodes: [9] }], // guessit episodes.yml
  ['Something.1x5.Season.Complete-FlexGet.mkv', { showTitle: 'Something', season: 1, episodes: [5] }], // guessit episodes.yml
  ['Friends - 1x5 - The One with the East German Laundry Detergent.avi', { showTitle: 'Friends', season: 1, episodes: [5] }],
  ['Babylon 5/Season 01/Ep. 02 - Soul Hunter.mkv', { showTitle: 'Babylon 5', season: 1, episodes: [2] }], // guessit episodes.yml
  [
    '[.www.site.com.].-.Snooze.and.Go.Sleep.S03E02.1080p.HEVC.x265-MeGusta.mkv',
    { showTitle: 'Snooze and Go Sleep', season: 3, episodes: [2] },
  ], // guessit episodes.yml
  [
    'From [ WWW.TORRENTING.COM ] - White.Rabbit.Project.S01E08.1080p.NF.WEBRip.DD5.1.x264-ViSUM/White.Rabbit.Project.S01E08.1080p.NF.WEBRip.DD5.1.x264-ViSUM.mkv',
    { showTitle: 'White Rabbit Project', season: 1, episodes: [8] },
  ], // guessit episodes.yml
  ['Show.S01.x264-GRP.mkv', { ok: false }], // a season pack, not episode 264
  ['3x3 Eyes/Season 1/3x3 Eyes - 01.mkv', { showTitle: '3x3 Eyes', season: 1, episodes: [1] }], // a title's own NxN
  // Unicode.
  ['進撃の巨人/Season 1/進撃の巨人 S01E01.mkv', { showTitle: '進撃の巨人', season: 1, episodes: [1] }],
  ['E\u0301lite/Temporada 1/E\u0301lite S01E01.mkv', { showTitle: '\u00c9lite', season: 1, episodes: [1] }], // NFD in, NFC out
  ['Party Show 🎉/Season 1/Party Show 🎉 S01E01.mkv', { showTitle: 'Party Show 🎉', season: 1, episodes: [1] }],
  // Not episodes.
  ['Inception (2010)/Inception (2010).mkv', { ok: false }],
  ['Inception.2010.1080p.BluRay.x264-GROUP.mkv', { ok: false }],
  ['4x4 (2019).mkv', { ok: false }],
  ['Some Movie 1920x1080.mkv', { ok: false }],
  ['Show/Season 1/Pilot.mkv', { ok: false }], // no episode number
  ['S01E01.mkv', { ok: false }], // nothing names the show
  ['Show/Season 1/poster.jpg', { ok: false }],
  ['', { ok: false }],
];

// Rows we do not support, kept so the gap is visible.
const todo: Array<readonly [path: string, expected: Expected, why: string]> = [
  [
    'The Daily Show/Season 2024/The.Daily.Show.2024.01.15.mkv',
    { showTitle: 'The Daily Show', season: 2024, episodes: [115] },
    'date-based episodes need an air-date lookup, not a number',
  ],
  [
    '[SubsPlease] Frieren - 01 (1080p) [ABCD1234].mkv',
    { showTitle: 'Frieren', season: 1, episodes: [1] },
    'absolute (anime) numbering needs the show to map to seasons',
  ],
  ['Show/01 - Pilot.mkv', { showTitle: 'Show', season: 1, episodes: [1] }, 'without a season folder or marker we do not assume season 1'],
  [
    'Show/Season 1/Show - 101.mkv',
    { showTitle: 'Show', season: 1, episodes: [1] },
    'a 3-digit season-and-episode number is read as episode 101',
  ],
];

describe('parseEpisode', () => {
  for (const [path, expected] of rows) {
    it(`reads ${JSON.stringify(path)} as ${says(expected)}`, () => {
      assert.deepStrictEqual(picked(parseEpisode(path)), wanted(expected));
    });
  }
  for (const [path, expected, why] of todo) {
    it(`reads ${JSON.stringify(path)} as ${says(expected)}`, { todo: why }, () => {
      assert.deepStrictEqual(picked(parseEpisode(path)), wanted(expected));
    });
  }

  it('says why a name is not an episode', () => {
    assert.deepStrictEqual(parseEpisode('Inception (2010)/Inception (2010).mkv'), { ok: false, reason: 'no season or episode number' });
    assert.deepStrictEqual(parseEpisode('S01E01.mkv'), { ok: false, reason: 'no show title' });
  });
});
