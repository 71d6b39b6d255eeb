import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IMAGE_EXTENSIONS, isSidecarFile, VIDEO_EXTENSIONS } from '../../../lib/naming';
import { SUBTITLE_EXTENSIONS } from '../../../lib/naming/subtitle-name';

describe('isSidecarFile', () => {
  const rows: [path: string, sidecar: boolean, why: string][] = [
    ['Heat (1995)/Heat (1995).nfo', true, 'an NFO'],
    ['Heat (1995)/poster.JPG', true, 'artwork, the extension in any case'],
    ['Heat (1995)/fanart.jpeg', true, 'jpeg spelled out'],
    ['Heat (1995)/folder.webp', true, 'webp'],
    ['Show/Season 1/Show.S01E01.en.srt', true, 'a subtitle'],
    ['Movie/Subs/2_English.idx', true, 'a VobSub index'],
    ['Movie/Movie.sup', true, 'a PGS subtitle'],
    ['Heat (1995)/Heat (1995).mkv', false, 'a video'],
    ['Heat (1995)/notes.txt', false, 'another text file'],
    ['Heat (1995)/.srt', false, 'a hidden file with no name'],
    ['Heat (1995)/nfo', false, 'an extension alone, without its dot'],
    ['Heat (1995)/Heat.nfo.', false, 'a trailing dot'],
    ['Heat.srt/readme', false, 'only the last segment counts'],
  ];
  for (const [path, sidecar, why] of rows) {
    it(`${sidecar ? 'keeps' : 'leaves out'} ${path}: ${why}`, () => assert.equal(isSidecarFile(path), sidecar));
  }

  it('knows every subtitle extension, and no video extension', () => {
    for (const ext of SUBTITLE_EXTENSIONS) assert.ok(isSidecarFile(`Movie.${ext}`), ext);
    for (const ext of VIDEO_EXTENSIONS) assert.ok(!isSidecarFile(`Movie.${ext}`), ext);
    for (const ext of IMAGE_EXTENSIONS) assert.match(ext, /^[a-z]+$/);
  });
});
