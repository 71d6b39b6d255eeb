// What a scan keeps about a video file's streams, read from MediaInfoLib's report: a few
// fields a client shows as badges (4K, HDR, 5.1, languages) or uses to pick a player, in
// names users know. Pure: no I/O, so the rules are tested on report objects alone.
import { AUDIO_CODECS, CONTAINERS, SUBTITLE_CODECS, VIDEO_CODECS, shortName } from './format-names';

/** MediaInfoLib's JSON report: tracks of named fields, numbers as strings ('6', '23.976'). */
export interface MediaInfoReport {
  media?: { track?: ReportTrack[] } | null;
}

export type ReportTrack = { '@type': string } & Record<string, unknown>;

/** A video file's technical facts. JSON-serialisable; unknown values are null, never guessed. */
export interface TechnicalInfo {
  /** Seconds, millisecond precision. */
  durationSeconds: number | null;
  /** Short container name: mp4, mov, matroska, webm, avi, mpeg-ts, m2ts, mpeg-ps, flv, asf, ogg... */
  container: string | null;
  /** Overall bits per second. */
  bitrate: number | null;
  /** The first video stream; null for a file with sound only. */
  video: VideoStream | null;
  /** In the file's order. */
  audio: AudioStream[];
  /** In the file's order, text and picture subtitles alike. */
  subtitles: SubtitleStream[];
}

export interface VideoStream {
  /** h264, hevc, av1, vp9, vp8, mpeg4, mpeg2, vc1... */
  codec: string;
  /** Pixels as stored (before any aspect-ratio stretch). */
  width: number | null;
  height: number | null;
  /** Frames per second, e.g. 23.976. */
  frameRate: number | null;
  bitDepth: number | null;
  hdr: HdrFormat | null;
}

/** Dolby Vision wins when a stream carries several (it usually has an HDR10 base layer). */
export type HdrFormat = 'dolby-vision' | 'hdr10+' | 'hdr10' | 'hlg';

export interface AudioStream {
  /** aac, ac3, eac3, truehd, dts, flac, opus, vorbis, mp3, pcm... */
  codec: string;
  channels: number | null;
  /** A BCP 47 tag as MediaInfoLib gives it ('en', 'fr', 'pt-BR'): it turns ISO 639-2 codes such as `eng` or `ger` into the short form. */
  language: string | null;
  /** Marked to be played by default (Matroska's flag). Absent on files probed before it was kept. */
  default?: boolean;
}

export interface SubtitleStream {
  /** srt, ass, ssa, webvtt, tx3g, pgs, vobsub, dvbsub... */
  codec: string | null;
  language: string | null;
  /** The stream's index in the file (ffmpeg's `-map 0:<n>`); null for captions carried inside a video stream. Absent on files probed before it was kept. */
  streamIndex?: number | null;
  /** The track's own name ("Commentary", "SDH"), when it has one. */
  title?: string | null;
  forced?: boolean;
  /** Marked to be shown by default (Matroska's flag; an MP4's "enabled" flag says nothing of the kind). */
  default?: boolean;
}

/** The facts of a report, or undefined when it found no video or audio stream (not a media file). */
export const toTechnicalInfo = (report: MediaInfoReport): TechnicalInfo | undefined => {
  const tracks = report.media?.track ?? [];
  const ofType = (type: string) => tracks.filter((t) => t['@type'] === type);
  const general = ofType('General')[0];
  const videos = ofType('Video').filter((t) => text(t, 'Format'));
  const audios = ofType('Audio').filter((t) => text(t, 'Format'));
  if (videos.length === 0 && audios.length === 0) return undefined;
  return {
    durationSeconds: duration(general, tracks),
    container: general && text(general, 'Format') ? containerName(general) : null,
    bitrate: rounded(general?.OverallBitRate, 0),
    video: videos[0] ? videoStream(videos[0]) : null,
    audio: audios.map((t) => audioStream(t, general)),
    subtitles: ofType('Text').map((t) => subtitleStream(t, general)),
  };
};

/** The container's duration, else the longest stream's (a raw stream has no container duration). */
const duration = (general: ReportTrack | undefined, tracks: ReportTrack[]): number | null =>
  rounded(general?.Duration, 3) ?? rounded(Math.max(0, ...tracks.map((t) => number(t.Duration) ?? 0)), 3);

