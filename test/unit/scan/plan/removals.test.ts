// What must be removed: items of the scanned folder whose files are gone, then emptied shows.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CatalogItem, EpisodeItem, IndexEntry } from '../../../../lib/catalog/model';
import { inScope, planRemovals } from '../../../../lib/scan/plan/removals';

const ref = (relPath: string) => ({ relPath, size: 100, mtimeMs: 1, part: null });
const movie = (id: string, relPath: string): IndexEntry => ({ id, entity: 'movie', addedAt: 'T0', files: [ref(relPath)] });
const show = (id: string): IndexEntry => ({ id, entity: 'tvshow', addedAt: 'T0' });
const episode = (id: string, showId: string, relPath: string): IndexEntry => ({
  id,
  entity: 'episode',
  addedAt: 'T0',
  showId,
  seasonNumber: 1,
  files: [ref(relPath)],
});
/** A desired episode, as desiredItems gives it. */
const desiredEpisode = (id: string, showId: string, relPath: string): EpisodeItem => ({
  id,
  libraryId: 'lib',
  addedAt: 'T1',
  updatedAt: 'T1',
  lastJob: 'job2',
  lastChange: 'added',
  entity: 'episode',
  showId,
  seasonNumber: 1,
  episodeNumber: 1,
  title: null,
  overview: null,
  airDate: null,
  files: [ref(relPath)],
});
const none = new Map<string, never>();
const ids = (entries: IndexEntry[]) => entries.map((e) => e.id);

describe('scan plan: removals', () => {
  it('inScope: the whole library, or paths under the scanned folder only', () => {
    assert.deepEqual(['a.mkv', 'Sub/a.mkv'].map(inScope('')), [true, true]);
    // A sibling folder whose name starts the same is not inside it.
    assert.deepEqual(['Sub/a.mkv', 'Sub/Deeper/a.mkv', 'Subway/a.mkv', 'Sub', 'a.mkv'].map(inScope('Sub')), [
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('removes entries whose files are gone, not the desired nor the kept ones', () => {
    const index = [movie('gone', 'Gone.mkv'), movie('desired', 'Desired.mkv'), movie('kept', 'Kept.mkv')];
    // Only the ids of desired items matter here.
    const items = new Map<string, CatalogItem>([['desired', desiredEpisode('desired', 's', 'Desired.mkv')]]);
    const kept = new Map([['kept', index[2]!]]);
    assert.deepEqual(ids(planRemovals(index, items, kept, '')), ['gone']);
  });

  it('a scoped scan removes nothing outside its folder', () => {
    const index = [movie('inside', 'Sub/Gone.mkv'), movie('outside', 'Other/Gone.mkv'), movie('sibling', 'Subway/Gone.mkv')];
    assert.deepEqual(ids(planRemovals(index, none, none, 'Sub')), ['inside']);
  });

  it('a show emptied of episodes goes after them; one with an episode left, or a new one, stays', () => {
    const index = [
      show('emptied'),
      show('half'),
      show('renumbered'),
      episode('e1', 'emptied', 'Emptied/S01E01.mkv'),
      episode('e2', 'half', 'Half/S01E01.mkv'),
      episode('e3', 'half', 'Half/S01E02.mkv'),
      episode('e4', 'renumbered', 'Renumbered/S01E01.mkv'),
    ];
    const kept = new Map([['e3', index[5]!]]);
    // The old episode is gone but a new file of the same show is desired: the show keeps it.
    const items = new Map<string, CatalogItem>([['e5', desiredEpisode('e5', 'renumbered', 'Renumbered/S01E01.v2.mkv')]]);
    assert.deepEqual(ids(planRemovals(index, items, kept, '')), ['e1', 'e2', 'e4', 'emptied']);
  });

  it('a scoped scan keeps a show whose other episodes lie outside the folder', () => {
    const index = [show('s'), episode('in', 's', 'Show/Season 1/S01E01.mkv'), episode('out', 's', 'Show/Season 2/S02E01.mkv')];
    assert.deepEqual(ids(planRemovals(index, none, none, 'Show/Season 1')), ['in']);
    assert.deepEqual(ids(planRemovals(index, none, none, 'Show')), ['in', 'out', 's']);
  });

  it('keeps what lies below a folder that could not be read: not seen is not gone', () => {
    const index = [
      movie('locked', 'Locked/Heat (1995)/Heat (1995).mkv'),
      movie('gone', 'Open/Alien (1979).mkv'),
      show('tv'),
      episode('e1', 'tv', 'Locked/Show/S01E01.mkv'),
    ];
    assert.deepEqual(ids(planRemovals(index, none, none, '', ['Locked'])), ['gone']);
    // A folder whose name only starts the same is not below it.
    assert.deepEqual(ids(planRemovals([movie('near', 'Locked2/a.mkv')], none, none, '', ['Locked'])), ['near']);
  });
});
