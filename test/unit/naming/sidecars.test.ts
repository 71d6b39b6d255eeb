import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  episodeLocalFiles,
  MAX_SUBTITLES,
  movieLocalFiles,
  showLocalFiles,
  type LocalFiles,
  type MovieFolder,
} from '../../../lib/naming/sidecars';

type MovieRow = readonly [why: string, input: MovieFolder, expected: LocalFiles];

const movieRows: MovieRow[] = [
  [
    'Kodi per-video names',
    {
      videoPath: 'Alien (1979)/Alien (1979).mkv',
      folderFiles: ['Alien (1979).mkv', 'Alien (1979).nfo', 'Alien (1979)-poster.jpg', 'Alien (1979)-fanart.jpg'],
      moviesInFolder: 1,
    },
    {
      nfo: 'Alien (1979)/Alien (1979).nfo',
      poster: 'Alien (1979)/Alien (1979)-poster.jpg',
      backdrop: 'Alien (1979)/Alien (1979)-fanart.jpg',
    },
  ],
  [
    'folder-wide names in a folder of one movie',
    {
      videoPath: 'Alien (1979)/Alien.1979.1080p.BluRay.mkv',
      folderFiles: ['Alien.1979.1080p.BluRay.mkv', 'movie.nfo', 'poster.png', 'backdrop.jpg'],
      moviesInFolder: 1,
    },
    { nfo: 'Alien (1979)/movie.nfo', poster: 'Alien (1979)/poster.png', backdrop: 'Alien (1979)/backdrop.jpg' },
  ],
  [
    'folder.jpg and cover.jpg are posters, background.jpg a backdrop',
    { videoPath: 'A/a.mkv', folderFiles: ['a.mkv', 'cover.jpg', 'folder.jpg', 'background.webp'], moviesInFolder: 1 },
    { poster: 'A/folder.jpg', backdrop: 'A/background.webp' },
  ],
  [
    'a per-video name wins over a folder-wide one',
    {
      videoPath: 'Alien (1979)/Alien (1979).mkv',
      folderFiles: ['movie.nfo', 'poster.jpg', 'fanart.jpg', 'Alien (1979).nfo', 'Alien (1979)-poster.jpg'],
      moviesInFolder: 1,
    },
    {
      nfo: 'Alien (1979)/Alien (1979).nfo',
      poster: 'Alien (1979)/Alien (1979)-poster.jpg',
      backdrop: 'Alien (1979)/fanart.jpg',
    },
  ],
  [
    'folder-wide names do not apply to a folder of several movies',
    {
      videoPath: 'Action/Die Hard (1988).mkv',
      folderFiles: ['Die Hard (1988).mkv', 'Heat (1995).mkv', 'movie.nfo', 'poster.jpg', 'fanart.jpg', 'Die Hard (1988).nfo'],
      moviesInFolder: 2,
    },
    { nfo: 'Action/Die Hard (1988).nfo' },
  ],
  [
    'names match whatever their case',
    {
      videoPath: 'Alien (1979)/Alien (1979).mkv',
      folderFiles: ['ALIEN (1979).NFO', 'Poster.JPG', 'alien (1979)-FanArt.Jpeg'],
      moviesInFolder: 1,
    },
    {
      nfo: 'Alien (1979)/ALIEN (1979).NFO',
      poster: 'Alien (1979)/Poster.JPG',
      backdrop: 'Alien (1979)/alien (1979)-FanArt.Jpeg',
    },
  ],
  [
    'names match whatever their Unicode form (NFD on disk, NFC in the path)',
    { videoPath: 'Amélie (2001)/Amélie (2001).mkv', folderFiles: ['Ame\u0301lie (2001).nfo'], moviesInFolder: 1 },
    { nfo: 'Amélie (2001)/Ame\u0301lie (2001).nfo' },
  ],
  [
    'the folder is kept as spelled, to open it on a disk that stores NFD',
    { videoPath: 'Ame\u0301lie (2001)/Amélie (2001).mkv', folderFiles: ['poster.jpg'], moviesInFolder: 1 },
    { poster: 'Ame\u0301lie (2001)/poster.jpg' },
  ],
  [
    'a stack part finds the files named after the whole movie',
    {
      videoPath: 'Movie (1999)/Movie (1999) - cd2.avi',
      folderFiles: ['Movie (1999) - cd1.avi', 'Movie (1999) - cd2.avi', 'Movie (1999).nfo', 'Movie (1999)-poster.jpg'],
      moviesInFolder: 1,
    },
    { nfo: 'Movie (1999)/Movie (1999).nfo', poster: 'Movie (1999)/Movie (1999)-poster.jpg' },
  ],
  [
    'a stack part prefers a file named after the part itself',
    {
      videoPath: 'Movie.1999.part1.mkv',
      folderFiles: ['Movie.1999.part1.mkv', 'Movie.1999.part1.nfo', 'Movie.1999.nfo'],
      moviesInFolder: 3,
    },
    { nfo: 'Movie.1999.part1.nfo' },
  ],
  [
    'jpg before png, and only image extensions',
    { videoPath: 'M/m.mkv', folderFiles: ['poster.png', 'poster.jpg', 'poster.gif', 'fanart.txt'], moviesInFolder: 1 },
    { poster: 'M/poster.jpg' },
  ],
  [
    'a movie at the library root',
    { videoPath: 'Heat (1995).mkv', folderFiles: ['Heat (1995).nfo', 'Heat (1995)-poster.webp'], moviesInFolder: 5 },
    { nfo: 'Heat (1995).nfo', poster: 'Heat (1995)-poster.webp' },
  ],
  [
    'another video’s files are not this one’s',
    { videoPath: 'M/Heat.mkv', folderFiles: ['Heat 2.nfo', 'Heat-poster.jpg.bak', 'The Heat-poster.jpg'], moviesInFolder: 3 },
    {},
  ],
  ['nothing beside the video', { videoPath: 'M/m.mkv', folderFiles: ['m.mkv'], moviesInFolder: 1 }, {}],
];

