// The one rule for splitting names and paths (lib/naming/path.ts), dot names above all.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lastSegment, parentPath, splitExtension, splitRelPath } from '../../../lib/naming/path';

describe('splitExtension', () => {
  const rows: [name: string, base: string, ext: string, why: string][] = [
    ['Movie.2010.MKV', 'Movie.2010', 'mkv', 'the last dot splits; the extension lower case'],
    ['Movie', 'Movie', '', 'no dot, no extension'],
    ['.hidden', '.hidden', '', 'a leading dot starts a hidden name, not an extension'],
    ['.srt', '.srt', '', 'a dot and an extension alone is a hidden file with no name, not a subtitle'],
    ['.hidden.srt', '.hidden', 'srt', 'a hidden file with a name has an extension'],
    ['Movie.', 'Movie.', '', 'a trailing dot has no extension after it'],
    ['.', '.', '', 'a dot alone'],
    ['..', '..', '', 'two dots'],
    ['', '', '', 'nothing'],
    ['Movie..mkv', 'Movie.', 'mkv', 'two dots in a row: the last splits'],
    ['Dr. No (1962).mp4', 'Dr. No (1962)', 'mp4', 'a dot inside the title stays in the base'],
  ];
  for (const [name, base, ext, why] of rows) {
    it(`splits ${JSON.stringify(name)}: ${why}`, () => assert.deepEqual(splitExtension(name), { base, ext }));
  }
});

describe('lastSegment and parentPath', () => {
  const rows: [path: string, parent: string, last: string, why: string][] = [
    ['Films/Heat (1995)/Heat (1995).mkv', 'Films/Heat (1995)', 'Heat (1995).mkv', 'a file two folders down'],
    ['Heat.mkv', '', 'Heat.mkv', 'a file at the root'],
    ['Show/.hidden', 'Show', '.hidden', 'a dot name is a name like any other'],
    ['a\\b.srt', '', 'a\\b.srt', 'a backslash is part of the name, not a separator'],
    ['/Heat.mkv', '', 'Heat.mkv', 'a leading slash leaves no folder'],
    ['', '', '', 'nothing'],
  ];
  for (const [path, parent, last, why] of rows) {
    it(`splits ${JSON.stringify(path)}: ${why}`, () => assert.deepEqual([parentPath(path), lastSegment(path)], [parent, last]));
  }
});

describe('splitRelPath', () => {
  it('drops empty and "." segments and composes accents', () =>
    assert.deepEqual(splitRelPath('./Films//Ame\u0301lie/./Ame\u0301lie.mkv'), {
      dirs: ['Films', 'Am\u00e9lie'],
      file: 'Am\u00e9lie.mkv',
    }));
});
