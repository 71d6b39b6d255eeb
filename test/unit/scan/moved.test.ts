// A moved item as the write phase stores it: the stored item at its new paths (lib/scan/moved.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EpisodeItem, MovieItem, ShowItem } from '../../../lib/catalog/model';
import type { TechnicalInfo } from '../../../lib/media/technical-info';
import { mergeMoved } from '../../../lib/scan/moved';

const TECH: TechnicalInfo = {
  durationSeconds: 6_000.5,
  container: 'matroska',
  bitrate: 8_000_000,
  video: { codec: 'hevc', width: 3840, height: 2160, frameRate: 23.976, bitDepth: 10, hdr: 'hdr10' },
  audio: [{ codec: 'truehd', channels: 8, language: 'en' }],
  subtitles: [{ codec: 'pgs', language: 'fr' }],
};
const OTHER_TECH: TechnicalInfo = { ...TECH, durationSeconds: 10, video: null };

const storedStamp = {
  libraryId: 'lib',
  addedAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2020-01-02T00:00:00.000Z',
  lastJob: 'job1',
  lastChange: 'added' as const,
};
const plannedStamp = {
  libraryId: 'lib',
  addedAt: '2020-01-01T00:00:00.000Z',
  updatedAt: '2026-12-01T00:00:00.000Z',
  lastJob: 'job2',
  lastChange: 'moved' as const,
};
const PLANNED_COLORS: MovieItem['meshGradientColors'] = ['#111111', '#222222', '#333333', '#444444'];

/** A movie as enrichment left it: metadata, artwork, colours from its poster, tech info. */
const storedMovie = (): MovieItem => ({
  ...storedStamp,
  id: 'mv_heat',
  entity: 'movie',
  title: 'Heat',
  originalTitle: 'Heat',
  year: 1995,
  overview: 'A heist.',
  genres: ['Crime'],
  rating: 8.3,
  meshGradientColors: ['#aa0000', '#00aa00', '#0000aa', '#aaaaaa'],
  colorsFrom: 'etag-poster',
  tmdbId: 949,
  metadata: {
    source: 'provider',
    matched: true,
    confidence: 0.97,
    tagline: 'A Los Angeles crime saga.',
    runtimeMinutes: 170,
    releaseDate: '1995-12-15',
    certification: 'R',
    cast: [{ name: 'Al Pacino', character: 'Vincent Hanna', order: 0 }],
    directors: ['Michael Mann'],
    creators: [],
    imdbId: 'tt0113277',
    tvdbId: null,
  },
  enrich: 'done',
  providerAsked: true,
  local: { nfo: 'Heat (1995)/movie.nfo' },
  localStamp: 'nfo:Heat (1995)/movie.nfo@3',
  artworkWanted: { poster: { source: 'provider', from: '/p.jpg' } },
  artwork: { poster: { etag: 'etag-poster', contentType: 'image/jpeg', width: 500, height: 750, source: 'provider', from: '/p.jpg' } },
  files: [
    { relPath: 'Heat (1995)/Heat (1995) - cd1.mkv', size: 700, mtimeMs: 5, part: 1, tech: TECH },
    { relPath: 'Heat (1995)/Heat (1995) - cd2.mkv', size: 650, mtimeMs: 6, part: 2, tech: null },
  ],
});

/** What the plan writes for it after a move: names from the new paths, no tech, no metadata. */
const plannedMovie = (over: Partial<MovieItem> = {}): MovieItem => ({
  ...plannedStamp,
  id: 'mv_heat',
  pathKey: 'mv_archive',
  entity: 'movie',
  title: 'Heat',
  originalTitle: null,
  year: 1995,
  overview: null,
  genres: [],
  rating: null,
  meshGradientColors: PLANNED_COLORS,
  tmdbId: null,
  enrich: 'done',
  local: { nfo: 'Archive/Heat (1995)/movie.nfo' },
  localStamp: 'nfo:Archive/Heat (1995)/movie.nfo@3',
  files: [
    { relPath: 'Archive/Heat (1995)/Heat (1995) - cd1.mkv', size: 700, mtimeMs: 5, part: 1 },
    { relPath: 'Archive/Heat (1995)/Heat (1995) - cd2.mkv', size: 650, mtimeMs: 6, part: 2 },
  ],
  ...over,
});