describe('movieLocalFiles', () => {
  for (const [why, input, expected] of movieRows) {
    it(why, () => assert.deepEqual(movieLocalFiles(input), expected));
  }
});

describe('showLocalFiles', () => {
  const rows: Array<[why: string, showDir: string, files: string[], expected: LocalFiles]> = [
    [
      'tvshow.nfo, poster and fanart',
      'Doctor Who (2005)',
      ['tvshow.nfo', 'poster.jpg', 'fanart.jpg', 'season01-poster.jpg'],
      { nfo: 'Doctor Who (2005)/tvshow.nfo', poster: 'Doctor Who (2005)/poster.jpg', backdrop: 'Doctor Who (2005)/fanart.jpg' },
    ],
    [
      'folder.jpg and backdrop.png',
      'TV/Doctor Who',
      ['TVSHOW.NFO', 'folder.jpg', 'backdrop.png'],
      { nfo: 'TV/Doctor Who/TVSHOW.NFO', poster: 'TV/Doctor Who/folder.jpg', backdrop: 'TV/Doctor Who/backdrop.png' },
    ],
    ['a trailing slash on the folder', 'Doctor Who/', ['tvshow.nfo'], { nfo: 'Doctor Who/tvshow.nfo' }],
    ['a movie nfo is not a show nfo', 'Doctor Who', ['movie.nfo', 'Doctor Who.nfo'], {}],
  ];
  for (const [why, showDir, folderFiles, expected] of rows) {
    it(why, () => assert.deepEqual(showLocalFiles({ showDir, folderFiles }), expected));
  }
});

describe('episodeLocalFiles', () => {
  const rows: Array<[why: string, videoPath: string, files: string[], expected: LocalFiles]> = [
    [
      'Kodi episode names',
      'Show/Season 1/Show.S01E02.mkv',
      ['Show.S01E02.mkv', 'Show.S01E02.nfo', 'Show.S01E02-thumb.jpg'],
      { nfo: 'Show/Season 1/Show.S01E02.nfo', still: 'Show/Season 1/Show.S01E02-thumb.jpg' },
    ],
    [
      'a picture named like the video is its still',
      'Show/Season 1/Show.S01E02.mkv',
      ['Show.S01E02.png'],
      { still: 'Show/Season 1/Show.S01E02.png' },
    ],
    ['-thumb wins over the bare name', 'Show/S01E02.mkv', ['s01e02.jpg', 'S01E02-THUMB.JPG'], { still: 'Show/S01E02-THUMB.JPG' }],
    [
      'folder-wide files are never an episode’s',
      'Show/Season 1/Show.S01E02.mkv',
      ['poster.jpg', 'folder.jpg', 'tvshow.nfo', 'Show.S01E03.nfo'],
      {},
    ],
  ];
  for (const [why, videoPath, folderFiles, expected] of rows) {
    it(why, () => assert.deepEqual(episodeLocalFiles({ videoPath, folderFiles }), expected));
  }
});

