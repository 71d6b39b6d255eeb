// Playback: what a client says it plays, and how it is to play a file (lib/playback/).
import { Type } from '@sinclair/typebox';
import { literals, Nullable } from './common';

const CodecName = Type.String({ minLength: 1, maxLength: 32, pattern: '^[a-z0-9_.-]+$' });
const CodecList = (what: string, example: string[]) =>
  Type.Array(CodecName, {
    maxItems: 64,
    description: `${what}, lower case, ffmpeg's names (e.g. ${example.map((e) => `\`${e}\``).join(', ')})`,
  });

export const ClientProfileSchema = Type.Object(
  {
    containers: CodecList('Containers it plays', ['mp4', 'webm', 'matroska', 'hls']),
    videoCodecs: CodecList('Video codecs it decodes', ['h264', 'hevc', 'vp9', 'av1']),
    audioCodecs: CodecList('Audio codecs it decodes', ['aac', 'mp3', 'opus', 'ac3']),
    maxHeight: Type.Optional(
      Type.Integer({
        minimum: 144,
        maximum: 4320,
        description: 'The tallest picture it shows, in lines; a taller video is converted down to it',
      }),
    ),
    maxAudioChannels: Type.Optional(
      Type.Integer({ minimum: 1, maximum: 16, description: 'The most audio channels it plays; more are mixed down to stereo' }),
    ),
    maxBitrate: Type.Optional(
      Type.Integer({
        minimum: 100_000,
        maximum: 1_000_000_000,
        description: 'The most bits per second it takes (a slow network); a file above it has its video converted, to a smaller picture',
      }),
    ),
  },
  { additionalProperties: false },
);

export const PlaybackRequest = Type.Object(
  {
    client: Type.Optional(ClientProfileSchema),
    startSeconds: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: 1_000_000,
        description: 'Where the player will start; playback begins there without converting what comes before',
      }),
    ),
    audioTrack: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 255, description: "0-based among the file's audio tracks; default: the file's default track" }),
    ),
  },
  { additionalProperties: false },
);

export const PlaybackReason = Type.Object({
  code: literals([
    'container',
    'video-codec',
    'video-bit-depth',
    'resolution',
    'bitrate',
    'audio-codec',
    'audio-channels',
    'unknown-format',
  ] as const),
  detail: Type.String({ description: 'In words, for a line under the player: "converting the audio: DTS → AAC"' }),
});

export const PlaybackInfo = Type.Object({
  method: literals(['direct', 'remux', 'transcode'] as const),
  url: Type.String({ description: 'direct: the stream URL; remux and transcode: an HLS playlist of the whole duration' }),
  mimeType: Type.String({ description: "direct: the file's type; else `application/vnd.apple.mpegurl`" }),
  reasons: Type.Array(PlaybackReason, { description: 'What did not fit the client; empty for direct' }),
  sessionId: Nullable(Type.String(), {
    description: 'The conversion session (null for direct): end it with DELETE when the player closes',
  }),
  durationSeconds: Nullable(Type.Number()),
  audioTrack: Nullable(Type.Integer({ description: 'The audio track played, 0-based; null for a file without sound' })),
});
