// Ordered naming rule tables, in the spirit of Emby.Naming but smaller. Parsers walk a table top
// to bottom and the first rule that matches (and passes its sanity checks) wins, so specific
// rules come before loose ones. Every pattern is compiled once, here or in ./release-tokens, and
// carries NAMED groups.
//
// Scanning patterns are global (`g`) and are only used through matchAll/replace (see ./match),
// which never leave lastIndex state behind, so one shared table is safe to reuse. Anchored ones
// (the release prefix) are not global and are run once with exec, which leaves no state either.
import { QUALITY_TOKENS, SEP, bracketedTags, quality, releasePrefix } from './release-tokens';

/** Finds a year and the title before it. Group: `year`. */
export interface YearRule {
  readonly name: string;
  readonly pattern: RegExp;
  /** `first`: the earliest usable year wins; `last`: the latest one does (titles with years). */
  readonly pick: 'first' | 'last';
  /** Search only the part of the name before the first quality/source/codec token (flags and editions do not end it). */
  readonly beforeQuality: boolean;
}

/** Finds a multi-part token at the end of a file base name. Group: `part`. */
export interface StackRule {
  readonly name: string;
  readonly pattern: RegExp;
}

/**
 * `single`: groups `season`, `episode`.
 * `list`: groups `season`, `first`, `more` (every number in `more` is another episode).
 * `range`: groups `season`, `first`, `last` (inclusive).
 */
export interface EpisodeRule {
  readonly name: string;
  readonly kind: 'single' | 'list' | 'range';
  readonly pattern: RegExp;
}

/**
 * `folder` rules describe a whole folder name ("Season 01"), so the folder is a season folder
 * and not a show folder; `token` rules find a season inside a longer release-style name.
 * Group: `season`, unless `season` is fixed (specials).
 */
export interface SeasonRule {
  readonly name: string;
  readonly kind: 'folder' | 'token';
  readonly pattern: RegExp;
  readonly season?: number;
}

/** Finds an episode number in a file whose season comes from its folder. Group: `episode`. */
export interface BareEpisodeRule {
  readonly name: string;
  readonly pattern: RegExp;
}

export interface NamingRules {
  /** Provider id tags. Groups: `provider` (tmdb, imdb, tvdb), `id`. */
  readonly providerTag: RegExp;
  readonly years: readonly YearRule[];
  /** Quality, source, codec and edition tokens: where a release-style title ends. Groups `flag` and `edition` mark those kinds. */
  readonly quality: RegExp;
  /** A bracket holding only such tokens ("(BluRay)", "[Director's Cut]"): where even a tidy name's title ends. */
  readonly bracketedTags: RegExp;
  /** A release site or tag glued before the title ("[nextorrent.org] ", "[阿维达]."): not part of the title. */
  readonly releasePrefix: RegExp;
  readonly stack: readonly StackRule[];
  readonly episodes: readonly EpisodeRule[];
  readonly seasons: readonly SeasonRule[];
  readonly bareEpisodes: readonly BareEpisodeRule[];
  /** Where a show title ends inside a season-pack folder name ("Show.S01.1080p"). */
  readonly showFolderCut: RegExp;
  /** Longest accepted multi-episode range, so "S01E01-1080" is not 1,080 episodes. */
  readonly maxEpisodeRange: number;
}

const providerTag =
  // "Inception (2010) [tmdbid-27205]", "{tmdb-27205}", "[tmdb=27205]", "[imdbid-tt1375666]".
  // `tmdb=` is accepted because people mix the Jellyfin and Plex spellings; imdb and tvdb tags
  // are only removed from titles (there is no field for them yet).
  /[[{]\s*(?<provider>tmdb|imdb|tvdb)(?:id)?\s*[-=:]\s*(?<id>(?:tt)?\d{1,10})\s*[\]}]/giu;

