// What a Jellyfin app's device profile makes of a file, as our playback engine then decides it:
// the profiles of the apps (a browser-like web client, a TV with and without HEVC, a TV that
// passes Dolby Vision through, a phone on a slow network) against the files a household owns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readDeviceProfile } from '../../../lib/jellyfin/device-profile';
import { judgeFile } from '../../../lib/jellyfin/play-verdict';
import { matchDoorRoute } from '../../../lib/jellyfin/routes';
import type { AudioStream, TechnicalInfo, VideoStream } from '../../../lib/media/technical-info';
import { decide } from '../../../lib/playback/decide';

const video = (codec: string, extra: Partial<VideoStream> = {}): VideoStream => ({
  codec,
  width: 1920,
  height: 1080,
  frameRate: 23.976,
  bitDepth: 8,
  hdr: null,
  ...extra,
});
const audio = (codec: string, channels = 2, extra: Partial<AudioStream> = {}): AudioStream => ({
  codec,
  channels,
  language: 'en',
  ...extra,
});
const file = (container: string, v: VideoStream | null, a: AudioStream[], bitrate = 8_000_000): TechnicalInfo => ({
  durationSeconds: 5400,
  container,
  bitrate,
  video: v,
  audio: a,
  subtitles: [],
});

/** A TV's profile as the Android TV app sends it (keys in the case the apps write). */
const tv = ({ hevc = false, dolbyVision = false } = {}) =>
  readDeviceProfile({
    DirectPlayProfiles: [
      { Type: 'Video', Container: 'mp4,m4v,mkv,ts', VideoCodec: hevc ? 'h264,hevc' : 'h264', AudioCodec: 'aac,mp3,ac3,eac3' },
      { Type: 'Audio', Container: 'flac' },
    ],
    TranscodingProfiles: [
      { Type: 'Video', Container: 'ts', VideoCodec: hevc ? 'h264,hevc' : 'h264', AudioCodec: 'aac,ac3', Protocol: 'hls' },
    ],
    CodecProfiles: [
      {
        Type: 'Video',
        Codec: 'h264',
        Conditions: [{ Condition: 'LessThanEqual', Property: 'VideoBitDepth', Value: '8', IsRequired: false }],
      },
      {
        Type: 'Video',
        Codec: 'hevc',
        Conditions: [
          { Condition: 'LessThanEqual', Property: 'VideoBitDepth', Value: '10' },
          { Condition: 'EqualsAny', Property: 'VideoRangeType', Value: dolbyVision ? 'SDR|HDR10|DOVIWithHDR10' : 'SDR|HDR10|HLG' },
          // A level the scan does not keep: unknown holds, as in Jellyfin, unless it is required.
          { Condition: 'LessThanEqual', Property: 'VideoLevel', Value: '153', IsRequired: false },
        ],
      },
      { Type: 'VideoAudio', Codec: 'ac3,eac3', Conditions: [{ Condition: 'LessThanEqual', Property: 'AudioChannels', Value: '6' }] },
    ],
  });

/** The engine's decision on the verdict, and the reasons the app is told. */
const play = (
  profile: ReturnType<typeof readDeviceProfile>,
  info: TechnicalInfo,
  limits: Parameters<typeof judgeFile>[2] = { audioTrack: null },
) => {
  const verdict = judgeFile(profile, info, limits);
  const decision = decide(info, verdict.client, limits.audioTrack ?? undefined);
  return { method: decision.method, video: decision.video, audio: decision.audio, reasons: verdict.reasons };
};

