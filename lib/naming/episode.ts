// TV episodes: "Breaking Bad/Season 01/Breaking.Bad.S01E02.720p.mkv", "Show/Specials/x.S00E01.mkv",
// "Show (2008) [tmdbid-1396]/Season 2/02 - Title.mkv", "Breaking.Bad.S01E02.mkv" (no folders).
import { findBareEpisode, findEpisodeMarker, findSeason, isSeasonFolder } from './episode-marker';
import { matches } from './match';
import { readProviderTags, type Tagged } from './provider-ids';
import { DEFAULT_RULES, type NamingRules } from './rules';
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

export function parseEpisode(relPath: string, rules: NamingRules = DEFAULT_RULES): EpisodeResult {
  const video = readVideoPath(relPath, rules);
  if (!video.ok) return video;
  const { dirs, tags } = video;
  const located = locate(tags.rest, dirs, rules);
  if (located === undefined) return fail('no season or episode number');
  const show = readShow(dirs, tags, located.prefix, rules);
  if (show.title === '') return fail('no show title');
  return {
    ok: true,
    showTitle: show.title,
    showYear: show.year,
    season: located.season,
    episodes: located.episodes,
    tmdbId: show.tmdbId,
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

/** The show is the top-level folder unless that is a season folder; else the file name's start. */
function readShow(dirs: readonly string[], fileTags: Tagged, prefix: string, rules: NamingRules): Show {
  const showDir = dirs[0];
  if (showDir !== undefined && !isSeasonFolder(showDir, rules)) {
    const tags = readProviderTags(showDir, rules);
    const show = extractTitleYear(cutAtSeason(tags.rest, rules), rules);
    if (show.title !== '') return { ...show, tmdbId: tags.tmdbId };
  }
  return { ...extractTitleYear(prefix, rules), tmdbId: fileTags.tmdbId };
}

/** "Breaking.Bad.S01.1080p.BluRay" → "Breaking.Bad": a season-pack folder used as show folder. */
function cutAtSeason(folder: string, rules: NamingRules): string {
  for (const match of matches(rules.showFolderCut, folder)) {
    const before = folder.slice(0, match.index);
    if (cleanTitle(before) !== '') return before;
  }
  return folder;
}
