// The TimingStore contract: what every adapter of files' timings does (test/contracts/support.ts
// says how contracts run).
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { VideoTiming } from '../../lib/playback/plan';
import type { TimingStore } from '../../lib/playback/timing-store';
import { uid } from './support';

/** Every field filled in: a round trip that loses or reshapes one shows. */
const timing = (durationS: number): VideoTiming => ({
  durationS,
  startS: 0.041708,
  audioTracks: 2,
  audio: [
    { codec: 'ac3', frameS: 0.032 },
    { codec: 'aac', frameS: 0.021333 },
  ],
  fileStartS: 1.4,
  prerollS: 0.5,
  frameS: 1 / 23.976,
  keyframes: [
    [0.041708, 0],
    [2.043708, 2.002],
    [4.045708, 4.004],
  ],
});

/** A contract's store is its own and starts empty (test/contracts/support.ts). */
export const timingContract = (store: TimingStore) => {
  it('keeps a timing per file, part and version, whole', async () => {
    const mediaId = `mv_tc${uid()}`;
    assert.equal(await store.get(mediaId, 1, '10-20'), undefined, 'nothing before it is put');
    await store.put(mediaId, 1, '10-20', timing(7200));
    await store.put(mediaId, 2, '10-20', timing(3600));
    await store.put(mediaId, 1, '11-20', timing(60));
    assert.deepEqual(await store.get(mediaId, 1, '10-20'), timing(7200));
    assert.deepEqual(await store.get(mediaId, 2, '10-20'), timing(3600), 'another part is apart');
    assert.deepEqual(await store.get(mediaId, 1, '11-20'), timing(60), 'a replaced file (another version) is apart');
    assert.equal(await store.get(`mv_tc${uid()}`, 1, '10-20'), undefined, 'another item has none');
  });

  it('replaces a timing put again, and keeps one without the fields added later as it was put', async () => {
    const mediaId = `mv_tc${uid()}`;
    const { audioTracks: _t, audio: _a, fileStartS: _f, prerollS: _p, ...older } = timing(100);
    await store.put(mediaId, 1, '1-1', older);
    assert.deepEqual(await store.get(mediaId, 1, '1-1'), older);
    await store.put(mediaId, 1, '1-1', timing(100));
    assert.deepEqual(await store.get(mediaId, 1, '1-1'), timing(100));
  });
};
