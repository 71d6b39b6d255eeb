// The sidecar rules: which NFO, artwork and subtitle files beside a video belong to its item,
// by name alone, after the Kodi and Jellyfin conventions (subtitle names: subtitle-name.ts). Pure: the caller lists each folder once and passes the names in.
// Names match case-insensitively (and NFC/NFD alike), since libraries move between file
// systems; results keep the folder as passed and the name as listed, so the caller can open them.
import { lastSegment, parentPath, splitExtension } from './path';
import { DEFAULT_RULES, type NamingRules } from './rules';
import { IMAGE_EXTENSIONS } from './sidecar-extensions';
import { splitPart } from './stack';
import { foldName, parseSubtitleName, subtitleOwner } from './subtitle-name';

/** Library-relative paths of the files found; a kind is absent when there is none. */
export interface LocalFiles {
  nfo?: string;
  poster?: string;
  backdrop?: string;
  /** An episode's own picture. */
  still?: string;
  /** Subtitle files, beside the video or in a `Subs/` folder, in path order; absent when none. */
  subtitles?: string[];
}

/** Folder names that hold subtitles for the videos beside them, compared lowercase. */
export const SUBS_FOLDERS: ReadonlySet<string> = new Set(['subs', 'subtitles', 'sub', 'subtitle']);

/** A video's subtitles beyond this are not listed: a folder of thousands would otherwise bloat its item. */
export const MAX_SUBTITLES = 64;

/**
 * A `Subs/` folder beside a video ("Movie/Subs"), or a folder inside one named for a video
 * ("Show/Season 1/Subs/Show.S01E01"), which release groups use to keep an episode's tracks apart.
 */
export interface SubsFolder {
  /** Library-relative path of the folder holding the files. */
  dir: string;
  /** The folder's name inside `Subs/`, or null for `Subs/` itself. */
  inner: string | null;
  files: readonly string[];
}

/** The subtitle files among a folder's files, by the folded base name of the video each belongs to. */
export type SubtitlesIn = (dir: string, files: readonly string[]) => ReadonlyMap<string, readonly string[]>;

/** A folder's subtitle files by the video whose name they carry (folded base names): each goes to the longest. */
export const subtitlesByVideo = (files: readonly string[], videoBases: readonly string[]): Map<string, string[]> => {
  const videos = new Map(videoBases.map((base) => [foldName(base), foldName(base)]));
  const byVideo = new Map<string, string[]>();
  for (const name of files) {
    const owner = subtitleOwner(name, videos);
    if (owner === null) continue;
    const list = byVideo.get(owner);
    if (list) list.push(name);
    else byVideo.set(owner, [name]);
  }
  return byVideo;
};

export interface MovieFolder {
  /** The video's library-relative path; for a stacked movie, any of its parts. */
  videoPath: string;
  /** Names (not paths) of the files in the video's folder. */
  folderFiles: readonly string[];
  /**
   * Movies in that folder, a stack counting once. Folder-wide names (movie.nfo, poster.jpg)
   * apply only when it is 1: in a folder of many movies they would give all of them one poster.
   */
  moviesInFolder: number;
  /** `Subs/` folders beside the video, and the folders inside them. */
  subsFolders?: readonly SubsFolder[];
  /** Base names of the other videos in the folder: "Heat 2.en.srt" is not Heat's. */
  otherVideos?: readonly string[];
  /** A folder's subtitle files by video (subtitlesByVideo), kept by the caller for each folder: a folder of many videos is then read once, not once per video. */
  subtitlesIn?: SubtitlesIn;
}

export interface EpisodeFolder {
  /** The episode's library-relative path. */
  videoPath: string;
  /** Names of the files in the episode's folder (its season folder, or the show folder). */
  folderFiles: readonly string[];
  /** `Subs/` folders beside the episode, and the folders inside them. */
  subsFolders?: readonly SubsFolder[];
  /** Base names of the other videos in the folder: "Heat 2.en.srt" is not Heat's. */
  otherVideos?: readonly string[];
  /** A folder's subtitle files by video (subtitlesByVideo), kept by the caller for each folder: a folder of many videos is then read once, not once per video. */
  subtitlesIn?: SubtitlesIn;
}

export interface ShowFolder {
  /** The show folder, relative to the library ("Doctor Who (2005)"). */
  showDir: string;
  /** Names of the files in the show folder. */
  folderFiles: readonly string[];
}

/** `<video>.nfo`, `<video>-poster.jpg`, `<video>-fanart.jpg`, then the folder-wide names. */
export function movieLocalFiles(input: MovieFolder, rules: NamingRules = DEFAULT_RULES): LocalFiles {
  const { dir, base } = splitVideoPath(input.videoPath);
  const folder = new Folder(dir, input.folderFiles);
  const own = ownNames(base, rules);
  const wide = input.moviesInFolder === 1;
  return found({
    nfo: folder.find([...own.map((name) => `${name}.nfo`), ...(wide ? ['movie.nfo'] : [])]),
    poster: folder.findImage([...own.map((name) => `${name}-poster`), ...(wide ? ['poster', 'folder', 'cover'] : [])]),
    backdrop: folder.findImage([...own.map((name) => `${name}-fanart`), ...(wide ? ['fanart', 'backdrop', 'background'] : [])]),
    subtitles: subtitlesOf(dir, input, own, wide),
  });
}

