// When a conversion copies the audio the client plays and when it encodes it anyway: only a
// remux, only what MPEG-TS segments carry, only from a file whose timestamps start at zero
// (ffmpeg cuts a copied stream wrongly otherwise, lib/playback/audio-copy.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { audioPlan } from '../../../lib/playback/audio-copy';
import type { VideoTiming } from '../../../lib/playback/plan';

const timing = (codecs: string[], extra: Partial<VideoTiming> = {}): VideoTiming => ({
  durationS: 60,
  startS: 0,
  frameS: 0.04,
  keyframes: [],
  fileStartS: 0,
  audio: codecs.map((codec) => ({ codec, frameS: codec === 'ac3' ? 0.032 : 1024 / 48_000 })),
  ...extra,
});

describe('audio copy', () => {
  it("copies a remux's track the client plays, with its frame (where its cuts go)", () => {
    assert.deepEqual(audioPlan('copy', 'remux', timing(['aac']), 0), { audio: 'copy', audioFrameS: 1024 / 48_000 });
    assert.deepEqual(audioPlan('copy', 'remux', timing(['aac', 'ac3']), 1), { audio: 'copy', audioFrameS: 0.032 });
  });

  it('encodes what the decision converts, and a file without sound has none', () => {
    assert.deepEqual(audioPlan('convert', 'remux', timing(['dts']), 0), { audio: 'convert' });
    assert.deepEqual(audioPlan('none', 'remux', timing([]), null), { audio: 'none' });
  });

  it('encodes what MPEG-TS segments cannot carry, though the client plays it as a file', () => {
    for (const codec of ['opus', 'flac', 'vorbis'])
      assert.deepEqual(audioPlan('copy', 'remux', timing([codec]), 0), { audio: 'convert' }, codec);
  });

  it('encodes in a transcode, from a file that starts later than zero, and where the streams were not read', () => {
    assert.deepEqual(audioPlan('copy', 'transcode', timing(['aac']), 0), { audio: 'convert' });
    assert.deepEqual(audioPlan('copy', 'remux', timing(['aac'], { fileStartS: 1.4 }), 0), { audio: 'convert' });
    const { audio: _read, fileStartS: _start, ...old } = timing(['aac']);
    assert.deepEqual(audioPlan('copy', 'remux', old, 0), { audio: 'convert' });
  });
});
