// NFO and artwork files beside the videos: whose they are, their stamp, and where enrichment starts.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogItem, IndexEntry } from '../../../../lib/catalog/model';
import { sidecarChanges, sidecarsOf, withLocalFiles, type SidecarInput } from '../../../../lib/scan/plan/sidecars';

const file = (relPath: string, mtimeMs = 1, size = 100) => ({ relPath, size, mtimeMs });
const ref = (relPath: string) => ({ relPath, size: 100, mtimeMs: 1, part: null });
const movie = (id: string, relPath: string, localStamp?: string): IndexEntry => ({
  id,
  entity: 'movie',
  addedAt: 'T0',
  files: [ref(relPath)],
  ...(localStamp !== undefined ? { localStamp } : {}),
});
const show = (id: string, localStamp?: string): IndexEntry => ({
  id,
  entity: 'tvshow',
  addedAt: 'T0',
  ...(localStamp !== undefined ? { localStamp } : {}),
});
const episode = (id: string, showId: string, relPath: string): IndexEntry => ({
  id,
  entity: 'episode',
  addedAt: 'T0',
  showId,
  seasonNumber: 1,
  files: [ref(relPath)],
});
const sidecarsFor = (over: Partial<SidecarInput>) =>
  sidecarsOf({ mediaType: 'movie', files: [], sidecars: [], index: [], showDirs: new Map(), ...over });

