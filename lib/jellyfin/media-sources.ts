// A file as Jellyfin's MediaSourceInfo, with its MediaStreams, from the technical info the scan
// read. The apps decide what they can play from these (codec, profile-free level checks, bit
// depth, range type, channels), so values that are not known are left out rather than guessed.
import type { EpisodeItem, MovieItem } from '../catalog/model';
import type { AudioStream, TechnicalInfo, VideoStream } from '../media/technical-info';
import { subtitleTracks, type ListedTrack, type TrackOptions } from '../subtitles/tracks';
import { ticks } from './wire';

type Dto = Record<string, unknown>;

/** Our short container names as Jellyfin names them (a file's extension where ours is a family). */
const CONTAINERS: Record<string, string> = { matroska: 'mkv', 'mpeg-ts': 'ts', 'mpeg-ps': 'mpeg', asf: 'wmv' };
const VIDEO_CODECS: Record<string, string> = { mpeg2: 'mpeg2video' };
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

/**
 * A subtitle track as the item's track list has it (tracks.ts: the files beside the video and
 * the streams inside it, in the order a menu shows them), so the index an app picks names the
 * same track when it asks for it. A track the box can send as WebVTT is a text stream the app
 * may load on its own (`DeliveryUrl` once a PlaybackInfo chose how it plays).
 */
const subtitleStream = ({ track, servable }: ListedTrack, index: number): Dto => ({
  ...common(index, track.default),
  Type: 'Subtitle',
  Codec: SUBTITLE_CODECS[track.format] ?? track.format,
  Language: language(track.language),
  Title: track.label,
  DisplayTitle: track.label,
  IsForced: track.forced,
  IsHearingImpaired: track.hearingImpaired,
  IsExternal: track.source === 'external',
  IsTextSubtitleStream: servable,
  SupportsExternalStream: servable,
});

/** The streams in Jellyfin's order (video, audio, subtitles), indexed from 0. */
export const mediaStreams = (tech: TechnicalInfo | null | undefined, tracks: readonly ListedTrack[]): Dto[] => {
  const streams: Dto[] = [];
  if (tech?.video) streams.push(videoStream(tech.video, streams.length));
  const audio = tech?.audio ?? [];
  const defaultAudio = Math.max(
    0,
    audio.findIndex((a) => a.default),
  );
  audio.forEach((a, i) => streams.push(audioStream(a, streams.length, i === defaultAudio)));
  for (const t of tracks) streams.push(subtitleStream(t, streams.length));
  return streams;
};

/** The subtitle tracks a film's or an episode's streams list, after its video and audio. */
export const itemSubtitles = (item: MovieItem | EpisodeItem, options: TrackOptions | undefined): ListedTrack[] =>
  subtitleTracks(item, options ?? { extract: false });

/** Where an audio or subtitle stream of the list is among its kind (the index our own API takes); undefined when `index` is no such stream. */
export const streamOfKind = (tech: TechnicalInfo | null | undefined, index: number, kind: 'Audio' | 'Subtitle'): number | undefined => {
  const first = tech?.video ? 1 : 0;
  const audio = tech?.audio.length ?? 0;
  const at = kind === 'Audio' ? index - first : index - first - audio;
  return Number.isSafeInteger(at) && at >= 0 && (kind === 'Subtitle' || at < audio) ? at : undefined;
};

/** A film's or an episode's file as its one media source (a stacked film's first part). */
export const mediaSource = (
  guid: string,
  name: string,
  item: MovieItem | EpisodeItem,
  seconds: number | null,
  tracks: readonly ListedTrack[],
): Dto => {
  const file = item.files[0]!;
  const tech = file.tech;
  const streams = mediaStreams(tech, tracks);
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
