// The subtitle tracks of a movie or an episode, as details list them: the files the scan found
// beside the video (their names say language and flags) and the streams inside it (the probe
// says them). Pure: the item is the only input, so the endpoint that serves a track finds it
// the same way and can only ever reach a file this list holds.
import { createHash } from 'node:crypto';
import type { EpisodeItem, MovieItem } from '../catalog/model';
import type { SubtitleStream } from '../media/technical-info';
import { languageLabel } from '../text/languages';
import { lastSegment, parentPath, splitExtension } from '../naming/path';
import { parseSubtitleName, type SubtitleName } from '../naming/subtitle-name';
import { ascending } from '../util/order';
import type { SubtitleFormat } from './webvtt';

export interface SubtitleTrack {
  /** `ext-<hash of the file's path>` or `emb-<n>`, the n-th subtitle stream of the file. */
  id: string;
  source: 'external' | 'embedded';
  /** srt, webvtt, ass, ssa, vobsub, pgs, sub (MicroDVD or the like), tx3g, dvbsub... */
  format: string;
  /** BCP 47, or null when neither the name nor the stream says. */
  language: string | null;
  /** For a menu: "French", "English (forced)", "English (Commentary, SDH)". */
  label: string;
  forced: boolean;
  default: boolean;
  hearingImpaired: boolean;
}

/** Where a track's text comes from, for the endpoint: never part of an answer. */
export type TrackOrigin =
  | { source: 'external'; relPath: string; format: SubtitleFormat | null }
  | {
      source: 'embedded';
      /** ffmpeg's stream specifier: `0:<index>`, or `0:s:<n>` for a file probed before indexes were kept; null when it has no stream of its own. */
      map: string | null;
      codec: string | null;
    };

export interface ListedTrack {
  track: SubtitleTrack;
  origin: TrackOrigin;
  /** Whether it can be served as WebVTT here (text, and for embedded streams, ffmpeg at hand). */
  servable: boolean;
}

export interface TrackOptions {
  /** Embedded text streams can be extracted (ffmpeg is installed, the media is on this machine's disk). */
  extract: boolean;
}

/** Embedded codecs ffmpeg turns into WebVTT; the rest are pictures (pgs, vobsub, dvbsub) or captions inside the video. */
export const EXTRACTABLE: ReadonlySet<string> = new Set(['srt', 'ass', 'ssa', 'webvtt', 'tx3g']);

const FILE_FORMATS: Readonly<Record<SubtitleName['format'], string>> = {
  srt: 'srt',
  vtt: 'webvtt',
  ass: 'ass',
  ssa: 'ssa',
  idx: 'vobsub',
  sub: 'sub',
  sup: 'pgs',
};
const CONVERTIBLE: Readonly<Partial<Record<SubtitleName['format'], SubtitleFormat>>> = { srt: 'srt', vtt: 'vtt', ass: 'ass', ssa: 'ssa' };

const HEARING_IMPAIRED = /\b(?:sdh|cc|hoh|hearing[ -]impaired)\b/iu;
const FORCED = /\bforced\b/iu;

const fileBase = (path: string) => splitExtension(lastSegment(path)).base;

export const externalTrackId = (relPath: string) => `ext-${createHash('sha256').update(relPath).digest('base64url').slice(0, 12)}`;

const labelOf = (language: string | null, title: string | null, flags: { forced: boolean; hearingImpaired: boolean }) => {
  const name = language ? languageLabel(language) : null;
  const notes = [
    ...(name && title && title.toLowerCase() !== name.toLowerCase() ? [title] : []),
    ...(flags.forced && !(title && FORCED.test(title)) ? ['forced'] : []),
    ...(flags.hearingImpaired && !(title && HEARING_IMPAIRED.test(title)) ? ['SDH'] : []),
  ];
  const head = name ?? title ?? 'Unknown language';
  return notes.length ? `${head} (${notes.join(', ')})` : head;
};

/** A subtitle file of the video at `videoPath`: what its name says. */
const externalTrack = (relPath: string, videoPath: string): ListedTrack | undefined => {
  const videoBase = fileBase(videoPath);
  const inSubsFolder = parentPath(relPath) !== parentPath(videoPath);
  // A name carrying the video's is read after it; in Subs/ a free name is read whole.
  const name = parseSubtitleName(relPath, videoBase, { inSubsFolder }) ?? parseSubtitleName(relPath, '', { inSubsFolder: true });
  if (!name) return undefined;
  const convertible = CONVERTIBLE[name.format] ?? null;
  return {
    track: {
      id: externalTrackId(relPath),
      source: 'external',
      format: FILE_FORMATS[name.format],
      language: name.language,
      label: labelOf(name.language, name.title, name),
      forced: name.forced,
      default: name.default,
      hearingImpaired: name.hearingImpaired,
    },
    origin: { source: 'external', relPath, format: convertible },
    servable: convertible !== null,
  };
};

const embeddedTrack = (stream: SubtitleStream, ordinal: number, options: TrackOptions): ListedTrack => {
  const title = stream.title ?? null;
  const forced = stream.forced === true || (title !== null && FORCED.test(title));
  const hearingImpaired = title !== null && HEARING_IMPAIRED.test(title);
  // Captions inside the video (null) have no stream of their own to map out.
  const map = stream.streamIndex === undefined ? `0:s:${ordinal}` : stream.streamIndex === null ? null : `0:${stream.streamIndex}`;
  return {
    track: {
      id: `emb-${ordinal}`,
      source: 'embedded',
      format: stream.codec ?? 'unknown',
      language: stream.language,
      label: labelOf(stream.language, title, { forced, hearingImpaired }),
      forced,
      default: stream.default === true,
      hearingImpaired,
    },
    origin: { source: 'embedded', map, codec: stream.codec },
    servable: options.extract && map !== null && stream.codec !== null && EXTRACTABLE.has(stream.codec),
  };
};

/** VobSub is a pair: the .idx is listed, its .sub goes with it. */
const withoutVobSubBodies = (paths: readonly string[]) => {
  const indexes = new Set(paths.filter((p) => /\.idx$/iu.test(p)).map((p) => p.slice(0, -4).toLowerCase()));
  return paths.filter((p) => !(/\.sub$/iu.test(p) && indexes.has(p.slice(0, -4).toLowerCase())));
};

/** Default first, then forced, then by language name (tracks without one last); files before streams. */
const byPreference = (a: ListedTrack, b: ListedTrack) => {
  const x = a.track;
  const y = b.track;
  return (
    Number(y.default) - Number(x.default) ||
    Number(y.forced) - Number(x.forced) ||
    Number(x.language === null) - Number(y.language === null) ||
    x.label.localeCompare(y.label, 'en') ||
    Number(x.source === 'embedded') - Number(y.source === 'embedded') ||
    ascending(x.id, y.id)
  );
};

/** Every subtitle track of a movie (its first part) or an episode, in the order a menu shows them. */
export const subtitleTracks = (item: MovieItem | EpisodeItem, options: TrackOptions): ListedTrack[] => {
  const videoPath = item.files[0]?.relPath;
  if (videoPath === undefined) return [];
  const external = withoutVobSubBodies(item.local?.subtitles ?? []).flatMap((path) => externalTrack(path, videoPath) ?? []);
  const embedded = (item.files[0]?.tech?.subtitles ?? []).map((stream, i) => embeddedTrack(stream, i, options));
  return [...external, ...embedded].sort(byPreference);
};
