// A conversion's segments, planned before anything is converted: remux segments open on the
// file's keyframes about 3 s apart and end where the next begins (the copied video half a frame
// before that keyframe's decoding time); transcode segments are 6 s on the frame grid; the
// playlist lists them all with their durations.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { playlist, remuxPlan, transcodePlan, type VideoTiming } from '../../../lib/playback/plan';

const FRAME = 1 / 25;
const timing = (keyframes: number[], durationS: number, reorderS = 2 * FRAME): VideoTiming => ({
  durationS,
  startS: keyframes[0] ?? 0,
  frameS: FRAME,
  keyframes: keyframes.map((t) => [t, t - reorderS] as const),
});

describe('remux plan', () => {
  it('cuts at the keyframe nearest to 2 s after each start for the first three, then 3 s, so segments join exactly', () => {
    const plan = remuxPlan(timing([0, 2, 4, 6.5, 9, 12, 13.5, 19, 24], 30));
    assert.deepEqual(
      plan.map((s) => [s.start, s.end]),
      [
        [0, 2],
        [2, 4],
        [4, 6.5],
        [6.5, 9],
        [9, 12],
        [12, 13.5],
        [13.5, 19],
        [19, 24],
        [24, 30],
      ],
    );
    for (let i = 1; i < plan.length; i++) assert.equal(plan[i]!.start, plan[i - 1]!.end);
  });

  it('stops the copied video half a frame before the next keyframe is decoded, and leaves the last open', () => {
    const plan = remuxPlan(timing([0, 6, 12], 15));
    assert.ok(Math.abs(plan[0]!.videoEnd! - (6 - 2 * FRAME - FRAME / 2)) < 1e-9);
    assert.equal(plan.at(-1)!.videoEnd, undefined);
    assert.equal(plan.at(-1)!.end, 15);
  });

  it('joins a last piece shorter than a second to the segment before it', () => {
    const plan = remuxPlan(timing([0, 6, 12, 17.6], 18));
    assert.deepEqual(
      plan.map((s) => [s.start, s.end]),
      [
        [0, 6],
        [6, 12],
        [12, 18],
      ],
    );
  });

  it('keeps long gaps between keyframes as they are (copied video cannot be cut elsewhere)', () => {
    const plan = remuxPlan(timing([0, 20, 40], 50));
    assert.deepEqual(
      plan.map((s) => [s.start, s.end]),
      [
        [0, 20],
        [20, 40],
        [40, 50],
      ],
    );
  });
});

describe('transcode plan', () => {
  it('makes 2 s segments, then 6 s ones, from the first frame, on the frame grid, the last one what is left', () => {
    const plan = transcodePlan({ durationS: 30, startS: 0.02, frameS: 1 / 23.976 });
    assert.equal(plan[0]!.start, 0.02);
    assert.equal(plan.at(-1)!.end, 30);
    plan.slice(0, -1).forEach((s, i) => {
      const frames = (s.end - 0.02) * 23.976;
      assert.ok(Math.abs(frames - Math.round(frames)) < 1e-6, `${s.end} is on the grid`);
      assert.ok(Math.abs(s.end - s.start - (i < 3 ? 2 : 6)) < 1 / 23.976, `segment ${i} lasts ${s.end - s.start} s`);
    });
    for (let i = 1; i < plan.length; i++) assert.equal(plan[i]!.start, plan[i - 1]!.end);
  });

  it('joins a last piece shorter than a second to the segment before it', () => {
    assert.deepEqual(
      transcodePlan({ durationS: 12.5, startS: 0, frameS: 0 }).map((s) => [s.start, s.end]),
      [
        [0, 2],
        [2, 4],
        [4, 6],
        [6, 12.5],
      ],
    );
    assert.deepEqual(
      transcodePlan({ durationS: 2.5, startS: 0, frameS: FRAME }).map((s) => [s.start, s.end]),
      [[0, 2.5]],
    );
  });
});

describe('playlist', () => {
  it('is a VOD playlist of every segment, with a target duration no segment exceeds once rounded', () => {
    const text = playlist(remuxPlan(timing([0, 6.6, 12], 12.8)), (i) => `segments/${i}.ts`);
    const lines = text.trim().split('\n');
    assert.equal(lines[0], '#EXTM3U');
    assert.ok(lines.includes('#EXT-X-PLAYLIST-TYPE:VOD'));
    assert.equal(lines.at(-1), '#EXT-X-ENDLIST');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('segments/')),
      ['segments/0.ts', 'segments/1.ts'],
    );
    const durations = lines.filter((l) => l.startsWith('#EXTINF:')).map((l) => Number(l.slice(8, -1)));
    assert.deepEqual(
      durations.map((d) => d.toFixed(1)),
      ['6.6', '6.2'],
    );
    const target = Number(lines.find((l) => l.startsWith('#EXT-X-TARGETDURATION:'))!.split(':')[1]);
    assert.ok(durations.every((d) => Math.round(d) <= target));
  });
});
