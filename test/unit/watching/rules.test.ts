import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_THRESHOLDS as T, markFavorite, markPlayed, markUnplayed, NOTHING, report, toUserData } from '../../../lib/watching/rules';

const at = (n: number) => `2026-11-26T20:00:${String(n).padStart(2, '0')}.000Z`;

describe('watch rules', () => {
  it('keeps nothing before the minimum, the position between, and marks played past the end', () => {
    assert.equal(report(undefined, 200, 6000, T, at(1)).positionSeconds, 0, '3 % keeps nothing');
    assert.equal(report(undefined, 200, 6000, T, at(1)).lastPlayedAt, null);
    const middle = report(undefined, 3000, 6000, T, at(2));
    assert.deepEqual(toUserData(middle), {
      positionSeconds: 3000,
      progress: 0.5,
      played: false,
      playCount: 0,
      lastPlayedAt: at(2),
      favorite: false,
    });
    const end = report(middle, 5500, 6000, T, at(3));
    assert.deepEqual(toUserData(end), {
      positionSeconds: 0,
      progress: 0,
      played: true,
      playCount: 1,
      lastPlayedAt: at(3),
      favorite: false,
    });
  });

  it('counts one play per viewing, however many reports come past the end, and again for a second viewing', () => {
    let s = report(undefined, 5500, 6000, T, at(1));
    s = report(s, 5700, 6000, T, at(2));
    s = report(s, 5990, 6000, T, at(3));
    assert.equal(s.playCount, 1);
    s = report(s, 100, 6000, T, at(4)); // watching it again from the start
    s = report(s, 3000, 6000, T, at(5));
    assert.deepEqual([s.played, s.positionSeconds], [true, 3000], 'a rewatch in progress stays played');
    s = report(s, 5600, 6000, T, at(6));
    assert.equal(s.playCount, 2);
  });

  it('takes the thresholds given, and keeps a position as it is without a length', () => {
    const strict = { resumeMinPercent: 20, playedAtPercent: 99 };
    assert.equal(report(undefined, 600, 6000, strict, at(1)).positionSeconds, 0, '10 % < 20 %');
    assert.equal(report(undefined, 5500, 6000, strict, at(1)).played, false, '92 % < 99 %');
    assert.equal(report(undefined, 42, null, T, at(1)).positionSeconds, 42);
    assert.equal(toUserData(report(undefined, 42, null, T, at(1))).progress, 0);
  });

  it('marks by hand: played counts once, unplayed forgets the viewings', () => {
    const middle = report(undefined, 3000, 6000, T, at(1));
    const played = markPlayed(middle, at(2));
    assert.deepEqual([played.played, played.playCount, played.positionSeconds], [true, 1, 0]);
    assert.equal(markPlayed(played, at(3)).playCount, 1, 'played already');
    assert.deepEqual(toUserData(markUnplayed(played)), {
      positionSeconds: 0,
      progress: 0,
      played: false,
      playCount: 0,
      lastPlayedAt: at(2),
      favorite: false,
    });
  });

  it('keeps a favourite apart from what was watched: reports and played marks keep it, and it starts nothing', () => {
    const liked = markFavorite(undefined, true);
    assert.deepEqual(liked, { ...NOTHING, favorite: true }, 'no position, no play, no time: nothing to resume');
    assert.equal(toUserData(undefined).favorite, false);
    let s = report(liked, 3000, 6000, T, at(1));
    assert.deepEqual([s.positionSeconds, s.favorite], [3000, true]);
    s = report(s, 5500, 6000, T, at(2));
    assert.deepEqual([s.played, s.favorite], [true, true], 'played past the end, still a favourite');
    assert.equal(markUnplayed(s).favorite, true);
    assert.equal(markPlayed(markUnplayed(s), at(3)).favorite, true);
    const unliked = markFavorite(s, false);
    assert.deepEqual(unliked, { ...s, favorite: false }, 'unmarked: all else as it was');
  });
});