describe('mergeMoved', () => {
  it('a movie keeps its metadata, artwork and colours, and takes the new files, path key, local files and stamp', () => {
    const stored = storedMovie();
    const planned = plannedMovie();
    assert.deepEqual(mergeMoved(stored, planned, false), {
      ...stored,
      updatedAt: planned.updatedAt,
      lastJob: 'job2',
      lastChange: 'moved',
      pathKey: 'mv_archive',
      local: planned.local,
      localStamp: planned.localStamp,
      enrich: 'done',
      files: [
        { ...planned.files[0]!, tech: TECH },
        { ...planned.files[1]!, tech: null },
      ],
    });
  });

  it('keeps tech info by size and time, whatever the path or order; a file unlike any stored one has none', () => {
    const stored = storedMovie();
    const planned = plannedMovie({
      files: [
        { relPath: 'New/b.mkv', size: 650, mtimeMs: 6, part: 1 },
        { relPath: 'New/a.mkv', size: 700, mtimeMs: 5, part: 2 },
        { relPath: 'New/c.mkv', size: 700, mtimeMs: 7, part: 3 },
      ],
    });
    const merged = mergeMoved(stored, planned, false) as MovieItem;
    assert.deepEqual(merged.files, [
      { relPath: 'New/b.mkv', size: 650, mtimeMs: 6, part: 1, tech: null },
      { relPath: 'New/a.mkv', size: 700, mtimeMs: 5, part: 2, tech: TECH },
      { relPath: 'New/c.mkv', size: 700, mtimeMs: 7, part: 3 },
    ]);
    assert.ok(!('tech' in merged.files[2]!), 'no tech key: it is read from the file');
  });

  it('a file the planned item already read keeps the tech read now when no stored file matches', () => {
    const planned = plannedMovie({ files: [{ relPath: 'New/x.mkv', size: 1, mtimeMs: 1, part: null, tech: OTHER_TECH }] });
    assert.deepEqual((mergeMoved(storedMovie(), planned, false) as MovieItem).files, planned.files);
  });

  it('replaces title, year and tmdbId only when renamed; the rest stays', () => {
    const stored = storedMovie();
    const planned = plannedMovie({ title: 'Heat', year: 1986, tmdbId: 12, enrich: 'metadata' });
    const kept = mergeMoved(stored, planned, false) as MovieItem;
    assert.deepEqual([kept.title, kept.year, kept.tmdbId], ['Heat', 1995, 949]);
    const renamed = mergeMoved(stored, planned, true) as MovieItem;
    assert.deepEqual([renamed.title, renamed.year, renamed.tmdbId, renamed.enrich], ['Heat', 1986, 12, 'metadata']);
    assert.deepEqual(
      [
        renamed.metadata,
        renamed.artwork,
        renamed.meshGradientColors,
        renamed.colorsFrom,
        renamed.overview,
        renamed.genres,
        renamed.originalTitle,
        renamed.addedAt,
      ],
      [
        stored.metadata,
        stored.artwork,
        stored.meshGradientColors,
        stored.colorsFrom,
        stored.overview,
        stored.genres,
        stored.originalTitle,
        stored.addedAt,
      ],
    );
  });

  it('keeps the stored enrichment state when the plan gives none; no local files is none, not the old ones', () => {
    const planned = plannedMovie();
    delete planned.enrich;
    delete planned.local;
    delete planned.localStamp;
    const merged = mergeMoved(storedMovie(), planned, false) as MovieItem;
    assert.deepEqual([merged.enrich, merged.local, merged.localStamp], ['done', {}, '']);
  });

  it('an episode takes its new show; its numbers change only when renamed', () => {
    const stored: EpisodeItem = {
      ...storedStamp,
      id: 'ep_1',
      entity: 'episode',
      showId: 'tv_old',
      seasonNumber: 1,
      episodeNumber: 2,
      title: 'The Empty Child',
      overview: 'Gas masks.',
      airDate: '2005-05-21',
      enrich: 'done',
      artwork: { still: { etag: 'etag-still', contentType: 'image/jpeg', width: 640, height: 360, source: 'provider', from: '/s.jpg' } },
      files: [{ relPath: 'Doctor Who/Season 1/Doctor Who - S01E02.mkv', size: 402, mtimeMs: 2, part: null, tech: TECH }],
    };
    const planned: EpisodeItem = {
      ...plannedStamp,
      id: 'ep_1',
      pathKey: 'ep_new',
      entity: 'episode',
      showId: 'tv_kept',
      seasonNumber: 1,
      episodeNumber: 9,
      title: null,
      overview: null,
      airDate: null,
      enrich: 'metadata',
      files: [{ relPath: 'Doctor Who (2005)/Season 1/Doctor Who - S01E09.mkv', size: 402, mtimeMs: 2, part: null }],
    };
    const moved = mergeMoved(stored, planned, false) as EpisodeItem;
    assert.deepEqual(moved, {
      ...stored,
      updatedAt: planned.updatedAt,
      lastJob: 'job2',
      lastChange: 'moved',
      pathKey: 'ep_new',
      local: {},
      localStamp: '',
      enrich: 'metadata',
      showId: 'tv_kept',
      files: [{ ...planned.files[0]!, tech: TECH }],
    });
    const renamed = mergeMoved(stored, planned, true) as EpisodeItem;
    assert.deepEqual(
      [renamed.showId, renamed.seasonNumber, renamed.episodeNumber, renamed.title, renamed.artwork],
      ['tv_kept', 1, 9, 'The Empty Child', stored.artwork],
    );
  });

  it('a show renamed takes its new title and year and keeps its artwork', () => {
    const stored: ShowItem = {
      ...storedStamp,
      id: 'tv_old',
      entity: 'tvshow',
      title: 'Doctor Who',
      originalTitle: null,
      year: null,
      overview: 'A time lord.',
      genres: ['Sci-Fi'],
      rating: 8,
      meshGradientColors: ['#aa0000', '#00aa00', '#0000aa', '#aaaaaa'],
      tmdbId: 57243,
      enrich: 'done',
      artwork: {
        poster: { etag: 'etag-show', contentType: 'image/png', width: 500, height: 750, source: 'local', from: 'Doctor Who/poster.png' },
      },
    };
    const planned: ShowItem = {
      ...plannedStamp,
      id: 'tv_old',
      pathKey: 'tv_new',
      entity: 'tvshow',
      title: 'Doctor Who',
      originalTitle: null,
      year: 2005,
      overview: null,
      genres: [],
      rating: null,
      meshGradientColors: PLANNED_COLORS,
      tmdbId: null,
      enrich: 'metadata',
      local: {},
      localStamp: '',
    };
    const renamed = mergeMoved(stored, planned, true) as ShowItem;
    assert.deepEqual(renamed, {
      ...stored,
      updatedAt: planned.updatedAt,
      lastJob: 'job2',
      lastChange: 'moved',
      pathKey: 'tv_new',
      local: {},
      localStamp: '',
      enrich: 'metadata',
      title: 'Doctor Who',
      year: 2005,
      tmdbId: null,
    });
    assert.deepEqual(
      [(mergeMoved(stored, planned, false) as ShowItem).year, (mergeMoved(stored, planned, false) as ShowItem).tmdbId],
      [null, 57243],
    );
  });

  it('with no stored item (or one of another kind) the planned item is written as it is', () => {
    const planned = plannedMovie();
    assert.equal(mergeMoved(undefined, planned, false), planned);
    const show = {
      ...storedStamp,
      id: 'mv_heat',
      entity: 'tvshow',
      title: 'X',
      originalTitle: null,
      year: null,
      overview: null,
      genres: [],
      rating: null,
      meshGradientColors: PLANNED_COLORS,
      tmdbId: null,
    } as ShowItem;
    assert.equal(mergeMoved(show, planned, true), planned);
  });
});
