// Whether a client plays a file as it is, and when not, what must be converted: the scan's
// technical info against what the client says it plays. Pure, so every rule is tested on
// facts alone. Names are the contract's (ffmpeg's): the technical info's few others are
// mapped here (`mpeg-ts` is `mpegts`, `mpeg2` is `mpeg2video` ...).
import type { AudioStream, TechnicalInfo } from '../media/technical-info';

/** What a client plays, as it says in its request (every list lower-case names). */
export interface ClientProfile {
  containers: readonly string[];
  videoCodecs: readonly string[];
  audioCodecs: readonly string[];
  maxHeight?: number | undefined;
  maxAudioChannels?: number | undefined;
  /** The most bits per second it takes; a file above it has its video converted (smaller, service.ts). */
  maxBitrate?: number | undefined;
}

/** What every current browser plays: the profile of a client that says nothing. */
export const BROWSER_PROFILE: ClientProfile = {
  containers: ['mp4', 'webm', 'hls'],
  videoCodecs: ['h264', 'vp9', 'av1'],
  audioCodecs: ['aac', 'mp3', 'opus', 'flac'],
};

export type PlayMethod = 'direct' | 'remux' | 'transcode';
export type ReasonCode =
  'container' | 'video-codec' | 'video-bit-depth' | 'resolution' | 'bitrate' | 'audio-codec' | 'audio-channels' | 'unknown-format';

export interface Reason {
  code: ReasonCode;
  detail: string;
}

export interface Decision {
  method: PlayMethod;
  /** What did not fit, in words; empty for direct play. */
  reasons: Reason[];
  /** The audio track played (0-based among the file's audio tracks); null for a file without sound. */
  audioTrack: number | null;
  /** What a conversion does with each stream. */
  video: 'copy' | 'convert' | 'none';
  audio: 'copy' | 'convert' | 'none';
}

const CONTAINER_NAMES: Readonly<Record<string, string>> = { 'mpeg-ts': 'mpegts', m2ts: 'mpegts', 'mpeg-ps': 'mpeg', mov: 'mp4' };
const VIDEO_NAMES: Readonly<Record<string, string>> = { mpeg2: 'mpeg2video', mpeg1: 'mpeg1video' };
const AUDIO_NAMES: Readonly<Record<string, string>> = { pcm: 'pcm_s16le' };

const named = (names: Readonly<Record<string, string>>, name: string) => names[name] ?? name;
/** The technical info's names as a client profile names them (the contract's). */
export const profileNames = {
  container: (name: string) => named(CONTAINER_NAMES, name),
  video: (name: string) => named(VIDEO_NAMES, name),
  audio: (name: string) => named(AUDIO_NAMES, name),
};
const megabits = (bits: number) => `${Math.round(bits / 100_000) / 10} Mbit/s`;
/** What people call a codec in a sentence ("DTS → AAC"). */
const spoken = (codec: string) => (codec.length <= 4 ? codec.toUpperCase() : codec);
const layout = (channels: number) =>
  channels === 1 ? 'mono' : channels === 2 ? 'stereo' : channels === 6 ? '5.1' : channels === 8 ? '7.1' : `${channels} channels`;

/** The track played: the one asked for when it exists, else the file's default, else the first. */
const chosenTrack = (audio: readonly AudioStream[], asked: number | undefined): number | null => {
  if (audio.length === 0) return null;
  if (asked !== undefined && asked >= 0 && asked < audio.length) return asked;
  return Math.max(
    0,
    audio.findIndex((a) => a.default === true),
  );
};

const videoReasons = (info: TechnicalInfo, client: ClientProfile): Reason[] => {
  const video = info.video;
  if (!video) return [];
  const codec = named(VIDEO_NAMES, video.codec);
  const reasons: Reason[] = [];
  if (!client.videoCodecs.includes(codec)) reasons.push({ code: 'video-codec', detail: `converting the video: ${spoken(codec)} → H264` });
  // Browsers decode 8-bit H.264 only (High 10 is a profile few decoders have).
  else if (codec === 'h264' && (video.bitDepth ?? 8) > 8)
    reasons.push({ code: 'video-bit-depth', detail: `converting the video: ${video.bitDepth}-bit H264 → 8-bit` });
  const maxHeight = client.maxHeight ?? Number.POSITIVE_INFINITY;
  if (video.height !== null && video.height > maxHeight)
    reasons.push({ code: 'resolution', detail: `converting the video: ${video.height}p → ${maxHeight}p` });
  if (info.bitrate !== null && client.maxBitrate !== undefined && info.bitrate > client.maxBitrate)
    reasons.push({ code: 'bitrate', detail: `converting the video: ${megabits(info.bitrate)} → under ${megabits(client.maxBitrate)}` });
  return reasons;
};

const audioReasons = (track: AudioStream | undefined, client: ClientProfile): Reason[] => {
  if (!track) return [];
  const codec = named(AUDIO_NAMES, track.codec);
  if (!client.audioCodecs.includes(codec)) return [{ code: 'audio-codec', detail: `converting the audio: ${spoken(codec)} → AAC` }];
  const max = client.maxAudioChannels;
  if (max !== undefined && track.channels !== null && track.channels > max) {
    return [{ code: 'audio-channels', detail: `converting the audio: ${layout(track.channels)} → ${layout(Math.min(2, max))}` }];
  }
  return [];
};

/**
 * Direct when the container, the video and the chosen audio track are all the client's; remux
 * when only the container or the audio must change (the video is copied); transcode when the
 * video must change. A file whose streams the scan could not read is converted whole.
 */
export const decide = (info: TechnicalInfo | null, client: ClientProfile, audioTrack?: number): Decision => {
  if (!info || (!info.video && info.audio.length === 0)) {
    return {
      method: 'transcode',
      reasons: [{ code: 'unknown-format', detail: 'converting the whole file: its streams could not be read when it was scanned' }],
      audioTrack: null,
      video: 'convert',
      audio: 'convert',
    };
  }
  const track = chosenTrack(info.audio, audioTrack);
  const video = videoReasons(info, client);
  const audio = audioReasons(track === null ? undefined : info.audio[track], client);
  const container = info.container ? named(CONTAINER_NAMES, info.container) : null;
  const containerFits = container !== null && client.containers.includes(container);
  const containerReasons: Reason[] = containerFits
    ? []
    : [{ code: 'container', detail: `repackaging: ${container ?? 'an unknown container'} → HLS` }];
  const reasons = [...containerReasons, ...video, ...audio];
  const videoPlan = info.video ? (video.length ? 'convert' : 'copy') : 'none';
  const audioPlan = track === null ? 'none' : audio.length ? 'convert' : 'copy';
  const method: PlayMethod = reasons.length === 0 ? 'direct' : video.length ? 'transcode' : 'remux';
  return { method, reasons, audioTrack: track, video: videoPlan, audio: audioPlan };
};
