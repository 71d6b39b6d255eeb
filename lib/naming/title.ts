// Titles and years out of a name: "Inception (2010)", "Inception.2010.1080p.BluRay.x264-GROUP".
import { firstMatch, groupInt, matches } from './match';
import { MAX_YEAR, MIN_YEAR, type NamingRules, type YearRule } from './rules';

export interface TitleYear {
  /** Trimmed, whitespace collapsed; case and accents as in the name. May be ''. */
  readonly title: string;
  readonly year: number | null;
}

export function isYear(value: number | undefined): value is number {
  return value !== undefined && value >= MIN_YEAR && value <= MAX_YEAR;
}

/** The title and year of a name; year rules are tried in order, the first usable one wins. */
export function extractTitleYear(name: string, rules: NamingRules): TitleYear {
  const read = readTitleYear(name, rules);
  const rest = withoutReleasePrefix(name, rules);
  if (rest === name) return read;
  // A site tag before the title ("[nextorrent.org] Title.2016") is dropped, unless it was all there was.
  const fromRest = readTitleYear(rest, rules);
  return fromRest.title === '' ? read : fromRest;
}

function readTitleYear(name: string, rules: NamingRules): TitleYear {
  for (const rule of rules.years) {
    const found = findYear(rule.beforeQuality ? cutAtQuality(name, rules, ['flag', 'edition']) : name, rule, rules);
    if (found) return found;
  }
  return { title: cleanTitle(cutAt(rules.quality, name, (match) => !isLast3d(name, match))), year: null };
}

// With no year to anchor it, a 3D that ends the name is a title's own word ("Step Up 3D",
// "Piranha 3D"); followed by more ("Oblivion.3d.hsbs") it is the 3D tag.
const ONLY_SEPARATORS = /^[\s._-]*$/u;
function isLast3d(name: string, match: RegExpExecArray): boolean {
  return match.groups?.['token']?.toLowerCase() === '3d' && ONLY_SEPARATORS.test(name.slice(match.index + match[0].length));
}

function withoutReleasePrefix(name: string, rules: NamingRules): string {
  const prefix = firstMatch(rules.releasePrefix, name);
  return prefix === undefined ? name : name.slice(prefix.index + prefix[0].length);
}

/** A year is usable only with a non-empty title before it ("1917" alone is a title). */
function findYear(text: string, rule: YearRule, rules: NamingRules): TitleYear | undefined {
  const found = [...matches(rule.pattern, text)];
  for (const match of rule.pick === 'first' ? found : found.reverse()) {
    const year = groupInt(match, 'year');
    if (!isYear(year)) continue;
    const title = cleanTitle(
      rule.beforeQuality ? cutAtQuality(text.slice(0, match.index), rules) : titleBeforeBracketedYear(text, match, rules),
    );
    if (title !== '') return { title, year };
  }
  return undefined;
}

// Dots or underscores and no spaces: "Pb.Mkv.Ac3.", "the_matrix_".
const RELEASE_SEPARATED = /^[^\s]*[._][^\s]*$/u;
// Jellyfin's version label, "Title (Year) - 1080p": a tidy name's own suffix, not release tags.
const VERSION_LABEL = /^\s*-\s/u;

/**
 * The title before a "(year)". A tidy "Title (Year)" keeps every word before its year, tag-like
 * or not ("Pb Mkv Ac3 (2001)", "Step Up 3D (2010)"); only a bracket of tags ends it ("Sin City
 * (BluRay) (2005)"). A release name ends it at its first edition or source tag too ("Suicide
 * Squad EXTENDED (2016) 2160p"), passing release flags, which are plain words ("The Limited").
 * No cut leaves an empty title (cutAt).
 */
function titleBeforeBracketedYear(text: string, year: RegExpExecArray, rules: NamingRules): string {
  const before = text.slice(0, year.index);
  return isReleaseName(before, text.slice(year.index + year[0].length), rules)
    ? cutAtQuality(before, rules, ['flag'])
    : cutAt(rules.bracketedTags, before);
}

/** Release separators before the year, or release tags after it. */
function isReleaseName(before: string, after: string, rules: NamingRules): boolean {
  if (RELEASE_SEPARATED.test(before.trim())) return true;
  return !VERSION_LABEL.test(after) && firstMatch(rules.quality, after) !== undefined;
}

/** The kinds of token (groups of the quality pattern) a cut may pass over. */
type TokenKind = 'flag' | 'edition';

/** The name up to its first quality/source/codec token that has a title before it, passing tokens of the `past` kinds. */
export function cutAtQuality(name: string, rules: NamingRules, past: readonly TokenKind[] = []): string {
  return cutAt(rules.quality, name, (match) => !past.some((kind) => match.groups?.[kind] !== undefined));
}

/** The name up to the first match of `pattern` (that `counts`) with a title before it. */
function cutAt(pattern: RegExp, name: string, counts: (match: RegExpExecArray) => boolean = () => true): string {
  for (const match of matches(pattern, name)) {
    if (!counts(match)) continue;
    const before = name.slice(0, match.index);
    if (cleanTitle(before) !== '') return before;
  }
  return name;
}

// A name without spaces or underscores uses dots as separators ("The.Matrix"); a name with
// spaces keeps its dots ("Mr. & Mrs. Smith", "S.W.A.T."). Underscores are always separators.
const HAS_SPACE_OR_UNDERSCORE = /[\s_]/u;
const SINGLE_LETTER = /^\p{L}$/u;
// "S.W.A.T." keeps its final dot; "Title.." loses its trailing dots.
const ENDS_WITH_ACRONYM = /(?:^|[^\p{L}\d.])(?:\p{L}\.){2,}$/u;

export function cleanTitle(raw: string): string {
  const dotted = !HAS_SPACE_OR_UNDERSCORE.test(raw);
  let text = raw.replace(/_/gu, ' ');
  if (dotted) text = joinDottedTokens(text.split('.'));
  text = text
    .replace(/\s+/gu, ' ')
    .replace(/^[\s\-_]+/u, '')
    .replace(/[\s\-_([{（]+$/u, '');
  if (!ENDS_WITH_ACRONYM.test(text)) text = text.replace(/\.+$/u, '').trimEnd();
  return text.replace(/[\s\-_]+$/u, '');
}

/**
 * Joins dot-separated tokens with spaces, keeping runs of single letters as an acronym:
 * "E.T.the.Extra-Terrestrial" → "E.T. the Extra-Terrestrial", "S.W.A.T" → "S.W.A.T.".
 */
function joinDottedTokens(tokens: readonly string[]): string {
  const words: string[] = [];
  let acronym: string[] = [];
  const flush = () => {
    if (acronym.length >= 2) words.push(acronym.join('.') + '.');
    else words.push(...acronym);
    acronym = [];
  };
  for (const token of tokens) {
    if (SINGLE_LETTER.test(token)) {
      acronym.push(token);
      continue;
    }
    flush();
    words.push(token);
  }
  flush();
  return words.join(' ');
}

/** A case- and separator-insensitive form of a name, for grouping keys. */
export function looseKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[\s._-]+/gu, ' ')
    .trim();
}
