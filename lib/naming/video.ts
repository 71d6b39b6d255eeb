// Which files are videos, by extension. Lowercase, without the dot.
//
// Left out on purpose: `iso`/`img` disc images and VIDEO_TS/BDMV folders (they need mounting or
// menu handling before they can be streamed, so a scan would list unplayable items), `strm`
// (a text file holding a URL, not a video) and `rm` (RealMedia 1.0, which ffmpeg barely plays).
// `ts` is MPEG transport stream here, never TypeScript: this only ever sees media folders.
import { lastSegment, splitExtension } from './path';

export const VIDEO_EXTENSIONS: readonly string[] = Object.freeze([
  'mkv',
  'mp4',
  'm4v',
  'mov',
  'webm',
  'avi',
  'divx',
  'wmv',
  'asf', // containers
  'ts',
  'm2ts',
  'mts',
  'mpg',
  'mpeg',
  'm2v',
  'vob', // MPEG streams and DVD files
  'flv',
  'f4v',
  'ogv',
  'ogm',
  '3gp',
  '3g2',
  'rmvb',
]);

const VIDEO_EXTENSION_SET: ReadonlySet<string> = new Set(VIDEO_EXTENSIONS);

/** The video extension of a name or path ("mkv"), or undefined when it is not a video. */
export function videoExtension(name: string): string | undefined {
  if (typeof name !== 'string') return undefined;
  const { ext } = splitExtension(lastSegment(name));
  return VIDEO_EXTENSION_SET.has(ext) ? ext : undefined;
}

/** True for "Movie.MKV" or "Show/Season 1/e01.mp4"; false for ".mkv", "poster.jpg" or "mkv". */
export function isVideoFile(name: string): boolean {
  return videoExtension(name) !== undefined;
}