const years: readonly YearRule[] = [
  {
    // "Inception (2010)", "Amélie [2001]", "千と千尋の神隠し（2001）" (full-width parentheses).
    name: 'bracketed',
    pattern: /[([（](?<year>\d{4})[)\]）]/gu,
    pick: 'first',
    beforeQuality: false,
  },
  {
    // "Inception.2010.1080p", "Blade.Runner.2049.2017.2160p": the LAST year before the quality
    // tokens wins, so a year inside the title stays in the title. A year at the very start
    // ("2001.A.Space.Odyssey") is never a candidate: it has no title before it.
    name: 'release',
    pattern: new RegExp(String.raw`(?<=${SEP})(?<year>\d{4})(?=${SEP}|$)`, 'gu'),
    pick: 'last',
    beforeQuality: true,
  },
];

const stack: readonly StackRule[] = [
  {
    // "Movie (1999) - cd1", "Movie.1999-CD2", "Movie part 2", "Movie.pt1", "Movie disc1",
    // "Movie disk 2", "Movie dvd1", or a bare "cd1". Only at the end of the name, so a title
    // such as "Part 2: The Return (2010)" keeps its words. DVD5/DVD9 are disc formats, not parts.
    name: 'part-token',
    pattern: new RegExp(String.raw`(?:^|${SEP})(?<kind>cd|dvd(?![59]$)|dis[ck]|part|pt)${SEP}?(?<part>\d{1,2})$`, 'giu'),
  },
  {
    // "The.Matrix.1999.CD1.DVDRip.XviD-GRP": a disc token right before the release tags. Not
    // "part", which ends titles too ("Deathly.Hallows.Part.2.2011.1080p").
    name: 'disc-before-tags',
    pattern: new RegExp(
      String.raw`(?:^|${SEP})(?<kind>cd|dis[ck])${SEP}?(?<part>\d{1,2})(?=${SEP}(?:${QUALITY_TOKENS.join('|')})(?:${SEP}|$))`,
      'giu',
    ),
  },
];

const B = String.raw`(?<![\p{L}\d])`; // not glued to a word on the left
const DASH = String.raw`[\s._]?-[\s._]?`; // between the episodes of a range

const episodes: readonly EpisodeRule[] = [
  {
    // "S01E01-E03", "S01E01-02", "S01E01 - E02", "S01E01-S01E02", "S01E01-E02-E03" (the last one ends it)
    name: 'sxxeyy-range',
    kind: 'range',
    pattern: new RegExp(
      String.raw`${B}s(?<season>\d{1,4})${SEP}?e(?<first>\d{1,4})(?:${DASH}(?:s\d{1,4})?e\d{1,4})*(?:${DASH}(?:s\d{1,4})?e|-)(?<last>\d{1,4})(?![\p{L}\d])`,
      'giu',
    ),
  },
  {
    // "S01E01E02", "s01e01.e02"
    name: 'sxxeyy-list',
    kind: 'list',
    pattern: new RegExp(String.raw`${B}s(?<season>\d{1,4})${SEP}?e(?<first>\d{1,4})(?<more>(?:[\s._]?e\d{1,4})+)(?!\d)`, 'giu'),
  },
  {
    // "Breaking.Bad.S01E02.720p", "s1e2", "S01.E02", "S2010E05", "S6.Ep5", "S06xE01", "S01x02".
    // No separator before the x, so a season pack's "S01.x264" is not episode 264.
    name: 'sxxeyy',
    kind: 'single',
    pattern: new RegExp(String.raw`${B}s(?<season>\d{1,4})(?:${SEP}?ep?|xe?)(?<episode>\d{1,4})(?!\d)`, 'giu'),
  },
  {
    // "Season 1 Episode 2"
    name: 'verbose',
    kind: 'single',
    pattern: new RegExp(String.raw`${B}season${SEP}*(?<season>\d{1,4})${SEP}*episode${SEP}*(?<episode>\d{1,4})(?!\d)`, 'giu'),
  },
  {
    // "1x01-1x02", "1x01-02". Two-digit episodes at least, so "4x4 (2019)" is not an episode
    // and a resolution such as 1920x1080 never matches.
    name: 'nxm-range',
    kind: 'range',
    pattern: new RegExp(
      String.raw`${B}(?<season>\d{1,2})x(?<first>\d{2,3})[\s._]?-[\s._]?(?:\d{1,2}x)?(?<last>\d{2,3})(?![\p{L}\d])`,
      'giu',
    ),
  },
  {
    // "Show - 1x02 - Title"
    name: 'nxm',
    kind: 'single',
    pattern: new RegExp(String.raw`${B}(?<season>\d{1,2})x(?<episode>\d{2,3})(?![\p{L}\d])`, 'giu'),
  },
  {
    // "Mad.M-5x9", "Something.1x5.Season.Complete": a one-digit episode only right after a
    // title word, so a name that starts "4x4 (2019)" is still not an episode.
    name: 'nxm-short',
    kind: 'single',
    pattern: new RegExp(String.raw`(?<=\p{L}[\s._\-]{1,3})(?<season>\d{1,2})x(?<episode>\d)(?![\p{L}\d])`, 'giu'),
  },
];