const containerName = (general: ReportTrack): string => {
  const format = text(general, 'Format')!;
  return format === 'MPEG-4' && text(general, 'Format_Profile') === 'QuickTime' ? 'mov' : shortName(CONTAINERS, format);
};

const videoStream = (track: ReportTrack): VideoStream => {
  const format = text(track, 'Format')!;
  const mpegVersion = text(track, 'Format_Version');
  return {
    codec: format === 'MPEG Video' ? (mpegVersion === '1' ? 'mpeg1' : 'mpeg2') : shortName(VIDEO_CODECS, format),
    width: rounded(track.Width, 0),
    height: rounded(track.Height, 0),
    frameRate: rounded(track.FrameRate, 3),
    bitDepth: rounded(track.BitDepth, 0),
    hdr: hdrFormat(track),
  };
};

/**
 * MediaInfoLib names HDR by the metadata it finds: `HDR_Format` says Dolby Vision, SMPTE ST 2094
 * (HDR10+) or SMPTE ST 2086 (HDR10), `HDR_Format_Compatibility` the fallback layer. A PQ or HLG
 * transfer without such metadata is HDR all the same; PQ alone goes by its usual name, HDR10.
 */
const hdrFormat = (track: ReportTrack): HdrFormat | null => {
  const metadata = `${text(track, 'HDR_Format') ?? ''} ${text(track, 'HDR_Format_Compatibility') ?? ''}`;
  const transfer = text(track, 'transfer_characteristics');
  if (metadata.includes('Dolby Vision')) return 'dolby-vision';
  if (metadata.includes('HDR10+') || metadata.includes('SMPTE ST 2094')) return 'hdr10+';
  if (metadata.includes('HDR10') || metadata.includes('SMPTE ST 2086') || transfer === 'PQ') return 'hdr10';
  if (transfer === 'HLG') return 'hlg';
  return null;
};

const audioStream = (track: ReportTrack, general: ReportTrack | undefined): AudioStream => {
  const format = text(track, 'Format')!;
  const layer = text(track, 'Format_Profile');
  return {
    codec: format === 'MPEG Audio' ? (layer === 'Layer 2' ? 'mp2' : 'mp3') : shortName(AUDIO_CODECS, format),
    channels: rounded(track.Channels, 0),
    language: language(track),
    default: isMatroska(general) && flag(track, 'Default'),
  };
};

/** "Yes / Yes" when a track is described twice: the first says it. */
const flag = (track: ReportTrack, field: string) => text(track, field)?.split('/')[0]?.trim() === 'Yes';
/** Only Matroska's default flag means "play this one": an MP4's "enabled" flag says nothing of the kind. */
const isMatroska = (general: ReportTrack | undefined) => general !== undefined && /matroska|webm/iu.test(text(general, 'Format') ?? '');

const subtitleStream = (track: ReportTrack, general: ReportTrack | undefined): SubtitleStream => {
  const format = text(track, 'Format');
  const order = text(track, 'StreamOrder');
  return {
    codec: format ? shortName(SUBTITLE_CODECS, format) : null,
    language: language(track),
    streamIndex: order !== undefined && /^\d+$/u.test(order) ? Number(order) : null,
    title: text(track, 'Title') ?? null,
    forced: flag(track, 'Forced'),
    default: isMatroska(general) && flag(track, 'Default'),
  };
};

/** 'und' (undetermined) and empty tags say nothing. */
const language = (track: ReportTrack): string | null => {
  const tag = text(track, 'Language');
  return tag && tag.toLowerCase() !== 'und' ? tag : null;
};

/** A field's text, trimmed; undefined when absent or empty. */
const text = (track: ReportTrack, field: string): string | undefined => {
  const value = track[field];
  const trimmed = typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  return trimmed || undefined;
};

/** MediaInfoLib fields can arrive as numbers or as numeric strings ('6', or '8 / 6' for two layers). */
const number = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number.parseFloat(value) : Number.NaN;
  return Number.isFinite(n) ? n : null;
};

const rounded = (value: unknown, decimals: number): number | null => {
  const n = number(value);
  if (n === null || n <= 0) return null;
  const scale = 10 ** decimals;
  return Math.round(n * scale) / scale;
};
