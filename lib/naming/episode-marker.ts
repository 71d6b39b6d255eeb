// Season and episode numbers out of names: "S01E02", "1x02", "S01E01-E03", "Season 01",
// "Specials", and bare "02 - Pilot" files inside a season folder.
import { groupInt, matches } from './match';
import type { EpisodeRule, NamingRules, SeasonRule } from './rules';

export interface EpisodeMarker {
  readonly season: number;
  readonly episodes: number[];
  /** Where the marker starts in the name: the show title is what comes before it. */
  readonly index: number;
}

/** The first rule whose first match reads as a valid marker wins. */
export function findEpisodeMarker(name: string, rules: NamingRules): EpisodeMarker | undefined {
  for (const rule of rules.episodes) {
    for (const match of matches(rule.pattern, name)) {
      const read = readEpisodes(rule, match, rules.maxEpisodeRange);
      const season = groupInt(match, 'season');
      if (read !== undefined && season !== undefined) return { season, episodes: read, index: match.index };
    }
  }
  return undefined;
}

function readEpisodes(rule: EpisodeRule, match: RegExpExecArray, maxRange: number): number[] | undefined {
  if (rule.kind === 'single') {
    const episode = groupInt(match, 'episode');
    return episode === undefined ? undefined : [episode];
  }
  const first = groupInt(match, 'first');
  if (first === undefined) return undefined;
  if (rule.kind === 'list') {
    const more = (match.groups?.more ?? '').match(/\d+/gu) ?? [];
    return [...new Set([first, ...more.map(Number)])].sort((a, b) => a - b);
  }
  const last = groupInt(match, 'last');
  // A backwards or huge range is not a range ("S01E05-1080p"): let a later rule read it.
  if (last === undefined || last < first || last - first > maxRange) return undefined;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

/** The season a folder name stands for ("Season 02" → 2, "Specials" → 0). */
export function findSeason(
  folder: string,
  rules: NamingRules,
  kinds: readonly SeasonRule['kind'][] = ['folder', 'token'],
): number | undefined {
  for (const rule of rules.seasons) {
    if (!kinds.includes(rule.kind)) continue;
    for (const match of matches(rule.pattern, folder)) {
      const season = rule.season ?? groupInt(match, 'season');
      if (season !== undefined) return season;
    }
  }
  return undefined;
}

/** True when the whole folder name is a season ("Season 1", "S01", "Specials"). */
export function isSeasonFolder(folder: string, rules: NamingRules): boolean {
  return findSeason(folder, rules, ['folder']) !== undefined;
}

/** An episode number for a file whose season comes from its folder ("02 - Pilot"). */
export function findBareEpisode(name: string, rules: NamingRules): number | undefined {
  for (const rule of rules.bareEpisodes) {
    for (const match of matches(rule.pattern, name)) {
      const episode = groupInt(match, 'episode');
      if (episode !== undefined) return episode;
    }
  }
  return undefined;
}
