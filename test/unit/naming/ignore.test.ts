import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IGNORE_MARKER, ignoreReason, isVideoFile, VIDEO_EXTENSIONS, type IgnoreReason } from '../../../lib/naming';

describe('ignoreReason', () => {
  const rows: Array<readonly [path: string, expected: IgnoreReason | undefined]> = [
    // Hidden: any segment starting with a dot.
    ['Movie (2010)/.DS_Store', 'hidden'],
    ['.hidden/Movie (2010).mkv', 'hidden'],
    ['Movie (2010)/._Movie (2010).mkv', 'hidden'], // macOS AppleDouble twin
    ['Movie (2010)/.ignore', 'hidden'],
    ['Show/.actors/Season 1/x.mkv', 'hidden'],
    ['.Sample/x.mkv', 'hidden'], // hidden is reported first
    // NAS and OS housekeeping.
    ['@eaDir/Movie.mkv@SynoEAStream', 'system'],
    ['Movie (2010)/@eaDir/Movie (2010).mkv/SYNOVIDEO_VIDEO_SCREENSHOT.jpg', 'system'],
    ['Movie (2010)/Movie (2010).mkv@SynoResource', 'system'],
    ['#recycle/Old Movie (2001).mkv', 'system'],
    ['lost+found/#12345', 'system'],
    ['$RECYCLE.BIN/S-1-5-21/x.mkv', 'system'],
    ['System Volume Information/x', 'system'],
    ['__MACOSX/Movie (2010)/x.mkv', 'system'],
    ['Movie (2010)/Thumbs.db', 'system'],
    // Samples: a sample folder at any depth, or "sample" as the first or last word of a file.
    ['Movie (2010)/movie-sample.mkv', 'sample'],
    ['Movie (2010)/Sample/x.mkv', 'sample'],
    ['Sample/x.mkv', 'sample'],
    ['Movie (2010)/sample.mkv', 'sample'],
    ['Movie (2010)/SAMPLE-grp-movie.mkv', 'sample'],
    ['Movie.2010.1080p.BluRay.x264-GRP/movie.2010.1080p.bluray.x264-grp.sample.mkv', 'sample'],
    ['Show/Season 1/Samples/Show.S01E01.sample.mkv', 'sample'],
    ['Samples of Life (2015).mkv', undefined], // "Samples" is another word
    ['The Sample (2019)/The Sample (2019).mkv', undefined], // the title's last word is followed by the year
    ['Sampler (2021).mkv', undefined],
    // Extras folders below the top level, and Jellyfin's extra-file suffixes.
    ['Movie (2010)/Extras/Making of.mkv', 'extra'],
    ['Movie (2010)/Featurettes/x.mkv', 'extra'],
    ['Movie (2010)/Behind The Scenes/x.mkv', 'extra'],
    ['Movie (2010)/deleted scenes/x.mkv', 'extra'],
    ['Movie (2010)/TRAILERS/x.mkv', 'extra'],
    ['Movie (2010)/Interviews', 'extra'], // the folder itself, before descending
    ['Show/Season 1/Extras/Bloopers/x.mkv', 'extra'], // nested
    ['Show/Other/x.mkv', 'extra'],
    ['Movie (2010)/Movie (2010)-trailer.mkv', 'extra'],
    ['Movie (2010)/Movie (2010)-behindthescenes.mp4', 'extra'],
    ['Movie (2010)/trailer.mp4', 'extra'],
    // Kept.
    ['Extras/Season 1/Extras.S01E01.mkv', undefined], // a top-level folder is a title: the show "Extras"
    ['Shorts (2020)/Shorts (2020).mkv', undefined],
    ['The Other (1972)/The Other (1972).mkv', undefined],
    ['Crime.Scene.2019.mkv', undefined],
    ['Show/Specials/Show.S00E01.mkv', undefined], // specials are season 0, not extras
    ['Inception (2010)/Inception (2010).mkv', undefined],
    ['千と千尋の神隠し (2001)/千と千尋の神隠し (2001).mkv', undefined],
    ['', undefined],
  ];
  for (const [path, expected] of rows) {
    it(`${expected ? `ignores ${JSON.stringify(path)} as ${expected}` : `keeps ${JSON.stringify(path)}`}`, () => {
      assert.deepStrictEqual(ignoreReason(path), expected);
    });
  }

  it('names the marker file that makes a crawler skip a folder', () => {
    assert.equal(IGNORE_MARKER, '.ignore');
  });
});

describe('isVideoFile', () => {
  const rows: Array<readonly [name: string, expected: boolean]> = [
    ['Movie.mkv', true],
    ['Movie.MKV', true], // extensions are case-insensitive
    ['clip.mp4', true],
    ['Concert.M2TS', true],
    ['recording.ts', true], // MPEG transport stream
    ['Show/Season 1/e01.webm', true], // a path works too
    ['poster.jpg', false],
    ['movie.nfo', false],
    ['Movie.iso', false], // disc images are out of scope
    ['Movie.strm', false], // a URL in a text file
    ['movie.mkv.part', false], // an unfinished download
    ['.mkv', false], // a hidden file, not a video named ""
    ['mkv', false],
    ['', false],
  ];
  for (const [name, expected] of rows) {
    it(`${expected ? 'accepts' : 'refuses'} ${JSON.stringify(name)}`, () => {
      assert.equal(isVideoFile(name), expected);
    });
  }

  it('lists extensions in lowercase, without dots, once each', () => {
    for (const ext of VIDEO_EXTENSIONS) assert.match(ext, /^[a-z0-9]+$/);
    assert.equal(new Set(VIDEO_EXTENSIONS).size, VIDEO_EXTENSIONS.length);
    for (const ext of ['mkv', 'mp4', 'm4v', 'avi', 'mov', 'webm', 'ts', 'm2ts', 'mts', 'wmv', 'mpg', 'mpeg', 'flv', 'ogv', '3gp', 'vob']) {
      assert.ok(VIDEO_EXTENSIONS.includes(ext), ext);
    }
  });
});