/** `tvshow.nfo`, `poster.*`/`folder.*` and `fanart.*`/`backdrop.*` in the show folder. */
export function showLocalFiles(input: ShowFolder): LocalFiles {
  const folder = new Folder(input.showDir.replace(/\/+$/u, ''), input.folderFiles);
  return found({
    nfo: folder.find(['tvshow.nfo']),
    poster: folder.findImage(['poster', 'folder']),
    backdrop: folder.findImage(['fanart', 'backdrop', 'background']),
  });
}

/** `<video>.nfo`, and `<video>-thumb.jpg` or `<video>.jpg` as the still. */
export function episodeLocalFiles(input: EpisodeFolder): LocalFiles {
  const { dir, base } = splitVideoPath(input.videoPath);
  const folder = new Folder(dir, input.folderFiles);
  return found({
    nfo: folder.find([`${base}.nfo`]),
    still: folder.findImage([`${base}-thumb`, base]),
    subtitles: subtitlesOf(dir, input, [base], false),
  });
}

/**
 * Subtitle files of a video with these base names: beside it, named after it ("Movie.en.srt");
 * in `Subs/`, named after it, or named freely ("2_English.srt") when the folder can only be this
 * video's (`alone`: a lone movie in its folder) or sits in a folder named after it
 * ("Subs/Show.S01E01/English.srt").
 */
function subtitlesOf(dir: string, input: MovieFolder | EpisodeFolder, own: readonly string[], alone: boolean): string[] {
  const join = (folder: string, name: string) => (folder === '' ? name : `${folder}/${name}`);
  const ownFolded = own.map(foldName);
  // The longest video name a subtitle carries owns it: "Heat 2.en.srt" is Heat 2's, not Heat's.
  const inFolder =
    input.subtitlesIn ?? ((_dir: string, files: readonly string[]) => subtitlesByVideo(files, [...own, ...(input.otherVideos ?? [])]));
  const named = (folder: string, files: readonly string[]) => {
    const byVideo = inFolder(folder, files);
    return ownFolded.flatMap((base) => byVideo.get(base) ?? []);
  };
  const found = named(dir, input.folderFiles).map((name) => join(dir, name));
  for (const subs of input.subsFolders ?? []) {
    const freely = alone || (subs.inner !== null && ownFolded.includes(foldName(subs.inner)));
    if (subs.inner !== null && !freely) continue;
    const names = freely
      ? subs.files.filter((name) => parseSubtitleName(name, '', { inSubsFolder: true }) !== null)
      : named(subs.dir, subs.files);
    found.push(...names.map((name) => join(subs.dir, name)));
  }
  return [...new Set(found)].sort().slice(0, MAX_SUBTITLES);
}

/** The folder as the caller spelled it (the disk's Unicode form, to open it), and the base name. */
function splitVideoPath(videoPath: string): { dir: string; base: string } {
  return { dir: parentPath(videoPath), base: splitExtension(lastSegment(videoPath)).base };
}

/**
 * The video's own base name, then, for a part of a stack ("Alien - cd1"), the stack's
 * ("Alien"), which Kodi and Jellyfin use for the files of the whole movie.
 */
export function ownNames(base: string, rules: NamingRules = DEFAULT_RULES): string[] {
  const { name, part } = splitPart(base, rules);
  const stack = name.replace(/[\s._-]+$/u, '');
  return part === null || stack === '' ? [base] : [base, stack];
}

/** The result without absent kinds (and no empty list), so it compares and serialises cleanly. */
function found(files: LocalFiles): LocalFiles {
  return Object.fromEntries(
    Object.entries(files).filter(([, path]: [string, LocalFiles[keyof LocalFiles]]) => path !== undefined && path.length > 0),
  );
}

/**
 * Folded name → the name as listed, per list of names. A caller passes one folder's list for
 * each video in it, so a folder of 10,000 loose films is indexed once, not once per film. A
 * list must not change once passed.
 */
const nameIndexes = new WeakMap<readonly string[], ReadonlyMap<string, string>>();

const nameIndexOf = (files: readonly string[]): ReadonlyMap<string, string> => {
  const known = nameIndexes.get(files);
  if (known) return known;
  const names = new Map<string, string>();
  for (const name of files) {
    const key = foldName(name);
    const kept = names.get(key);
    // "Poster.jpg" beside "poster.jpg" (a case-sensitive disk): pick one the same way each time.
    if (kept === undefined || name < kept) names.set(key, name);
  }
  nameIndexes.set(files, names);
  return names;
};

class Folder {
  /** Folded name → the name as listed. */
  private readonly names: ReadonlyMap<string, string>;

  constructor(
    private readonly dir: string,
    files: readonly string[],
  ) {
    this.names = nameIndexOf(files);
  }

  /** The path of the first wanted name that exists. */
  find(wanted: readonly string[]): string | undefined {
    for (const name of wanted) {
      const listed = this.names.get(foldName(name));
      if (listed !== undefined) return this.dir === '' ? listed : `${this.dir}/${listed}`;
    }
    return undefined;
  }

  /** The first wanted base name with an image extension, extensions in preference order. */
  findImage(bases: readonly string[]): string | undefined {
    return this.find(bases.flatMap((base) => IMAGE_EXTENSIONS.map((ext) => `${base}.${ext}`)));
  }
}