// Season words in a few languages, since folder names are often localised.
const SEASON_WORD = '(?:season|series|saison|staffel|temporada|stagione)';

const seasons: readonly SeasonRule[] = [
  {
    // "Season 01", "season.2", "Series 3", "Staffel 2", "Season 1 (2008)"
    name: 'season-word',
    kind: 'folder',
    pattern: new RegExp(String.raw`^${SEASON_WORD}${SEP}*(?<season>\d{1,4})(?:[\s._\-([].*)?$`, 'giu'),
  },
  // "S01", "s2"
  { name: 's-number', kind: 'folder', pattern: /^s(?<season>\d{1,4})$/giu },
  // "Specials", "Special": Jellyfin's convention for season 0.
  { name: 'specials', kind: 'folder', pattern: /^(?<specials>specials?)$/giu, season: 0 },
  {
    // "Breaking.Bad.S01.1080p.BluRay" (a season pack folder)
    name: 's-token',
    kind: 'token',
    pattern: new RegExp(String.raw`(?:^|${SEP})s(?<season>\d{1,4})(?=${SEP}|$)`, 'giu'),
  },
];

const bareEpisodes: readonly BareEpisodeRule[] = [
  // "02 - Pilot", "02.mkv", "02. Pilot"
  { name: 'leading-number', pattern: new RegExp(String.raw`^(?<episode>\d{1,3})(?=${SEP}|$)`, 'gu') },
  {
    // "E02 - Pilot", "Ep 2", "Ep. 02 - Title", "Episode 02", "Show - E02"
    name: 'e-number',
    pattern: new RegExp(String.raw`(?:^|${SEP})(?:e|ep\.?|episode)${SEP}?(?<episode>\d{1,4})(?=${SEP}|$)`, 'giu'),
  },
  {
    // "Show - 02", "Show - 02 - Pilot"
    name: 'dash-number',
    pattern: new RegExp(String.raw`\s-\s*(?<episode>\d{1,3})(?=${SEP}|$)`, 'gu'),
  },
];

// "Breaking.Bad.S01.1080p", "Breaking Bad Season 1", "Breaking.Bad.S01E01-E07"
const showFolderCut = new RegExp(String.raw`(?:^|${SEP})(?<marker>s\d{1,4}(?:e\d{1,4})?|${SEASON_WORD}${SEP}*\d{1,4})(?=${SEP}|$)`, 'giu');

export const DEFAULT_RULES: NamingRules = Object.freeze({
  providerTag,
  years: Object.freeze(years),
  quality,
  bracketedTags,
  releasePrefix,
  stack: Object.freeze(stack),
  episodes: Object.freeze(episodes),
  seasons: Object.freeze(seasons),
  bareEpisodes: Object.freeze(bareEpisodes),
  showFolderCut,
  maxEpisodeRange: 50,
});

/** Years accepted anywhere: earlier numbers are not film years, later ones are not dates. */
export const MIN_YEAR = 1880;
export const MAX_YEAR = 2100;
