// Which files beside the videos say something about them, by extension: Kodi NFOs, local
// artwork and subtitles. Discovery lists these with the videos (lib/storage/discover.ts).
import { lastSegment, splitExtension } from './path';
import { SUBTITLE_EXTENSIONS } from './subtitle-name';

/** Local artwork, in order of preference when a folder has the same picture in several. */
export const IMAGE_EXTENSIONS: readonly string[] = Object.freeze(['jpg', 'jpeg', 'png', 'webp']);

const SIDECAR_EXTENSIONS: ReadonlySet<string> = new Set(['nfo', ...IMAGE_EXTENSIONS, ...SUBTITLE_EXTENSIONS]);

/** True for "Movie (2001).nfo", "poster.JPG" or "Show/Show.S01E01.en.srt"; false for a video or ".srt" (a hidden file with no name). */
export const isSidecarFile = (path: string): boolean => SIDECAR_EXTENSIONS.has(splitExtension(lastSegment(path)).ext);
