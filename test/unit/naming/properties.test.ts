import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ignoreReason, isVideoFile, parseEpisode, parseMovie } from '../../../lib/naming';

// Arbitrary text, plus path-shaped text built from the pieces real names are made of, so the
// rules' interesting branches (years, tags, markers, parts) get exercised, not only noise.
const pieces = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '/',
    '.',
    ' ',
    '-',
    '_',
    '(',
    ')',
    '[',
    ']',
    '{',
    '}',
    '（',
    '）',
    '.mkv',
    '.MP4',
    '.avi',
    'Season 01',
    'Specials',
    'S01E02',
    's1e2',
    '-E03',
    'E04',
    '1x02',
    '-1x03',
    '(2010)',
    '2049',
    '1080p',
    'x264',
    'BluRay',
    'cd1',
    'part 2',
    'dvd9',
    '[tmdbid-123]',
    '{tmdb-0}',
    '[imdbid-tt1]',
    'sample',
    'Extras',
    '@eaDir',
    'Amélie',
    'Ame\u0301lie',
    '千と千尋',
    '😀',
    '\u200d',
    'S.W.A.T.',
    'EXTENDED',
    '3D',
    '[nextorrent.org]',
    'www.site.com',
    'S06xE01',
    '5x9',
    'Ep. 02',
    'Ac3',
    '(BluRay)',
    ' - 1080p',
    '\uD800',
  ),
);
const paths = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string(),
  fc.array(pieces, { maxLength: 24 }).map((p) => p.join('')),
);

describe('naming parsers on any input', () => {
  it('parseMovie and parseEpisode always return an object with a boolean ok and never throw', () => {
    fc.assert(
      fc.property(paths, (path) => {
        for (const result of [parseMovie(path), parseEpisode(path)]) {
          assert.equal(typeof result, 'object');
          assert.notEqual(result, null);
          assert.equal(typeof result.ok, 'boolean');
          if (!result.ok) assert.equal(typeof result.reason, 'string');
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('a parsed movie or episode always has a non-empty title, a year in range and whole numbers', () => {
    fc.assert(
      fc.property(paths, (path) => {
        const movie = parseMovie(path);
        if (movie.ok) {
          assert.notEqual(movie.title, '');
          assert.equal(movie.title, movie.title.trim());
          assert.ok(movie.year === null || (movie.year >= 1880 && movie.year <= 2100));
          assert.ok(movie.part === null || (Number.isInteger(movie.part) && movie.part >= 1));
          assert.ok(movie.tmdbId === null || (Number.isInteger(movie.tmdbId) && movie.tmdbId > 0));
        }
        const episode = parseEpisode(path);
        if (episode.ok) {
          assert.notEqual(episode.showTitle, '');
          assert.ok(Number.isInteger(episode.season) && episode.season >= 0);
          assert.ok(episode.episodes.length >= 1);
          assert.deepStrictEqual(
            episode.episodes,
            [...episode.episodes].sort((a, b) => a - b),
          );
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it('ignoreReason and isVideoFile never throw', () => {
    fc.assert(
      fc.property(paths, (path) => {
        const reason = ignoreReason(path);
        assert.ok(reason === undefined || typeof reason === 'string');
        assert.equal(typeof isVideoFile(path), 'boolean');
      }),
      { numRuns: 5_000 },
    );
  });

  it('reads NFC and NFD spellings of a path the same way', () => {
    fc.assert(
      fc.property(paths, (path) => {
        const nfd = path.normalize('NFD');
        assert.deepStrictEqual(parseMovie(nfd), parseMovie(path.normalize('NFC')));
        assert.deepStrictEqual(parseEpisode(nfd), parseEpisode(path.normalize('NFC')));
      }),
      { numRuns: 2_000 },
    );
  });
});
