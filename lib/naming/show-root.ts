// A TV library whose root is one show's own folder: "/media/Breaking Bad (2008)" added as the
// library rather than "/media/TV", holding "Season 1/Breaking.Bad.S01E01.mkv" or loose
// "S01E01.mkv". Such files have no show folder of their own inside the library, so the root
// folder's name names their show, read like any show folder ("Breaking Bad", 2008).
//
// The rule looks at one path and the root's name only, never at the other files: a file's show
// (and so its id) must not change when a sibling is added or removed, and a rescan reads only
// the files that changed. So a stray show folder at the root ("Breaking Bad/Better Call Saul/
// Season 1/...") is its own show, as in any TV library: it names itself, and the root's own
// seasons stay the root's show beside it.
import { lastSegment } from './path';
import type { TitleYear } from './title';
import { normalize } from '../text/normalize';

/** Where an episode's show was named: its own top folder, the library's root folder, or its file name. */
export type ShowFrom = 'folder' | 'root' | 'file';

/** The folder name of a library's path: "/media/Breaking Bad (2008)/" → "Breaking Bad (2008)". */
export function rootFolderName(libraryPath: string): string {
  return lastSegment(libraryPath.replace(/\/+$/u, ''));
}

/**
 * Whether a file without a show folder of its own belongs to the show the root folder names.
 * Inside a season folder at the root, always: "Season 1" at the top only makes sense when the
 * root is the show. Loose at the root, when its name names no show ("S01E01.mkv") or names the
 * root's ("Breaking.Bad.S01E01.mkv", years not disagreeing); a loose file naming another show
 * keeps it, so a flat folder of many shows' episodes ("/media/TV/The.Wire.S01E01.mkv") reads as before.
 */
export function belongsToRoot(inSeasonFolder: boolean, fromFile: TitleYear, root: TitleYear): boolean {
  if (root.title === '') return false;
  if (inSeasonFolder || fromFile.title === '') return true;
  const yearsAgree = fromFile.year === null || root.year === null || fromFile.year === root.year;
  return yearsAgree && sameTitleKey(fromFile.title) === sameTitleKey(root.title);
}

/** The title as search compares it, without its spaces: release names drop them ("Greys.Anatomy" for "Grey's Anatomy"). */
const sameTitleKey = (title: string): string => normalize(title).replaceAll(' ', '');

/** The show's own folder as the path spells it: its top folder, '' for the root, undefined when it has none. */
export function showDirOf(relPath: string, from: ShowFrom): string | undefined {
  if (from === 'root') return '';
  return from === 'folder' ? relPath.slice(0, relPath.indexOf('/')) : undefined;
}
