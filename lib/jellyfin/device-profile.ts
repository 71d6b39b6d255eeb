// What a Jellyfin app says it plays: the DeviceProfile of its PlaybackInfo, read whatever the
// case of its keys, as Jellyfin reads it (lists comma-separated, an empty one taking anything).
// Only what decides a video file's playing is kept (play-verdict.ts holds it against the file):
// text subtitles never weigh in, as the box sends each as WebVTT of its own.
import { field, textField } from './wire';

export interface Condition {
  condition: string;
  property: string;
  value: string;
  required: boolean;
}

export interface DirectPlayProfile {
  containers: string[];
  video: string[];
  audio: string[];
}

export interface CodecProfile {
  type: string;
  codecs: string[];
  containers: string[];
  conditions: Condition[];
  applyConditions: Condition[];
}

export interface TranscodingProfile {
  protocol: string;
  video: string[];
  audio: string[];
}

export interface DeviceProfile {
  direct: DirectPlayProfile[];
  codecs: CodecProfile[];
  /** The HLS profile for video the app converts to, when it gives one. */
  hls: TranscodingProfile | undefined;
}

const list = (value: unknown): string[] =>
  typeof value === 'string'
    ? value
        .split(/[,|]/u)
        .map((v) => v.trim().toLowerCase())
        .filter(Boolean)
    : [];

const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const readConditions = (value: unknown): Condition[] =>
  array(value).flatMap((c) => {
    const property = textField(c, 'Property');
    const condition = textField(c, 'Condition');
    if (!property || !condition) return [];
    const required = field(c, 'IsRequired');
    return [{ property, condition, value: textField(c, 'Value') ?? '', required: required === true || required === 'true' }];
  });

/** A profile as the app sent it, read whatever the case of its keys; undefined when none was sent. */
export const readDeviceProfile = (raw: unknown): DeviceProfile | undefined => {
  if (!raw || typeof raw !== 'object') return undefined;
  const isVideo = (p: unknown) => {
    const type = (textField(p, 'Type') ?? 'Video').toLowerCase();
    return type === 'video';
  };
  const direct = array(field(raw, 'DirectPlayProfiles'))
    .filter(isVideo)
    .map((p) => ({ containers: list(field(p, 'Container')), video: list(field(p, 'VideoCodec')), audio: list(field(p, 'AudioCodec')) }));
  const codecs = array(field(raw, 'CodecProfiles')).map((p) => ({
    type: (textField(p, 'Type') ?? '').toLowerCase(),
    codecs: list(field(p, 'Codec')),
    containers: list(field(p, 'Container')),
    conditions: readConditions(field(p, 'Conditions')),
    applyConditions: readConditions(field(p, 'ApplyConditions')),
  }));
  const transcoding = array(field(raw, 'TranscodingProfiles'))
    .filter(isVideo)
    .map((p) => ({
      protocol: (textField(p, 'Protocol') ?? '').toLowerCase(),
      video: list(field(p, 'VideoCodec')),
      audio: list(field(p, 'AudioCodec')),
    }));
  return { direct, codecs, hls: transcoding.find((t) => t.protocol === 'hls') ?? transcoding[0] };
};
