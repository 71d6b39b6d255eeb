// Files to items: which movies, shows and episodes the video files call for.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { episodeId } from '../../../../lib/catalog/ids';
import type { EpisodeItem, MovieItem } from '../../../../lib/catalog/model';
import { desiredItems, nfc, type ItemsInput } from '../../../../lib/scan/plan/items';

const file = (relPath: string, size = 100, mtimeMs = 1) => ({ relPath, size, mtimeMs });
const input = (over: Partial<ItemsInput>): ItemsInput => ({
  libraryId: 'lib',
  mediaType: 'movie',
  jobId: 'job1',
  now: 'T0',
  files: [],
  ...over,
});

describe('scan plan: desired items', () => {
  it('nfc composes accents', () => {
    assert.equal(nfc('Ame\u0301lie'), 'Am\u00e9lie');
  });

  it('one movie per stack, parts in order, stamped by this job; unreadable names in failed', () => {
    const { items, failed, showDirs } = desiredItems(
      input({
        files: [
          file('Kill Bill (2003)/Kill Bill (2003) - cd2.avi', 200, 2),
          file('Kill Bill (2003)/Kill Bill (2003) - cd1.avi'),
          file('notes.txt'),
          file('- .mkv'),
        ],
      }),
    );
    assert.equal(items.size, 1);
    const movie = [...items.values()][0] as MovieItem;
    assert.deepEqual(movie.files, [
      { relPath: 'Kill Bill (2003)/Kill Bill (2003) - cd1.avi', size: 100, mtimeMs: 1, part: 1 },
      { relPath: 'Kill Bill (2003)/Kill Bill (2003) - cd2.avi', size: 200, mtimeMs: 2, part: 2 },
    ]);
    assert.deepEqual(
      [movie.entity, movie.title, movie.year, movie.addedAt, movie.updatedAt, movie.lastJob, movie.lastChange, movie.libraryId],
      ['movie', 'Kill Bill', 2003, 'T0', 'T0', 'job1', 'added', 'lib'],
    );
    assert.deepEqual(failed, [
      { relPath: 'notes.txt', reason: 'not a video file' },
      { relPath: '- .mkv', reason: 'no title' },
    ]);
    assert.equal(showDirs.size, 0, 'movies have no show folders');
  });

  it('the same movie spelled in NFC or NFD has one id and an NFC title', () => {
    const composed = desiredItems(input({ files: [file('Am\u00e9lie (2001).mkv')] }));
    const decomposed = desiredItems(input({ files: [file('Ame\u0301lie (2001).mkv')] }));
    assert.deepEqual([...decomposed.items.keys()], [...composed.items.keys()]);
    assert.equal((decomposed.items.values().next().value as MovieItem).title, 'Am\u00e9lie');
  });

  it('a double episode is two items over one file; a show is found once, case aside, with its folder', () => {
    const double = 'Show (2008)/Season 01/Show.S01E01-E02.mkv';
    const { items, showDirs, failed } = desiredItems(
      input({
        mediaType: 'tvshow',
        files: [
          file(double),
          file('show (2008)/Season 2/Show.S02E01.mkv'),
          file('Loose.S01E03.mkv'),
          file('Show (2008)/Extras/trailer.mkv'),
        ],
      }),
    );
    const shows = [...items.values()].filter((i) => i.entity === 'tvshow');
    assert.deepEqual(
      shows.map((s) => s.entity === 'tvshow' && [s.title, s.year]),
      [
        ['Show', 2008],
        ['Loose', null],
      ],
    );
    const [show, loose] = shows.map((s) => s.id);
    const episodes = [...items.values()].filter((i): i is EpisodeItem => i.entity === 'episode');
    assert.deepEqual(
      episodes.map((e) => [e.showId, e.seasonNumber, e.episodeNumber, e.files[0]!.relPath]),
      [
        [show, 1, 1, double],
        [show, 1, 2, double],
        [show, 2, 1, 'show (2008)/Season 2/Show.S02E01.mkv'],
        [loose, 1, 3, 'Loose.S01E03.mkv'],
      ],
    );
    // Ids come from the file and the number, so the two halves of the double file differ.
    assert.deepEqual(
      episodes.slice(0, 2).map((e) => e.id),
      [episodeId('lib', double, 1, 1), episodeId('lib', double, 1, 2)],
    );
    // The first folder seen names the show's folder; a file loose at the root gives none.
    assert.deepEqual([...showDirs], [[show, 'Show (2008)']]);
    assert.deepEqual(failed, [{ relPath: 'Show (2008)/Extras/trailer.mkv', reason: 'no season or episode number' }]);
  });

  it("a library whose root is a show's folder gives that one show, at the root, beside a stray show folder", () => {
    const files = [
      'Season 1/Some.Show.S01E01.mkv',
      'Season 1/02 - Cat in the Bag.mkv',
      'Some.Show.S02E01.mkv',
      'S02E02.mkv',
      'Other Show/Season 1/Other.Show.S01E01.mkv',
    ];
    const { items, showDirs, failed } = desiredItems(
      input({ mediaType: 'tvshow', rootName: 'Some Show (2019)', files: files.map((f) => file(f)) }),
    );
    const shows = [...items.values()].filter((i) => i.entity === 'tvshow');
    assert.deepEqual(
      shows.map((s) => s.entity === 'tvshow' && [s.title, s.year]),
      [
        ['Some Show', 2019],
        ['Other Show', null],
      ],
    );
    const [root, other] = shows.map((s) => s.id);
    const episodes = [...items.values()].filter((i): i is EpisodeItem => i.entity === 'episode');
    assert.deepEqual(
      episodes.map((e) => [e.showId, e.seasonNumber, e.episodeNumber, e.files[0]!.relPath]),
      [
        [root, 1, 1, files[0]],
        [root, 1, 2, files[1]],
        [root, 2, 1, files[2]],
        [root, 2, 2, files[3]],
        [other, 1, 1, files[4]],
      ],
    );
    // The root show's folder is the root itself: its tvshow.nfo and poster sit there.
    assert.deepEqual(
      [...showDirs],
      [
        [root, ''],
        [other, 'Other Show'],
      ],
    );
    assert.deepEqual(failed, []);
  });

  it('the same files always give the same items', () => {
    const files = [file('Heat (1995).mkv'), file('Alien (1979)/Alien (1979).mkv')];
    assert.deepEqual(desiredItems(input({ files })), desiredItems(input({ files })));
  });
});
