// TV episodes: "Breaking Bad/Season 01/Breaking.Bad.S01E02.720p.mkv", "Show/Specials/x.S00E01.mkv",
// "Show (2008) [tmdbid-1396]/Season 2/02 - Title.mkv", "Breaking.Bad.S01E02.mkv" (no folders), and
// "Season 1/S01E01.mkv" in a library whose root is the show's folder (./show-root).
import { findBareEpisode, findEpisodeMarker, findSeason, isSeasonFolder } from './episode-marker';
import { matches } from './match';
import { readProviderTags, type Tagged } from './provider-ids';
import { DEFAULT_RULES, type NamingRules } from './rules';
import { belongsToRoot, type ShowFrom } from './show-root';
import { cleanTitle, extractTitleYear, type TitleYear } from './title';
import { fail, type EpisodeResult } from './types';
import { readVideoPath } from './video-path';

interface Located {
  readonly season: number;
  readonly episodes: number[];
  /** The file name before its episode marker: the show title when there is no show folder. */
  readonly prefix: string;
}

interface Show extends TitleYear {
  readonly tmdbId: number | null;
}

const NO_SHOW: Show = { title: '', year: null, tmdbId: null };

interface NamedShow extends Show {
  readonly from: ShowFrom;
}

/**
 * `rootName` is the library's own folder name ("Breaking Bad (2008)" for a library at
 * "/media/Breaking Bad (2008)"): it names the show of files with no show folder of their own
 * when the root is that show's folder (./show-root). '' when unknown.
 */
export function parseEpisode(relPath: string, rootName = '', rules: NamingRules = DEFAULT_RULES): EpisodeResult {
  const video = readVideoPath(relPath, rules);
  if (!video.ok) return video;
  const { dirs, tags } = video;
  const located = locate(tags.rest, dirs, rules);
  if (located === undefined) return fail('no season or episode number');
  const show = readShow(dirs, tags, located.prefix, rootName, rules);
  if (show.title === '') return fail('no show title');
  return {
    ok: true,
    showTitle: show.title,
    showYear: show.year,
    season: located.season,
    episodes: located.episodes,
    tmdbId: show.tmdbId,
    showFrom: show.from,
  };
}

/**
 * The file name's own marker wins; then a release folder's ("Show.S01E02.720p/abc123.mkv", the
 * file name obfuscated); then a bare number in the file with the season from its folders.
 */
function locate(base: string, dirs: readonly string[], rules: NamingRules): Located | undefined {
  const inFile = findEpisodeMarker(base, rules);
  if (inFile !== undefined) return { ...inFile, prefix: base.slice(0, inFile.index) };
  const nearestFirst = [...dirs].reverse();
  for (const dir of nearestFirst) {
    const inDir = findEpisodeMarker(dir, rules);
    if (inDir !== undefined) return { ...inDir, prefix: '' };
  }
  for (const dir of nearestFirst) {
    const season = findSeason(dir, rules);
    if (season === undefined) continue;
    const episode = findBareEpisode(base, rules);
    return episode === undefined ? undefined : { season, episodes: [episode], prefix: '' };
  }
  return undefined;
}

/**
 * The show is the top-level folder unless that is a season folder; else the library's root
 * folder when the root is the show's folder (./show-root); else the file name's start.
 */
function readShow(dirs: readonly string[], fileTags: Tagged, prefix: string, rootName: string, rules: NamingRules): NamedShow {
  const topDir = dirs[0];
  const inSeasonFolder = topDir !== undefined && isSeasonFolder(topDir, rules);
  if (topDir !== undefined && !inSeasonFolder) {
    const show = readShowFolder(topDir, rules);
    if (show.title !== '') return { ...show, from: 'folder' };
  }
  const fromFile = { ...extractTitleYear(prefix, rules), tmdbId: fileTags.tmdbId };
  const root = readRoot(rootName, rules);
  return belongsToRoot(inSeasonFolder, fromFile, root) ? { ...root, from: 'root' } : { ...fromFile, from: 'file' };
}

// Every file of a scan has the same root: it is read once (a memo; the result is the same).
let lastRoot: { readonly name: string; readonly rules: NamingRules; readonly show: Show } | undefined;

/** The show the library's root folder names; none when the root is itself a season folder ("/media/Show/Season 1"). */
function readRoot(rootName: string, rules: NamingRules): Show {
  if (lastRoot?.name === rootName && lastRoot.rules === rules) return lastRoot.show;
  const folder = rootName.normalize('NFC');
  const show = isSeasonFolder(folder, rules) ? NO_SHOW : readShowFolder(folder, rules);
  lastRoot = { name: rootName, rules, show };
  return show;
}

/** "Breaking Bad (2008) [tmdbid-1396]" → Breaking Bad, 2008, 1396. */
function readShowFolder(folder: string, rules: NamingRules): Show {
  const tags = readProviderTags(folder, rules);
  return { ...extractTitleYear(cutAtSeason(tags.rest, rules), rules), tmdbId: tags.tmdbId };
}

/** "Breaking.Bad.S01.1080p.BluRay" → "Breaking.Bad": a season-pack folder used as show folder. */
function cutAtSeason(folder: string, rules: NamingRules): string {
  for (const match of matches(rules.showFolderCut, folder)) {
    const before = folder.slice(0, match.index);
    if (cleanTitle(before) !== '') return before;
  }
  return folder;
}
