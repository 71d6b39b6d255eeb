// A file against what a Jellyfin app says it plays (device-profile.ts), as the profile of our
// playback engine (lib/playback/decide.ts) for that file: the file's own container and codecs
// where the app's direct-play, codec and HLS profiles accept them, the engine's conversion
// targets (HLS, H.264, AAC) where not. The engine then decides direct, remux or transcode by its
// one set of rules. A codec profile applies to its codecs (and containers) when its
// ApplyConditions hold; a condition on a value the scan does not know holds unless it is marked
// IsRequired, as in Jellyfin. Pure: profiles and facts in, verdict out.
import type { AudioStream, TechnicalInfo, VideoStream } from '../media/technical-info';
import { profileNames, type ClientProfile } from '../playback/decide';
import type { Condition, DeviceProfile } from './device-profile';

export interface PlayLimits {
  /** 0-based among the file's audio tracks; null for the file's default. */
  audioTrack: number | null;
  maxStreamingBitrate?: number | undefined;
  maxAudioChannels?: number | undefined;
}

export interface ProfileVerdict {
  /** The engine's profile for this file. */
  client: ClientProfile;
  /** Why it does not play as it is, in Jellyfin's names (TranscodeReasons); empty for direct play. */
  reasons: string[];
}

// Our names and the names the apps may use for the same thing.
const CONTAINER_ALIASES: Readonly<Record<string, string[]>> = {
  matroska: ['mkv', 'matroska', 'mk3d'],
  webm: ['webm', 'matroska'],
  mp4: ['mp4', 'm4v', 'mov'],
  mov: ['mov', 'mp4', 'm4v'],
  'mpeg-ts': ['ts', 'mpegts', 'm2ts', 'mts'],
  m2ts: ['m2ts', 'mts', 'ts', 'mpegts'],
  'mpeg-ps': ['mpeg', 'mpg', 'vob'],
  asf: ['asf', 'wmv'],
  ogg: ['ogg', 'ogv'],
};
const VIDEO_ALIASES: Readonly<Record<string, string[]>> = {
  h264: ['h264', 'avc'],
  hevc: ['hevc', 'h265'],
  mpeg2: ['mpeg2video', 'mpeg2'],
  mpeg1: ['mpeg1video', 'mpeg1'],
  mpeg4: ['mpeg4', 'msmpeg4', 'xvid', 'divx'],
};
const AUDIO_ALIASES: Readonly<Record<string, string[]>> = {
  dts: ['dts', 'dca'],
  pcm: ['pcm_s16le', 'pcm_s24le', 'pcm', 'lpcm'],
  eac3: ['eac3', 'ec3'],
};

const namesOf = (aliases: Readonly<Record<string, string[]>>, name: string) => aliases[name] ?? [name];
/** An empty list takes anything. */
const takes = (accepted: readonly string[], names: readonly string[]) => accepted.length === 0 || names.some((n) => accepted.includes(n));

const RANGE_TYPES: Readonly<Record<string, string>> = {
  'dolby-vision': 'doviwithhdr10',
  'hdr10+': 'hdr10plus',
  hdr10: 'hdr10',
  hlg: 'hlg',
};

type Value = number | string | boolean | null;

/** The value a condition tests, from the facts the scan kept; null when unknown. */
const valueOf = (property: string, info: TechnicalInfo, video: VideoStream | null, audio: AudioStream | undefined): Value => {
  switch (property.toLowerCase()) {
    case 'videobitdepth':
      return video?.bitDepth ?? null;
    case 'width':
      return video?.width ?? null;
    case 'height':
      return video?.height ?? null;
    case 'videoframerate':
      return video?.frameRate ?? null;
    case 'videorangetype':
      return video ? (video.hdr ? RANGE_TYPES[video.hdr]! : 'sdr') : null;
    case 'videorange':
      return video ? (video.hdr ? 'hdr' : 'sdr') : null;
    case 'videobitrate':
      return info.bitrate;
    case 'numvideostreams':
      return video ? 1 : 0;
    case 'numaudiostreams':
      return info.audio.length;
    case 'isavc':
      return video ? video.codec === 'h264' : null;
    case 'audiochannels':
      return audio?.channels ?? null;
    case 'issecondaryaudio':
      return audio ? info.audio.indexOf(audio) > 0 : null;
    default:
      // Level, profile, reference frames, interlacing, anamorphic, audio profile and rate: not kept.
      return null;
  }
};

