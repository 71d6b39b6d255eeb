// The subtitle tracks of an item as details list them (lib/subtitles/tracks.ts): ids, labels,
// formats, what can be served, and the order a menu shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EpisodeItem, MovieItem } from '../../../lib/catalog/model';
import type { SubtitleStream } from '../../../lib/media/technical-info';
import { externalTrackId, subtitleTracks } from '../../../lib/subtitles/tracks';

const movie = (subtitles: string[], streams: SubtitleStream[] = [], videoPath = 'Heat (1995)/Heat (1995).mkv'): MovieItem => ({
  id: 'mv_1',
  libraryId: 'lib',
  addedAt: 'T0',
  updatedAt: 'T0',
  lastJob: 'j',
  lastChange: 'added',
  entity: 'movie',
  title: 'Heat',
  originalTitle: null,
  year: 1995,
  overview: null,
  genres: [],
  rating: null,
  meshGradientColors: [] as never,
  tmdbId: null,
  files: [
    {
      relPath: videoPath,
      size: 1,
      mtimeMs: 1,
      part: null,
      tech: { durationSeconds: 1, container: 'matroska', bitrate: null, video: null, audio: [], subtitles: streams },
    },
  ],
  local: { subtitles },
});

const summary = (item: MovieItem | EpisodeItem, extract = true) =>
  subtitleTracks(item, { extract }).map(
    ({ track, servable }) => `${track.label} [${track.source} ${track.format}${servable ? '' : ', no url'}]`,
  );

describe('subtitle tracks', () => {
  it('labels by language name and flags; default first, then forced, then by language, unknown last; files before streams', () => {
    const item = movie(
      [
        'Heat (1995)/Heat (1995).fr.srt',
        'Heat (1995)/Heat (1995).en.forced.srt',
        'Heat (1995)/Heat (1995).en.sdh.srt',
        'Heat (1995)/Heat (1995).srt',
        'Heat (1995)/Heat (1995).de.default.ass',
        'Heat (1995)/Subs/Director Commentary.en.vtt',
      ],
      [
        { codec: 'srt', language: 'fr', streamIndex: 3, title: null, forced: false, default: false },
        { codec: 'pgs', language: 'zh-Hant', streamIndex: 4, title: null, forced: false, default: false },
      ],
    );
    assert.deepEqual(summary(item), [
      'German [external ass]',
      'English (forced) [external srt]',
      'English (Director Commentary) [external webvtt]',
      'English (SDH) [external srt]',
      'French [external srt]',
      'French [embedded srt]',
      'Traditional Chinese [embedded pgs, no url]',
      'Unknown language [external srt]',
    ]);
  });

  it('ids: a file by a hash of its path, a stream by its place among the subtitle streams', () => {
    const tracks = subtitleTracks(movie(['Heat (1995)/Heat (1995).fr.srt'], [{ codec: 'ass', language: null, streamIndex: 5 }]), {
      extract: true,
    });
    assert.deepEqual(
      tracks.map((t) => t.track.id),
      [externalTrackId('Heat (1995)/Heat (1995).fr.srt'), 'emb-0'],
    );
    assert.match(tracks[0]!.track.id, /^ext-[A-Za-z0-9_-]{12}$/);
    assert.notEqual(externalTrackId('a.srt'), externalTrackId('b.srt'));
    assert.deepEqual(
      tracks.map((t) => t.origin),
      [
        { source: 'external', relPath: 'Heat (1995)/Heat (1995).fr.srt', format: 'srt' },
        { source: 'embedded', map: '0:5', codec: 'ass' },
      ],
    );
  });

  it('picture files are listed without a URL; a VobSub pair is one track, its .idx', () => {
    const item = movie([
      'Heat (1995)/Heat (1995).en.idx',
      'Heat (1995)/Heat (1995).en.sub',
      'Heat (1995)/Heat (1995).es.sup',
      'Heat (1995)/Heat (1995).it.sub',
    ]);
    assert.deepEqual(summary(item), [
      'English [external vobsub, no url]',
      'Italian [external sub, no url]',
      'Spanish [external pgs, no url]',
    ]);
  });

  it('streams: text ones need ffmpeg; captions inside the video and pictures never have a URL; older probes map by order', () => {
    const streams: SubtitleStream[] = [
      { codec: 'tx3g', language: 'en', streamIndex: 2, title: 'SDH', forced: false, default: false },
      { codec: 'eia-608', language: null, streamIndex: null },
      { codec: 'dvbsub', language: 'fi', streamIndex: 6 },
      { codec: 'webvtt', language: 'sv', title: 'Forced', forced: false, default: true },
    ];
    assert.deepEqual(summary(movie([], streams)), [
      'Swedish (Forced) [embedded webvtt]',
      'English (SDH) [embedded tx3g]',
      'Finnish [embedded dvbsub, no url]',
      'Unknown language [embedded eia-608, no url]',
    ]);
    const swedish = subtitleTracks(movie([], streams), { extract: true })[0]!;
    assert.deepEqual(
      [swedish.track.forced, swedish.track.default, swedish.origin],
      [true, true, { source: 'embedded', map: '0:s:3', codec: 'webvtt' }],
    );
    assert.deepEqual(
      summary(movie([], streams), false).filter((s) => !s.includes('no url')),
      [],
      'without ffmpeg no stream is servable',
    );
  });

  it("a free name in Subs/ is read whole; a name carrying the video's is read after it", () => {
    const item = movie([
      'Heat (1995)/Subs/2_English.srt',
      'Heat (1995)/Subs/Heat (1995).nl.srt',
      'Heat (1995)/Subs/Heat (1995)/3_Spanish.srt',
    ]);
    assert.deepEqual(summary(item), ['Dutch [external srt]', 'English [external srt]', 'Spanish [external srt]']);
  });

  it('an item without files or subtitles has none', () => {
    assert.deepEqual(subtitleTracks({ ...movie([]), files: [] }, { extract: true }), []);
    assert.deepEqual(subtitleTracks({ ...movie([]), local: {} }, { extract: true }), []);
  });
});
