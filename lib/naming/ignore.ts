// Which paths a scan skips, and why. Pure: the crawler does the I/O (including looking for the
// IGNORE_MARKER file in each folder) and asks ignoreReason about every path it meets.
import { splitExtension, splitRelPath } from './path';

/** A folder holding a file with this name is skipped with everything below it. */
export const IGNORE_MARKER = '.ignore';

export type IgnoreReason = 'hidden' | 'system' | 'sample' | 'extra';

// NAS, OS and file system housekeeping folders and files, compared lowercase.
const SYSTEM_NAMES: ReadonlySet<string> = new Set([
  '@eadir', // Synology thumbnails and metadata, one next to every media folder
  '#recycle',
  '#snapshot', // Synology recycle bin and snapshots
  '@recycle',
  '@recently-snapshot', // QNAP
  '$recycle.bin',
  'system volume information', // Windows
  'lost+found', // ext file systems
  '__macosx', // zip archives made on macOS
  'thumbs.db',
  'desktop.ini',
]);

// Synology stream files that may leak next to the media: "movie.mkv@SynoEAStream".
const SYNOLOGY_STREAM = /@syno(?:eastream|resource)$/iu;

// Folders of extras (Jellyfin's and Plex's names), compared lowercase, below the top level only:
// a top-level folder is a title, and "Extras" and "Shorts" are real show names.
const EXTRAS_FOLDERS: ReadonlySet<string> = new Set([
  'extras',
  'extra',
  'featurettes',
  'trailers',
  'behind the scenes',
  'deleted scenes',
  'interviews',
  'scenes',
  'shorts',
  'clips',
  'other',
  'others',
  'bonus',
  'special features',
  'theme-music',
  'backdrops', // theme songs and videos
  'extrafanart',
  'extrathumbs', // Kodi artwork folders
]);

// "Movie (2010)-trailer.mkv" and friends (Jellyfin's suffixes), or a lone "trailer.mkv". Dash
// only, so a title ending in a word ("The Other", "Crime.Scene") is not an extra.
const EXTRA_FILE = /(?:^trailer|-(?:trailer|featurette|behindthescenes|deleted|deletedscene|interview|scene|short|clip|other|extra))$/iu;

// Sample folders at any depth: "Sample/x.mkv", "Movie (2010)/Samples/x.mkv".
const SAMPLE_FOLDERS: ReadonlySet<string> = new Set(['sample', 'samples']);

// Sample files: "sample.mkv", "sample-movie.mkv", "movie-sample.mkv", "Movie.2010.sample.mkv".
// "sample" must be a whole first or last word, so "Samples of Life (2015)" and
// "The Sample (2019)" are titles, not samples.
const SAMPLE_FILE = /^sample(?:[._-].*)?$|[\s._-]sample$/iu;

export function ignoreReason(relPath: string): IgnoreReason | undefined {
  const { dirs, file } = splitRelPath(relPath);
  const segments = file === '' ? dirs : [...dirs, file];
  if (segments.some((s) => s.startsWith('.'))) return 'hidden';
  if (segments.some((s) => SYSTEM_NAMES.has(s.toLowerCase()) || SYNOLOGY_STREAM.test(s))) return 'system';
  if (segments.some((s) => SAMPLE_FOLDERS.has(s.toLowerCase()))) return 'sample';
  const last = segments.at(-1);
  if (last !== undefined && hasName(last, SAMPLE_FILE)) return 'sample';
  if (segments.slice(1).some((s) => EXTRAS_FOLDERS.has(s.toLowerCase()))) return 'extra';
  if (last !== undefined && hasName(last, EXTRA_FILE)) return 'extra';
  return undefined;
}

/** Tests the name with and without its extension (the crawler may ask about folders too). */
function hasName(segment: string, pattern: RegExp): boolean {
  return pattern.test(segment) || pattern.test(splitExtension(segment).base);
}