describe("a Jellyfin app's device profile, as the playback engine reads it", () => {
  it('plays what the app plays directly: H.264 and AAC in MP4, HEVC 10-bit on a TV with HEVC', () => {
    assert.deepEqual(play(tv(), file('mp4', video('h264'), [audio('aac')])), {
      method: 'direct',
      video: 'copy',
      audio: 'copy',
      reasons: [],
    });
    const hevc10 = file('matroska', video('hevc', { bitDepth: 10, hdr: 'hdr10' }), [audio('eac3', 6)]);
    assert.deepEqual(play(tv({ hevc: true }), hevc10), { method: 'direct', video: 'copy', audio: 'copy', reasons: [] });
  });

  it('converts HEVC for a TV without it, and Dolby Vision for one that does not pass it through', () => {
    const hevc = file('matroska', video('hevc', { bitDepth: 10 }), [audio('aac')]);
    assert.deepEqual(play(tv(), hevc), { method: 'transcode', video: 'convert', audio: 'copy', reasons: ['VideoCodecNotSupported'] });
    const dv = file('matroska', video('hevc', { bitDepth: 10, hdr: 'dolby-vision' }), [audio('aac')]);
    assert.deepEqual(play(tv({ hevc: true }), dv).reasons, ['VideoRangeTypeNotSupported']);
    assert.equal(play(tv({ hevc: true }), dv).method, 'transcode');
    assert.equal(play(tv({ hevc: true, dolbyVision: true }), dv).method, 'direct');
  });

  it('copies the video and converts only the audio where the audio is what does not fit', () => {
    assert.deepEqual(play(tv(), file('matroska', video('h264'), [audio('dts', 6)])), {
      method: 'remux',
      video: 'copy',
      audio: 'convert',
      reasons: ['AudioCodecNotSupported'],
    });
    // 7.1 AC-3 is more than the TV's six channels.
    assert.deepEqual(play(tv(), file('matroska', video('h264'), [audio('ac3', 8)])).reasons, ['AudioChannelsNotSupported']);
    // A container the app does not name: the streams are kept, the package changes.
    assert.deepEqual(play(tv(), file('avi', video('h264'), [audio('aac')])), {
      method: 'remux',
      video: 'copy',
      audio: 'copy',
      reasons: ['ContainerNotSupported'],
    });
  });

  it('holds the chosen audio track, the app’s channel limit and its bit rate against the file', () => {
    const twoTracks = file('mp4', video('h264'), [audio('aac'), audio('dts', 6, { language: 'fr' })]);
    assert.equal(play(tv(), twoTracks, { audioTrack: 0 }).method, 'direct');
    assert.equal(play(tv(), twoTracks, { audioTrack: 1 }).method, 'remux');
    assert.deepEqual(play(tv(), file('mp4', video('h264'), [audio('ac3', 6)]), { audioTrack: null, maxAudioChannels: 2 }).reasons, [
      'AudioChannelsNotSupported',
    ]);
    assert.deepEqual(
      play(tv(), file('mp4', video('h264'), [audio('aac')], 40_000_000), { audioTrack: null, maxStreamingBitrate: 8_000_000 }),
      {
        method: 'transcode',
        video: 'convert',
        audio: 'copy',
        reasons: ['ContainerBitrateExceedsLimit'],
      },
    );
  });

  it('refuses a required condition on a value the scan does not know', () => {
    const strict = readDeviceProfile({
      DirectPlayProfiles: [{ Type: 'Video', Container: 'mp4', VideoCodec: 'h264', AudioCodec: 'aac' }],
      CodecProfiles: [
        {
          Type: 'Video',
          Codec: 'h264',
          Conditions: [{ Condition: 'LessThanEqual', Property: 'VideoLevel', Value: '41', IsRequired: true }],
        },
      ],
    });
    assert.deepEqual(play(strict, file('mp4', video('h264'), [audio('aac')])).reasons, ['VideoLevelNotSupported']);
  });

  it('applies a codec profile only where its ApplyConditions hold', () => {
    const profile = readDeviceProfile({
      directplayprofiles: [{ type: 'Video', container: 'mkv', videocodec: 'hevc', audiocodec: 'aac' }],
      codecprofiles: [
        {
          type: 'Video',
          codec: 'hevc',
          applyConditions: [{ condition: 'GreaterThanEqual', property: 'Width', value: '3000' }],
          conditions: [{ condition: 'LessThanEqual', property: 'VideoBitDepth', value: '8' }],
        },
      ],
    });
    assert.equal(play(profile, file('matroska', video('hevc', { bitDepth: 10 }), [audio('aac')])).method, 'direct');
    assert.equal(
      play(profile, file('matroska', video('hevc', { bitDepth: 10, width: 3840, height: 2160 }), [audio('aac')])).method,
      'transcode',
    );
  });

  it('plays the file as it is for an app that sends no profile (Infuse asks with GET and none), within the limits it gave', () => {
    const mkv = file('matroska', video('hevc', { bitDepth: 10 }), [audio('dts', 6)]);
    assert.deepEqual(play(undefined, mkv), { method: 'direct', video: 'copy', audio: 'copy', reasons: [] });
    assert.equal(play(undefined, mkv, { audioTrack: null, maxAudioChannels: 2 }).method, 'remux');
  });
});

describe("the door's routes with a parameter inside a segment", () => {
  it('finds stream.<container>, a segment and a subtitle format, in any case', () => {
    const found = (method: string, path: string) => {
      const m = matchDoorRoute(method, path);
      return m.kind === 'found' ? [m.route.name, m.params] : m.kind;
    };
    assert.deepEqual(found('GET', '/Videos/abc/stream.mkv'), ['stream', { itemId: 'abc', container: 'mkv' }]);
    assert.deepEqual(found('HEAD', '/videos/abc/STREAM'), ['stream', { itemId: 'abc' }]);
    assert.deepEqual(found('GET', '/Videos/abc/master.m3u8'), ['masterPlaylist', { itemId: 'abc' }]);
    assert.deepEqual(found('GET', '/Videos/abc/hls1/main/12.ts'), ['segment', { itemId: 'abc', playlistId: 'main', segmentId: '12' }]);
    assert.deepEqual(found('GET', '/emby/Videos/a/b/Subtitles/3/0/Stream.js'), [
      'subtitle',
      { itemId: 'a', mediaSourceId: 'b', index: '3', startTicks: '0', format: 'js' },
    ]);
    assert.equal(found('GET', '/Videos/abc/stream.'), 'none');
    assert.equal(found('GET', '/Videos/abc/hls1/main/12.mp4'), 'none');
  });
});