const holds = (c: Condition, value: Value): boolean => {
  if (value === null) return !c.required;
  const wanted = c.value.toLowerCase();
  const have = String(value).toLowerCase();
  const numeric = typeof value === 'number' && wanted !== '' && Number.isFinite(Number(wanted));
  switch (c.condition.toLowerCase()) {
    case 'equals':
      return numeric ? value === Number(wanted) : have === wanted;
    case 'notequals':
      return numeric ? value !== Number(wanted) : have !== wanted;
    case 'lessthanequal':
      return numeric ? value <= Number(wanted) : true;
    case 'greaterthanequal':
      return numeric ? value >= Number(wanted) : true;
    case 'equalsany':
      return wanted.split('|').some((w) => w.trim() === have);
    default:
      return true;
  }
};

const REASON_OF_PROPERTY: Readonly<Record<string, string>> = {
  videobitdepth: 'VideoBitDepthNotSupported',
  width: 'VideoResolutionNotSupported',
  height: 'VideoResolutionNotSupported',
  videoframerate: 'VideoFramerateNotSupported',
  videorangetype: 'VideoRangeTypeNotSupported',
  videorange: 'VideoRangeTypeNotSupported',
  videobitrate: 'VideoBitrateNotSupported',
  videolevel: 'VideoLevelNotSupported',
  videoprofile: 'VideoProfileNotSupported',
  refframes: 'RefFramesNotSupported',
  isinterlaced: 'InterlacedVideoNotSupported',
  isanamorphic: 'AnamorphicVideoNotSupported',
  audiochannels: 'AudioChannelsNotSupported',
  audiobitrate: 'AudioBitrateNotSupported',
  audiosamplerate: 'AudioSampleRateNotSupported',
  audioprofile: 'AudioProfileNotSupported',
  audiobitdepth: 'AudioBitDepthNotSupported',
  issecondaryaudio: 'SecondaryAudioNotSupported',
};

/** The reasons the codec profiles of `type` refuse a stream, in Jellyfin's names; empty when they take it. */
const refusals = (
  profile: DeviceProfile,
  type: 'video' | 'videoaudio',
  codecNames: readonly string[],
  containerNames: readonly string[],
  value: (property: string) => Value,
): string[] => {
  const reasons = new Set<string>();
  for (const p of profile.codecs) {
    if (p.type !== type || !takes(p.codecs, codecNames) || !takes(p.containers, containerNames)) continue;
    if (!p.applyConditions.every((c) => holds(c, value(c.property)))) continue;
    for (const c of p.conditions)
      if (!holds(c, value(c.property))) reasons.add(REASON_OF_PROPERTY[c.property.toLowerCase()] ?? 'UnknownVideoStreamInfo');
  }
  return [...reasons];
};

/** What the engine converts to when it must: HLS, H.264 and AAC (stereo), which every app plays. */
const TARGET = { container: 'hls', video: 'h264', audio: 'aac' } as const;

