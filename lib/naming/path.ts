// Splitting a library-relative path, the one rule for every folder that splits names. Inputs use
// `/` separators; a backslash is a legal file name character on the file systems we scan, so it
// is not treated as a separator.
//
// A name's extension is what follows its last dot, when that dot is neither its first character
// nor its last: ".hidden" and ".srt" are hidden files with no extension (a subtitle needs a name
// before its format), "Movie." has none either, and ".hidden.srt" is a hidden ".srt" file.

export interface SplitPath {
  /** Folder segments from the library root down to the file's parent. */
  readonly dirs: readonly string[];
  /** The last segment ('' for an empty path). */
  readonly file: string;
}

export interface SplitName {
  /** The name without its extension. */
  readonly base: string;
  /** The extension, lowercase and without the dot ('' when there is none). */
  readonly ext: string;
}

/** Normalises to NFC (so "é" typed as e + combining accent compares equal) and splits. */
export function splitRelPath(relPath: string): SplitPath {
  const text = typeof relPath === 'string' ? relPath.normalize('NFC') : '';
  const segments = text.split('/').filter((s) => s !== '' && s !== '.');
  const file = segments.pop() ?? '';
  return { dirs: segments, file };
}

/** "Movie.2010.MKV" → { base: "Movie.2010", ext: "mkv" }; ".mkv" has no base, so no extension (see above). */
export function splitExtension(name: string): SplitName {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { base: name, ext: '' };
  return { base: name.slice(0, dot), ext: name.slice(dot + 1).toLowerCase() };
}

/** The last segment of a path (the name itself when there is no `/`). */
export function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Everything before the last segment, without the `/` ('' when there is no `/`). */
export function parentPath(path: string): string {
  return path.slice(0, Math.max(0, path.lastIndexOf('/')));
}
