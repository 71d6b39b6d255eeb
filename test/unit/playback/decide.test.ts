// What plays as it is and what is converted, for the files a household owns (the formats the
// browser trial found silent or black), against a browser's profile and a TV's.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { AudioStream, TechnicalInfo, VideoStream } from '../../../lib/media/technical-info';
import { BROWSER_PROFILE, decide, type ClientProfile } from '../../../lib/playback/decide';

const video = (codec: string, extra: Partial<VideoStream> = {}): VideoStream => ({
  codec,
  width: 1920,
  height: 1080,
  frameRate: 23.976,
  bitDepth: 8,
  hdr: null,
  ...extra,
});
const audio = (codec: string, channels = 6): AudioStream => ({ codec, channels, language: 'en' });
const file = (container: string, v: VideoStream | null, a: AudioStream[]): TechnicalInfo => ({
  durationSeconds: 5400,
  container,
  bitrate: 8_000_000,
  video: v,
  audio: a,
  subtitles: [],
});

const codes = (info: TechnicalInfo | null, client: ClientProfile = BROWSER_PROFILE, track?: number) => {
  const d = decide(info, client, track);
  return { method: d.method, codes: d.reasons.map((r) => r.code), video: d.video, audio: d.audio, audioTrack: d.audioTrack };
};

describe('playback decision', () => {
  it('plays an MP4 of H.264 and AAC as it is: no reasons, nothing converted', () => {
    assert.deepEqual(codes(file('mp4', video('h264'), [audio('aac', 2)])), {
      method: 'direct',
      codes: [],
      video: 'copy',
      audio: 'copy',
      audioTrack: 0,
    });
  });

  it('a Blu-ray rip in Matroska with AC3, E-AC3 or DTS: the video copied, the audio converted, repackaged', () => {
    for (const codec of ['ac3', 'eac3', 'dts']) {
      const d = decide(file('matroska', video('h264'), [audio(codec)]), BROWSER_PROFILE);
      assert.equal(d.method, 'remux', codec);
      assert.deepEqual(
        d.reasons.map((r) => r.code),
        ['container', 'audio-codec'],
      );
      assert.equal(d.reasons[1]!.detail, `converting the audio: ${codec.toUpperCase()} → AAC`);
      assert.deepEqual([d.video, d.audio], ['copy', 'convert']);
    }
  });

  it('AC3 in an MP4 keeps its container but not its audio: remux for the audio alone', () => {
    assert.deepEqual(codes(file('mp4', video('h264'), [audio('ac3')])).codes, ['audio-codec']);
    assert.equal(codes(file('mp4', video('h264'), [audio('ac3')])).method, 'remux');
  });

  it('HEVC 10-bit, Xvid in AVI, MPEG-2 in MPEG-TS and WMV convert the video', () => {
    assert.deepEqual(codes(file('matroska', video('hevc', { bitDepth: 10 }), [audio('aac', 2)])).codes, ['container', 'video-codec']);
    assert.deepEqual(codes(file('avi', video('mpeg4', { height: 480 }), [audio('mp3', 2)])).codes, ['container', 'video-codec']);
    assert.deepEqual(codes(file('mpeg-ts', video('mpeg2'), [audio('ac3', 2)])).codes, ['container', 'video-codec', 'audio-codec']);
    assert.deepEqual(codes(file('asf', video('vc1'), [audio('wma', 2)])).codes, ['container', 'video-codec', 'audio-codec']);
    for (const f of [file('avi', video('mpeg4'), [audio('mp3', 2)]), file('asf', video('vc1'), [audio('wma', 2)])])
      assert.equal(codes(f).method, 'transcode');
  });

  it('H.264 at 10 bits is converted even where H.264 plays', () => {
    const d = decide(file('mp4', video('h264', { bitDepth: 10 }), [audio('aac', 2)]), BROWSER_PROFILE);
    assert.equal(d.method, 'transcode');
    assert.deepEqual(d.reasons, [{ code: 'video-bit-depth', detail: 'converting the video: 10-bit H264 → 8-bit' }]);
  });

  it('a TV that plays Matroska, HEVC and AC3 up to 1080p and stereo: 4K is scaled, 5.1 is mixed down', () => {
    const tv: ClientProfile = {
      containers: ['matroska', 'mp4'],
      videoCodecs: ['h264', 'hevc'],
      audioCodecs: ['aac', 'ac3'],
      maxHeight: 1080,
      maxAudioChannels: 2,
    };
    assert.deepEqual(codes(file('matroska', video('hevc'), [audio('ac3', 2)]), tv).method, 'direct');
    const big = decide(file('matroska', video('hevc', { width: 3840, height: 2160 }), [audio('ac3', 6)]), tv);
    assert.equal(big.method, 'transcode');
    assert.deepEqual(
      big.reasons.map((r) => r.detail),
      ['converting the video: 2160p → 1080p', 'converting the audio: 5.1 → stereo'],
    );
  });

  it("plays the audio track asked for, else the file's default, else the first", () => {
    const twoTracks = file('matroska', video('h264'), [audio('aac', 2), { ...audio('ac3'), default: true }]);
    const webmClient: ClientProfile = { ...BROWSER_PROFILE, containers: [...BROWSER_PROFILE.containers, 'matroska'] };
    assert.deepEqual(codes(twoTracks, webmClient), {
      method: 'remux',
      codes: ['audio-codec'],
      video: 'copy',
      audio: 'convert',
      audioTrack: 1,
    });
    assert.deepEqual(codes(twoTracks, webmClient, 0), { method: 'direct', codes: [], video: 'copy', audio: 'copy', audioTrack: 0 });
    assert.equal(codes(twoTracks, webmClient, 7).audioTrack, 1, 'a track out of range is the default');
    assert.equal(
      codes(file('matroska', video('h264'), [audio('aac', 2), audio('ac3')]), webmClient).audioTrack,
      0,
      'no default: the first',
    );
  });

  it('a film with no sound, and a file the scan could not read', () => {
    assert.deepEqual(codes(file('mp4', video('h264'), [])), {
      method: 'direct',
      codes: [],
      video: 'copy',
      audio: 'none',
      audioTrack: null,
    });
    assert.deepEqual(codes(null), { method: 'transcode', codes: ['unknown-format'], video: 'convert', audio: 'convert', audioTrack: null });
  });

  it('converts the video of a file above the bit rate a client takes, whatever it plays', () => {
    const film = file('mp4', video('h264'), [audio('aac', 2)]);
    assert.deepEqual(codes(film, { ...BROWSER_PROFILE, maxBitrate: 4_000_000 }), {
      method: 'transcode',
      codes: ['bitrate'],
      video: 'convert',
      audio: 'copy',
      audioTrack: 0,
    });
    assert.equal(codes(film, { ...BROWSER_PROFILE, maxBitrate: 8_000_000 }).method, 'direct');
  });
});
