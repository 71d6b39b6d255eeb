// A library's counts from its final index.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FileRef, IndexEntry } from '../../../../lib/catalog/model';
import type { TechnicalInfo } from '../../../../lib/media/technical-info';
import { countsOf, RunningCounts } from '../../../../lib/scan/plan/counts';

const lasting = (durationSeconds: number | null): TechnicalInfo => ({
  durationSeconds,
  container: null,
  bitrate: null,
  video: null,
  audio: [],
  subtitles: [],
});
const ref = (relPath: string, size: number, tech?: TechnicalInfo | null): FileRef => ({
  relPath,
  size,
  mtimeMs: 1,
  part: null,
  ...(tech !== undefined ? { tech } : {}),
});
const show = (id: string): IndexEntry => ({ id, entity: 'tvshow', addedAt: 'T0' });
const episode = (id: string, showId: string, seasonNumber: number, file: FileRef): IndexEntry => ({
  id,
  entity: 'episode',
  addedAt: 'T0',
  showId,
  seasonNumber,
  files: [file],
});

describe('scan plan: counts', () => {
  it('an empty index counts nothing', () => {
    assert.deepEqual(countsOf([]), { movies: 0, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 0, totalDurationSeconds: 0 });
  });

  it('movies with every part sized; durations only where they could be read', () => {
    const index: IndexEntry[] = [
      {
        id: 'm1',
        entity: 'movie',
        addedAt: 'T0',
        files: [ref('Kill Bill - cd1.avi', 700, lasting(3000)), ref('Kill Bill - cd2.avi', 300, lasting(1500))],
      },
      { id: 'm2', entity: 'movie', addedAt: 'T0', files: [ref('Heat.mkv', 50, null)] },
      { id: 'm3', entity: 'movie', addedAt: 'T0', files: [ref('Alien.mkv', 5, lasting(null))] },
    ];
    assert.deepEqual(countsOf(index), { movies: 3, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 1055, totalDurationSeconds: 4500 });
  });

  it('seasons are per show; a double-episode file is sized and timed once', () => {
    const double = ref('A/Season 1/A.S01E01-E02.mkv', 1000, lasting(2400));
    const index = [
      show('a'),
      show('b'),
      episode('a1', 'a', 1, double),
      episode('a2', 'a', 1, double),
      episode('a3', 'a', 2, ref('A/Season 2/A.S02E01.mkv', 10, lasting(60))),
      // Season 1 of another show is another season.
      episode('b1', 'b', 1, ref('B/Season 1/B.S01E01.mkv', 1)),
    ];
    assert.deepEqual(countsOf(index), { movies: 0, tvShows: 2, seasons: 3, episodes: 4, totalSizeBytes: 1011, totalDurationSeconds: 2460 });
  });

  it('kept running, entry by entry, they are what counting the index whole gives at every step', () => {
    const double = (tech?: TechnicalInfo) => ref('A/Season 1/A.S01E01-E02.mkv', 1000, tech);
    const live = new RunningCounts();
    const index: IndexEntry[] = [];
    const set = (e: IndexEntry) => {
      live.set(e);
      index.splice(0, index.length, ...index.filter((i) => i.id !== e.id), e);
      assert.deepEqual(live.value, countsOf(index), `after ${e.id}`);
    };
    set(show('a'));
    set(episode('a1', 'a', 1, double()));
    set(episode('a2', 'a', 1, double()));
    set({ id: 'm1', entity: 'movie', addedAt: 'T0', files: [ref('Heat.mkv', 50)] });
    // Headers read: an item set again with its files' durations.
    set({ id: 'm1', entity: 'movie', addedAt: 'T0', files: [ref('Heat.mkv', 50, lasting(6000))] });
    set(episode('a1', 'a', 1, double(lasting(2400))));
    assert.deepEqual(live.value, { movies: 1, tvShows: 1, seasons: 1, episodes: 2, totalSizeBytes: 1050, totalDurationSeconds: 8400 });
    // Removed: the double file stays while an episode still holds it, and the season with it.
    live.delete('a1');
    assert.deepEqual(live.value, { movies: 1, tvShows: 1, seasons: 1, episodes: 1, totalSizeBytes: 1050, totalDurationSeconds: 8400 });
    live.delete('a2').delete('m1').delete('a');
    assert.deepEqual(live.value, countsOf([]));
  });
});
