import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NOTHING } from '../../../lib/watching/rules';
import type { StoredState, TitleStates } from '../../../lib/watching/model';
import { KeptTitleStates } from '../../../lib/watching/title-states';

const film = (mediaId: string, positionSeconds: number): StoredState => ({
  ...NOTHING,
  mediaId,
  placement: { entity: 'movie' },
  positionSeconds,
  durationSeconds: 6000,
});
const episode = (mediaId: string): StoredState => ({
  ...NOTHING,
  mediaId,
  placement: { entity: 'episode', showId: 'sh', seasonNumber: 1, episodeNumber: 1 },
  positionSeconds: 100,
});

/** A table of one profile's states, read as the store would, counting the reads; `hold` keeps a read in flight. */
const table = (films: StoredState[]) => {
  const reads = { count: 0, release: undefined as (() => void) | undefined };
  const read = async (): Promise<TitleStates> => {
    reads.count++;
    const found = { films: new Map(films.map((f) => [f.mediaId, f])), shows: new Map() };
    if (reads.release === undefined) return found;
    await new Promise<void>((r) => (reads.release = r));
    return found;
  };
  return { read, reads };
};

describe('kept title states', () => {
  it('reads a profile once, then answers from memory, kept current by the writes made here', async () => {
    const { read, reads } = table([film('a', 100)]);
    const kept = new KeptTitleStates(read, () => 0);
    assert.equal((await kept.get('p'))!.films.get('a')!.positionSeconds, 100);
    kept.state('p', film('a', 200));
    kept.state('p', episode('e')); // lists show no episode's own state
    kept.show('p', 'sh', '2026-11-26T20:00:00.000Z', { playedEpisodes: 1, totalEpisodes: 2, nextEpisodeId: null });
    kept.showFavorite('p', 'sh', true);
    kept.show('p', 'sh', '2026-11-26T21:00:00.000Z', undefined);
    kept.showFavorite('p', 'loved', true); // a show never watched, only a favourite
    const states = (await kept.get('p'))!;
    assert.equal(states.films.get('a')!.positionSeconds, 200);
    assert.equal(states.films.has('e'), false);
    assert.deepEqual(
      states.shows.get('sh'),
      {
        summary: { playedEpisodes: 1, totalEpisodes: 2, nextEpisodeId: null },
        lastPlayedAt: '2026-11-26T21:00:00.000Z',
        favorite: true,
      },
      'a touch keeps the summary and the favourite',
    );
    assert.deepEqual(states.shows.get('loved'), { summary: undefined, lastPlayedAt: null, favorite: true });
    kept.apply({ kind: 'show-favorite', profileId: 'p', showId: 'sh', favorite: false });
    assert.equal(states.shows.get('sh')?.favorite, false);
    assert.equal(states.shows.get('sh')?.lastPlayedAt, '2026-11-26T21:00:00.000Z', 'all else kept');
    kept.forget(['a', 'sh', 'loved']);
    assert.deepEqual([states.films.size, states.shows.size], [0, 0]);
    assert.equal(reads.count, 1);
  });

  it('applies a write made while the profile is read over what the read found', async () => {
    const { read, reads } = table([film('a', 100)]);
    reads.release = () => undefined;
    const kept = new KeptTitleStates(read, () => 0);
    const first = kept.get('p');
    const second = kept.get('p');
    kept.state('p', film('a', 300));
    reads.release();
    assert.equal((await first)!.films.get('a')!.positionSeconds, 300, 'the read predates the write');
    assert.equal(await second, await first, 'one read for both');
    assert.equal(reads.count, 1);
  });

  it('reads again behind its readers once old, and keeps nothing of a profile deleted', async () => {
    let now = 0;
    const films = [film('a', 100)];
    const { read, reads } = table(films);
    const kept = new KeptTitleStates(read, () => now);
    await kept.get('p');
    films[0] = film('a', 900); // written by another process
    now = 60_000;
    assert.equal((await kept.get('p'))!.films.get('a')!.positionSeconds, 100, 'a minute later: as kept');
    now = 6 * 60_000;
    assert.equal((await kept.get('p'))!.films.get('a')!.positionSeconds, 100, 'old: answered as kept, read again behind');
    await new Promise((r) => setImmediate(r));
    assert.equal((await kept.get('p'))!.films.get('a')!.positionSeconds, 900);
    assert.equal(reads.count, 2);
    kept.drop('p');
    await kept.get('p');
    assert.equal(reads.count, 3);
  });

  it('keeps no profile with more titles than it may hold: its lists read them', async () => {
    const { read, reads } = table(Array.from({ length: 50_001 }, (_, i) => film(`f${i}`, 100)));
    const kept = new KeptTitleStates(read, () => 0);
    assert.equal(await kept.get('p'), undefined);
    assert.equal(await kept.get('p'), undefined);
    assert.equal(reads.count, 1, 'not read again before it is old');
  });
});