/** The file against the app's profile, as the engine's profile for the file. */
export const judgeFile = (profile: DeviceProfile | undefined, info: TechnicalInfo | null, limits: PlayLimits): ProfileVerdict => {
  const maxAudioChannels = limits.maxAudioChannels;
  const maxBitrate = limits.maxStreamingBitrate;
  const base = {
    ...(maxAudioChannels !== undefined ? { maxAudioChannels } : {}),
    ...(maxBitrate !== undefined ? { maxBitrate } : {}),
  };
  const video = info?.video ?? null;
  // No profile (Infuse's GET form): an app that says nothing of what it cannot play plays the
  // file as it is (Infuse plays nearly everything itself), within the limits it gave.
  if (!profile && info) {
    const track = info.audio[limits.audioTrack ?? -1] ?? info.audio.find((a) => a.default) ?? info.audio[0];
    return {
      client: {
        containers: info.container ? [profileNames.container(info.container)] : [TARGET.container],
        videoCodecs: [video ? profileNames.video(video.codec) : TARGET.video],
        audioCodecs: [track ? profileNames.audio(track.codec) : TARGET.audio],
        ...base,
      },
      reasons: [],
    };
  }
  // A file the scan could not read: the engine converts it whole whatever the profile.
  if (!profile || !info)
    return { client: { containers: [TARGET.container], videoCodecs: [TARGET.video], audioCodecs: [TARGET.audio], ...base }, reasons: [] };
  const track =
    limits.audioTrack !== null && info.audio[limits.audioTrack]
      ? info.audio[limits.audioTrack]
      : (info.audio.find((a) => a.default) ?? info.audio[0]);
  const containers = info.container ? namesOf(CONTAINER_ALIASES, info.container) : [];
  const videoNames = video ? namesOf(VIDEO_ALIASES, video.codec) : [];
  const audioNames = track ? namesOf(AUDIO_ALIASES, track.codec) : [];
  const value = (property: string) => valueOf(property, info, video, track);

  const videoRefused = video ? refusals(profile, 'video', videoNames, containers, value) : [];
  const audioRefused = track ? refusals(profile, 'videoaudio', audioNames, containers, value) : [];
  if (track && maxAudioChannels !== undefined && (track.channels ?? 0) > maxAudioChannels) audioRefused.push('AudioChannelsNotSupported');
  const overBitrate = maxBitrate !== undefined && info.bitrate !== null && info.bitrate > maxBitrate;

  const containerTaken = containers.length > 0 && profile.direct.some((d) => takes(d.containers, containers));
  const direct =
    !overBitrate &&
    videoRefused.length === 0 &&
    audioRefused.length === 0 &&
    profile.direct.some(
      (d) => takes(d.containers, containers) && (!video || takes(d.video, videoNames)) && (!track || takes(d.audio, audioNames)),
    );
  const hls = profile.hls ?? { protocol: 'hls', video: [TARGET.video], audio: [TARGET.audio] };
  // Codecs are held against the profiles of the file's container, or of any container where none takes it.
  const candidates = containerTaken ? profile.direct.filter((d) => takes(d.containers, containers)) : profile.direct;
  const videoDirect = !!video && candidates.some((d) => takes(d.video, videoNames));
  const audioDirect = !!track && candidates.some((d) => takes(d.audio, audioNames));
  const videoFits = !!video && videoRefused.length === 0 && (direct || takes(hls.video, videoNames));
  const audioFits = !!track && audioRefused.length === 0 && (direct || takes(hls.audio, audioNames));

  const reasons: string[] = [];
  if (!direct) {
    if (!containerTaken) reasons.push('ContainerNotSupported');
    if (video && !videoDirect) reasons.push('VideoCodecNotSupported');
    if (track && !audioDirect) reasons.push('AudioCodecNotSupported');
    reasons.push(...videoRefused, ...audioRefused);
    if (overBitrate) reasons.push('ContainerBitrateExceedsLimit');
    // Each codec in the app's direct-play lists, each condition met: what is left is the combination.
    if (reasons.length === 0) reasons.push('DirectPlayError');
  }
  return {
    client: {
      containers: direct && info.container ? [profileNames.container(info.container)] : [TARGET.container],
      videoCodecs: video && videoFits ? [profileNames.video(video.codec)] : [TARGET.video],
      audioCodecs: track && audioFits ? [profileNames.audio(track.codec)] : [TARGET.audio],
      ...base,
    },
    reasons: [...new Set(reasons)],
  };
};
