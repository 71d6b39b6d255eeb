// A file as Jellyfin's MediaSourceInfo, with its MediaStreams, from the technical info the scan
// read. The apps decide what they can play from these (codec, profile-free level checks, bit
// depth, range type, channels), so values that are not known are left out rather than guessed.
import type { FileRef } from '../catalog/model';
import type { AudioStream, SubtitleStream, TechnicalInfo, VideoStream } from '../media/technical-info';
import { ticks } from './wire';

type Dto = Record<string, unknown>;

/** Our short container names as Jellyfin names them (a file's extension where ours is a family). */
const CONTAINERS: Record<string, string> = { matroska: 'mkv', 'mpeg-ts': 'ts', 'mpeg-ps': 'mpeg', asf: 'wmv' };
const VIDEO_CODECS: Record<string, string> = { mpeg2: 'mpeg2video' };
const TEXT_SUBTITLES = new Set(['srt', 'subrip', 'ass', 'ssa', 'webvtt', 'vtt', 'tx3g', 'mov_text', 'text']);
const SUBTITLE_CODECS: Record<string, string> = { srt: 'subrip', pgs: 'PGSSUB', vobsub: 'dvdsub', dvbsub: 'dvbsub', tx3g: 'mov_text' };

const language = (tag: string | null | undefined) => tag ?? undefined;

const rangeOf = (video: VideoStream): { VideoRange: string; VideoRangeType: string } => {
  switch (video.hdr) {
    case 'dolby-vision':
      return { VideoRange: 'HDR', VideoRangeType: 'DOVIWithHDR10' };
    case 'hdr10+':
      return { VideoRange: 'HDR', VideoRangeType: 'HDR10Plus' };
    case 'hdr10':
      return { VideoRange: 'HDR', VideoRangeType: 'HDR10' };
    case 'hlg':
      return { VideoRange: 'HDR', VideoRangeType: 'HLG' };
    default:
      return { VideoRange: 'SDR', VideoRangeType: 'SDR' };
  }
};

const common = (index: number, isDefault: boolean) => ({
  Index: index,
  IsDefault: isDefault,
  IsForced: false,
  IsHearingImpaired: false,
  IsExternal: false,
  IsInterlaced: false,
  IsTextSubtitleStream: false,
  SupportsExternalStream: false,
  AudioSpatialFormat: 'None',
  VideoRange: 'Unknown',
  VideoRangeType: 'Unknown',
});

const videoStream = (video: VideoStream, index: number): Dto => {
  const codec = VIDEO_CODECS[video.codec] ?? video.codec;
  const resolution = video.height
    ? `${video.height >= 2000 ? '4K' : video.height >= 1000 ? '1080p' : video.height >= 700 ? '720p' : `${video.height}p`}`
    : '';
  return {
    ...common(index, true),
    ...rangeOf(video),
    Type: 'Video',
    Codec: codec,
    Width: video.width ?? undefined,
    Height: video.height ?? undefined,
    BitDepth: video.bitDepth ?? undefined,
    RealFrameRate: video.frameRate ?? undefined,
    AverageFrameRate: video.frameRate ?? undefined,
    DisplayTitle: [resolution, codec.toUpperCase(), video.hdr ? rangeOf(video).VideoRangeType : 'SDR'].filter(Boolean).join(' '),
  };
};

const LAYOUTS: Record<number, string> = { 1: 'mono', 2: 'stereo', 6: '5.1', 8: '7.1' };

const audioStream = (audio: AudioStream, index: number, isDefault: boolean): Dto => ({
  ...common(index, isDefault),
  Type: 'Audio',
  Codec: audio.codec,
  Language: language(audio.language),
  Channels: audio.channels ?? undefined,
  ChannelLayout: audio.channels ? LAYOUTS[audio.channels] : undefined,
  DisplayTitle: [audio.language?.toUpperCase(), audio.codec.toUpperCase(), audio.channels ? LAYOUTS[audio.channels] : undefined]
    .filter(Boolean)
    .join(' '),
});

const subtitleStream = (sub: SubtitleStream, index: number): Dto => {
  const text = sub.codec !== null && TEXT_SUBTITLES.has(sub.codec);
  return {
    ...common(index, sub.default ?? false),
    Type: 'Subtitle',
    Codec: sub.codec ? (SUBTITLE_CODECS[sub.codec] ?? sub.codec) : undefined,
    Language: language(sub.language),
    Title: sub.title ?? undefined,
    IsForced: sub.forced ?? false,
    IsTextSubtitleStream: text,
    SupportsExternalStream: text,
    DisplayTitle: [sub.language?.toUpperCase(), sub.title, sub.forced ? 'Forced' : undefined].filter(Boolean).join(' - ') || 'Subtitle',
  };
};

/** The streams in Jellyfin's order (video, audio, subtitles), indexed from 0. */
export const mediaStreams = (tech: TechnicalInfo | null | undefined): Dto[] => {
  if (!tech) return [];
  const streams: Dto[] = [];
  if (tech.video) streams.push(videoStream(tech.video, streams.length));
  const defaultAudio = Math.max(
    0,
    tech.audio.findIndex((a) => a.default),
  );
  tech.audio.forEach((a, i) => streams.push(audioStream(a, streams.length, i === defaultAudio)));
  for (const s of tech.subtitles) streams.push(subtitleStream(s, streams.length));
  return streams;
};

/** A file of an item as its one media source (a stacked film's first part). */
export const mediaSource = (guid: string, name: string, file: FileRef, seconds: number | null): Dto => {
  const tech = file.tech;
  const streams = mediaStreams(tech);
  const ext = /\.([A-Za-z0-9]+)$/u.exec(file.relPath)?.[1]?.toLowerCase();
  const container = tech?.container ? (CONTAINERS[tech.container] ?? tech.container) : ext;
  const firstAudio = streams.find((s) => s.Type === 'Audio' && s.IsDefault);
  return {
    Protocol: 'File',
    Id: guid,
    Type: 'Default',
    Container: container,
    Size: file.size,
    Name: name,
    IsRemote: false,
    ETag: `${file.size.toString(16)}-${Math.trunc(file.mtimeMs).toString(16)}`,
    RunTimeTicks: ticks(seconds),
    ReadAtNativeFramerate: false,
    IgnoreDts: false,
    IgnoreIndex: false,
    GenPtsInput: false,
    SupportsTranscoding: true,
    SupportsDirectStream: true,
    SupportsDirectPlay: true,
    IsInfiniteStream: false,
    UseMostCompatibleTranscodingProfile: false,
    RequiresOpening: false,
    RequiresClosing: false,
    RequiresLooping: false,
    SupportsProbing: true,
    VideoType: 'VideoFile',
    MediaStreams: streams,
    MediaAttachments: [],
    Formats: [],
    Bitrate: tech?.bitrate ?? undefined,
    TranscodingSubProtocol: 'http',
    DefaultAudioStreamIndex: firstAudio?.Index,
    HasSegments: false,
  };
};