describe('subtitles of a video', () => {
  type Row = readonly [why: string, input: MovieFolder & { episode?: boolean }, expected: string[] | undefined];
  const rows: Row[] = [
    [
      'beside the movie, named after it, with language and flags',
      {
        videoPath: 'Amélie (2001)/Amélie (2001).mkv',
        folderFiles: ['Amélie (2001).mkv', 'Amélie (2001).fr.srt', 'Amélie (2001).en.forced.srt', 'Amélie (2001).nfo', 'notes.txt'],
        moviesInFolder: 1,
      },
      ['Amélie (2001)/Amélie (2001).en.forced.srt', 'Amélie (2001)/Amélie (2001).fr.srt'],
    ],
    [
      'every text and picture format; a name in another case or Unicode form still matches',
      {
        videoPath: 'M/Heat.mkv',
        folderFiles: ['heat.EN.SRT', 'Heat.de.vtt', 'Heat.ja.ass', 'Heat.ru.ssa', 'Heat.it.idx', 'Heat.it.sub', 'Heat.es.sup'],
        moviesInFolder: 1,
      },
      ['M/Heat.de.vtt', 'M/Heat.es.sup', 'M/Heat.it.idx', 'M/Heat.it.sub', 'M/Heat.ja.ass', 'M/Heat.ru.ssa', 'M/heat.EN.SRT'],
    ],
    [
      "a name that does not start with the video's is not its own, even alone in the folder",
      { videoPath: 'M/Heat.mkv', folderFiles: ['English.srt', 'Heatwave.en.srt'], moviesInFolder: 1 },
      undefined,
    ],
    [
      "in a folder of many movies, the longest name a subtitle carries owns it: Heat 2's is not Heat's",
      {
        videoPath: 'Movies/Heat.mkv',
        folderFiles: ['Heat.en.srt', 'Heat 2.en.srt', 'Heat 2.fr.srt'],
        moviesInFolder: 2,
        otherVideos: ['Heat 2'],
      },
      ['Movies/Heat.en.srt'],
    ],
    [
      'Subs/ of a lone movie: any subtitle name; other files are not subtitles',
      {
        videoPath: 'Heat (1995)/Heat.1995.1080p.mkv',
        folderFiles: [],
        moviesInFolder: 1,
        subsFolders: [{ dir: 'Heat (1995)/Subs', inner: null, files: ['2_English.srt', '3_French.srt', 'readme.txt'] }],
      },
      ['Heat (1995)/Subs/2_English.srt', 'Heat (1995)/Subs/3_French.srt'],
    ],
    [
      'Subs/ in a folder of many movies: only names that carry the movie’s',
      {
        videoPath: 'Movies/Heat.mkv',
        folderFiles: [],
        moviesInFolder: 2,
        otherVideos: ['Alien'],
        subsFolders: [{ dir: 'Movies/Subs', inner: null, files: ['Heat.en.srt', 'Alien.en.srt', 'English.srt'] }],
      },
      ['Movies/Subs/Heat.en.srt'],
    ],
    [
      'a folder inside Subs/ named after an episode holds that episode’s tracks, named freely',
      {
        episode: true,
        videoPath: 'Show/Season 1/Show.S01E01.mkv',
        folderFiles: ['Show.S01E01.mkv', 'Show.S01E01.en.srt', 'Show.S01E02.en.srt'],
        moviesInFolder: 1,
        otherVideos: ['Show.S01E02'],
        subsFolders: [
          { dir: 'Show/Season 1/Subs/Show.S01E01', inner: 'Show.S01E01', files: ['2_English.srt', '3_Spanish.srt'] },
          { dir: 'Show/Season 1/Subs/Show.S01E02', inner: 'Show.S01E02', files: ['2_English.srt'] },
          { dir: 'Show/Season 1/Subs', inner: null, files: ['Show.S01E01.de.srt', 'German.srt'] },
        ],
      },
      [
        'Show/Season 1/Show.S01E01.en.srt',
        'Show/Season 1/Subs/Show.S01E01.de.srt',
        'Show/Season 1/Subs/Show.S01E01/2_English.srt',
        'Show/Season 1/Subs/Show.S01E01/3_Spanish.srt',
      ],
    ],
    [
      "a stacked movie's subtitles carry the stack's name or the part's",
      {
        videoPath: 'Kill Bill/Kill Bill - cd1.avi',
        folderFiles: ['Kill Bill.en.srt', 'Kill Bill - cd1.fr.srt'],
        moviesInFolder: 1,
        otherVideos: ['Kill Bill - cd2'],
      },
      ['Kill Bill/Kill Bill - cd1.fr.srt', 'Kill Bill/Kill Bill.en.srt'],
    ],
  ];
  for (const [why, { episode, ...input }, expected] of rows) {
    it(why, () => assert.deepEqual((episode ? episodeLocalFiles(input) : movieLocalFiles(input)).subtitles, expected));
  }

  it('at most MAX_SUBTITLES per video, in path order', () => {
    const folderFiles = Array.from({ length: 100 }, (_, i) => `Heat.${String(i).padStart(3, '0')}.en.srt`);
    const found = movieLocalFiles({ videoPath: 'Heat.mkv', folderFiles, moviesInFolder: 1 }).subtitles ?? [];
    assert.equal(found.length, MAX_SUBTITLES);
    assert.equal(found[0], 'Heat.000.en.srt');
  });
});