describe('scan plan: sidecars', () => {
  it("a movie's files and their stamp, by kind, with each file's time", () => {
    const files = [file('Heat (1995)/Heat (1995).mkv')];
    const stampWith = (nfoTime: number) =>
      sidecarsFor({ files, sidecars: [file('Heat (1995)/poster.jpg', 6), file('Heat (1995)/movie.nfo', nfoTime)] }).localOf(
        movie('m', files[0]!.relPath),
      );
    assert.deepEqual(stampWith(5), {
      local: { nfo: 'Heat (1995)/movie.nfo', poster: 'Heat (1995)/poster.jpg' },
      localStamp: 'nfo:Heat (1995)/movie.nfo@5|poster:Heat (1995)/poster.jpg@6',
    });
    // An edited NFO (a new mtime) is a new stamp; nothing beside the video is the empty stamp.
    assert.equal(stampWith(7).localStamp, 'nfo:Heat (1995)/movie.nfo@7|poster:Heat (1995)/poster.jpg@6');
    assert.deepEqual(sidecarsFor({ files }).localOf(movie('m', files[0]!.relPath)), { local: {}, localStamp: '' });
  });

  it("a stack's parts count as one movie, so the folder's poster is still its own", () => {
    const files = [file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi'), file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi')];
    const sidecars = [file('Kill Bill (2003)/poster.jpg'), file('Kill Bill (2003)/Kill Bill (2003)-fanart.jpg')];
    assert.deepEqual(sidecarsFor({ files, sidecars }).localOf(movie('m', files[0]!.relPath)).local, {
      poster: 'Kill Bill (2003)/poster.jpg',
      backdrop: 'Kill Bill (2003)/Kill Bill (2003)-fanart.jpg',
    });
  });

  it('subtitles beside a video and in Subs/ folders are its own, each in the stamp with its time', () => {
    const files = [file('Heat (1995)/Heat.1995.mkv'), file('Show/Season 1/Show.S01E01.mkv'), file('Show/Season 1/Show.S01E02.mkv')];
    const sidecars = [
      file('Heat (1995)/Heat.1995.en.srt', 3),
      file('Heat (1995)/SUBS/2_French.srt', 4),
      file('Show/Season 1/Show.S01E01.en.srt', 5),
      file('Show/Season 1/Subs/Show.S01E02/English.srt', 6),
      file('Show/Season 1/Subs/Show.S01E02.de.ass', 7),
    ];
    const heat = sidecarsFor({ files, sidecars }).localOf(movie('m', files[0]!.relPath));
    assert.deepEqual(heat, {
      local: { subtitles: ['Heat (1995)/Heat.1995.en.srt', 'Heat (1995)/SUBS/2_French.srt'] },
      localStamp: 'subtitles:Heat (1995)/Heat.1995.en.srt@3|subtitles:Heat (1995)/SUBS/2_French.srt@4',
    });
    const tv = sidecarsFor({ mediaType: 'tvshow', files, sidecars });
    assert.deepEqual(tv.localOf(episode('e1', 'tv', files[1]!.relPath)).local, { subtitles: ['Show/Season 1/Show.S01E01.en.srt'] });
    assert.deepEqual(tv.localOf(episode('e2', 'tv', files[2]!.relPath)).local, {
      subtitles: ['Show/Season 1/Subs/Show.S01E02.de.ass', 'Show/Season 1/Subs/Show.S01E02/English.srt'],
    });
    // A subtitle removed, or edited in place, is a new stamp.
    const without = sidecarsFor({ files, sidecars: sidecars.slice(1) }).localOf(movie('m', files[0]!.relPath));
    assert.equal(without.localStamp, 'subtitles:Heat (1995)/SUBS/2_French.srt@4');
    const edited = sidecarsFor({ files, sidecars: [file('Heat (1995)/Heat.1995.en.srt', 9)] }).localOf(movie('m', files[0]!.relPath));
    assert.equal(edited.localStamp, 'subtitles:Heat (1995)/Heat.1995.en.srt@9');
  });

  it("a show's folder comes from this scan's files, else from its episodes in the index", () => {
    const sidecars = [file('Show (2005)/tvshow.nfo'), file('Renamed/tvshow.nfo'), file('Other/fanart.jpg')];
    const index = [
      episode('e1', 'tv1', 'Show (2005)/Season 1/S01E01.mkv'),
      episode('e2', 'tv2', 'Other/Season 1/S01E01.mkv'),
      episode('e3', 'tv3', 'Loose.S01E01.mkv'),
    ];
    const tv = sidecarsFor({ mediaType: 'tvshow', sidecars, index, showDirs: new Map([['tv1', 'Renamed']]) });
    assert.deepEqual(
      ['tv1', 'tv2', 'tv3'].map((id) => tv.localOf(show(id)).local),
      [{ nfo: 'Renamed/tvshow.nfo' }, { backdrop: 'Other/fanart.jpg' }, {}],
    );
  });

  it("in a library whose root is a show's folder, that show's folder is the root, also when read from the index", () => {
    const sidecars = [file('tvshow.nfo'), file('poster.jpg'), file('Season 1/poster.jpg'), file('Other/tvshow.nfo')];
    const index = [
      episode('e1', 'root', 'Season 1/Some.Show.S01E01.mkv'),
      episode('e2', 'loose', 'S02E01.mkv'),
      episode('e3', 'other', 'Other/Season 1/Other.S01E01.mkv'),
    ];
    const tv = sidecarsFor({ mediaType: 'tvshow', sidecars, index, rootName: 'Some Show (2019)' });
    assert.deepEqual(
      ['root', 'loose', 'other'].map((id) => tv.localOf(show(id)).local),
      [{ nfo: 'tvshow.nfo', poster: 'poster.jpg' }, { nfo: 'tvshow.nfo', poster: 'poster.jpg' }, { nfo: 'Other/tvshow.nfo' }],
    );
  });

  it('enrichment starts at metadata with a provider or an NFO, at artwork with pictures only, else waits', () => {
    const sidecars = sidecarsFor({
      mediaType: 'tvshow',
      sidecars: [file('S/Season 1/A.S01E01.nfo'), file('S/Season 1/B.S01E01-thumb.jpg')],
    });
    const ep = (name: string): CatalogItem => ({
      id: name,
      libraryId: 'lib',
      addedAt: 'T0',
      updatedAt: 'T0',
      lastJob: 'j',
      lastChange: 'added',
      entity: 'episode',
      showId: 's',
      seasonNumber: 1,
      episodeNumber: 1,
      title: null,
      overview: null,
      airDate: null,
      files: [ref(`S/Season 1/${name}.S01E01.mkv`)],
    });
    const start = (providerOn: boolean) => ['A', 'B', 'C'].map((n) => withLocalFiles(sidecars, providerOn, ep(n)).enrich);
    assert.deepEqual(start(false), ['metadata', 'artwork', 'local']);
    assert.deepEqual(start(true), ['metadata', 'metadata', 'metadata']);
    const b = withLocalFiles(sidecars, false, ep('B'));
    assert.deepEqual([b.local, b.localStamp], [{ still: 'S/Season 1/B.S01E01-thumb.jpg' }, 'still:S/Season 1/B.S01E01-thumb.jpg@1']);
    // Without a provider the artwork phase is next, and it stores the picture beside the video.
    assert.deepEqual(b.artworkWanted, { still: { source: 'local', from: 'S/Season 1/B.S01E01-thumb.jpg' } });
    assert.equal(withLocalFiles(sidecars, true, ep('B')).artworkWanted, undefined, 'with a provider the metadata phase decides');
  });

  it('hands back kept items whose stamp changed, within the scope; shows only on a whole-library scan', () => {
    const files = [file('A/A (2001).mkv'), file('B/B (2002).mkv'), file('C/C (2003).mkv')];
    const sidecars = sidecarsFor({
      files,
      sidecars: [file('A/poster.jpg', 2), file('B/poster.jpg', 1), file('C/movie.nfo'), file('Show/tvshow.nfo')],
      showDirs: new Map([['tv', 'Show']]),
    });
    const index = [
      movie('a', 'A/A (2001).mkv', 'poster:A/poster.jpg@1'), // edited since
      movie('b', 'B/B (2002).mkv', 'poster:B/poster.jpg@1'), // as it was
      movie('c', 'C/C (2003).mkv'), // an NFO added since
      show('tv'),
    ];
    const changed = (redone: string[], scope: string) => sidecarChanges(sidecars, index, new Set(redone), scope).map((c) => c.id);
    assert.deepEqual(sidecarChanges(sidecars, index, new Set(), '')[0], {
      id: 'a',
      local: { poster: 'A/poster.jpg' },
      localStamp: 'poster:A/poster.jpg@2',
    });
    assert.deepEqual(changed([], ''), ['a', 'c', 'tv']);
    // Items this run writes again get their files with the write.
    assert.deepEqual(changed(['a', 'c'], ''), ['tv']);
    // A scoped scan sees only its folder; the show's folder may lie elsewhere.
    assert.deepEqual(changed([], 'A'), ['a']);
    assert.deepEqual(changed([], 'Show'), []);
  });
});

describe('scan plan: sidecars in a flat folder of many films', () => {
  it('gives each of 3,000 films in one folder its own subtitles, "Film 12" not taking "Film 123"s', () => {
    const names = Array.from({ length: 3_000 }, (_, i) => `Film ${i}`);
    const files = names.map((n) => file(`Films/${n}.mkv`));
    const sidecars = names.flatMap((n) => [file(`Films/${n}.en.srt`), file(`Films/${n}.fr.forced.srt`), file(`Films/${n}.nfo`)]);
    const plan = sidecarsFor({ files, sidecars });
    for (const i of [0, 1, 12, 123, 1234, 2999]) {
      assert.deepEqual(plan.localOf(movie(`m${i}`, `Films/Film ${i}.mkv`)).local, {
        nfo: `Films/Film ${i}.nfo`,
        subtitles: [`Films/Film ${i}.en.srt`, `Films/Film ${i}.fr.forced.srt`],
      });
    }
  });
});
