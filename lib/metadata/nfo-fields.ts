// What an NFO's elements say, read from fast-xml-parser's object form. Kodi writes NFOs from its
// library, people write them by hand, and other tools (Jellyfin, tinyMediaManager, MediaElch)
// add elements of their own. So every field is optional, an empty element counts as absent, and
// a value that does not parse (a year of 0, a rating of "n/a") is dropped, never fatal.
import { isYear } from '../naming/title';
import { CAST_LIMIT, type CastMember } from './provider';
import { asImdbId, asNumericId, compactIds, mergeIds, type ProviderIds } from './ids';

/** An element as the parser gives it once it has children or attributes. */
export type XmlNode = Record<string, unknown>;

/** A `<movie>` or `<tvshow>`. Names follow the catalogue's (lib/catalog/model.ts). */
export interface NfoTitleFields {
  title: string | null;
  originalTitle: string | null;
  /** `<year>`, else the year of `<premiered>`, `<releasedate>` or `<aired>`. */
  year: number | null;
  /** `<plot>`, else `<outline>`. */
  overview: string | null;
  tagline: string | null;
  runtimeMinutes: number | null;
  /** In file order, "Action / Drama" split, duplicates dropped. */
  genres: string[];
  /** On a 0..10 scale; Kodi writes 0 for "not rated", so 0 is null. */
  rating: number | null;
  /** Every `<director>`, "A / B" split, duplicates dropped. */
  directors: string[];
  /** `<actor>`s with a `<name>`, by `<order>` (file order without one), the first CAST_LIMIT. */
  cast: CastMember[];
  ids: ProviderIds;
  /** A movie's `<set>`, only when it names the provider's collection id; always null for a show. */
  collection: { id: number; name: string } | null;
}

/** One `<episodedetails>`. Its ids are the episode's own, never the show's. */
export interface NfoEpisodeFields {
  title: string | null;
  showTitle: string | null;
  /** 0 for specials; null when absent (Kodi writes -1 for that). */
  season: number | null;
  episode: number | null;
  overview: string | null;
  /** "YYYY-MM-DD" from `<aired>`. */
  airDate: string | null;
  runtimeMinutes: number | null;
  rating: number | null;
  ids: ProviderIds;
}

export function readTitleFields(node: XmlNode, kind: 'movie' | 'tvshow'): NfoTitleFields {
  return {
    title: line(node, 'title') ?? (kind === 'tvshow' ? line(node, 'showtitle') : null),
    originalTitle: line(node, 'originaltitle'),
    year: readYear(node),
    overview: paragraph(node, 'plot') ?? paragraph(node, 'outline'),
    tagline: line(node, 'tagline'),
    runtimeMinutes: readRuntime(node),
    genres: readGenres(node),
    rating: readRating(node),
    directors: readList(node, 'director'),
    cast: readCast(node),
    // Kodi's movie scraper writes the TMDB id into a bare <id>; for shows that number has been
    // a TVDB id for years, and a wrong TMDB id is worse than none, so it only counts for movies.
    ids: readIds(node, kind === 'movie'),
    collection: kind === 'movie' ? readSet(node) : null,
  };
}

export function readEpisodeFields(node: XmlNode): NfoEpisodeFields {
  return {
    title: line(node, 'title'),
    showTitle: line(node, 'showtitle'),
    season: readCount(node, 'season'),
    episode: readCount(node, 'episode'),
    overview: paragraph(node, 'plot') ?? paragraph(node, 'outline'),
    airDate: readDate(line(node, 'aired')),
    runtimeMinutes: readRuntime(node),
    rating: readRating(node),
    ids: readIds(node, false),
  };
}

// --- Elements -----------------------------------------------------------------------------

const TEXT = '#text';
const ATTR = '@_';

export function isNode(value: unknown): value is XmlNode {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every `<name>` child, in order (the parser gives one child bare and several as an array). */
export function children(node: XmlNode, name: string): unknown[] {
  if (!Object.hasOwn(node, name)) return [];
  const value = node[name];
  return Array.isArray(value) ? value : [value];
}

function textOf(element: unknown): string {
  if (typeof element === 'string') return element.trim();
  const text = isNode(element) ? element[TEXT] : undefined;
  return typeof text === 'string' ? text.trim() : '';
}

function attribute(element: unknown, name: string): string | undefined {
  const value = isNode(element) ? element[ATTR + name] : undefined;
  return typeof value === 'string' ? value.trim() : undefined;
}

/** The first non-empty `<name>`, on one line. */
function line(node: XmlNode, name: string): string | null {
  for (const element of children(node, name)) {
    const text = textOf(element).replace(/\s+/gu, ' ');
    if (text !== '') return text;
  }
  return null;
}

/** The first non-empty `<name>`, line breaks kept (plots have paragraphs). */
function paragraph(node: XmlNode, name: string): string | null {
  for (const element of children(node, name)) {
    const text = textOf(element).replace(/\r\n?/gu, '\n');
    if (text !== '') return text;
  }
  return null;
}

// --- Values -------------------------------------------------------------------------------

const LEADING_YEAR = /^(\d{4})(?!\d)/;
const DATE = /^(\d{4})-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(?!\d)/;

function readYear(node: XmlNode): number | null {
  const year = Number(LEADING_YEAR.exec(line(node, 'year') ?? '')?.[1]);
  if (isYear(year)) return year;
  for (const tag of ['premiered', 'releasedate', 'aired']) {
    const date = readDate(line(node, tag));
    if (date !== null) return Number(date.slice(0, 4));
  }
  return null;
}

/** "2004-11-16" (anything after the day, such as a time, is dropped), else null. */
function readDate(text: string | null): string | null {
  const match = DATE.exec(text ?? '');
  return match && isYear(Number(match[1])) ? match[0] : null;
}

/** A season or episode number: 0 and up; Kodi's -1 and anything else is null. */
function readCount(node: XmlNode, name: string): number | null {
  const text = line(node, name);
  return text !== null && /^\d{1,4}$/.test(text) ? Number(text) : null;
}

/** Minutes: "136", "136 min"; 0 is Kodi's "unknown". */
function readRuntime(node: XmlNode): number | null {
  const minutes = Number(/^(\d{1,4})(?!\d)/.exec(line(node, 'runtime') ?? '')?.[1]);
  return minutes > 0 ? minutes : null;
}

/** Every `<name>`, "A / B" split, in their first spelling, once. */
function readList(node: XmlNode, name: string, separator: string | RegExp = ' / '): string[] {
  const seen = new Set<string>();
  const values: string[] = [];
  for (const element of children(node, name)) {
    for (const part of textOf(element).split(separator)) {
      const value = part.replace(/\s+/gu, ' ').trim();
      const key = value.toLowerCase();
      if (value === '' || seen.has(key)) continue;
      seen.add(key);
      values.push(value);
    }
  }
  return values;
}

const readGenres = (node: XmlNode) => readList(node, 'genre', '/');

function readCast(node: XmlNode): CastMember[] {
  const cast = children(node, 'actor').flatMap((actor, i): CastMember[] => {
    const name = isNode(actor) ? line(actor, 'name') : null;
    if (name === null) return [];
    const order = Number(line(actor as XmlNode, 'order'));
    return [{ name, character: line(actor as XmlNode, 'role') ?? '', order: Number.isSafeInteger(order) && order >= 0 ? order : i }];
  });
  return cast.sort((a, b) => a.order - b.order).slice(0, CAST_LIMIT);
}

/** "7.8", "7,8" (hand-written), else NaN. */
function decimal(text: string | null | undefined): number {
  return text && /^\d{1,6}(?:[.,]\d{1,9})?$/.test(text) ? Number(text.replace(',', '.')) : NaN;
}

/**
 * Kodi 17+ writes `<ratings><rating name="imdb" max="10" default="true"><value>`; older files a
 * bare `<rating>7.8</rating>`. The default rating wins, then TMDB's (the catalogue's own source),
 * then the first one with a value.
 */
function readRating(node: XmlNode): number | null {
  const rated = children(node, 'ratings').flatMap((ratings) => (isNode(ratings) ? children(ratings, 'rating') : []));
  const ranked = [
    ...rated.filter((rating) => attribute(rating, 'default') === 'true'),
    ...rated.filter((rating) => /^(?:themoviedb|tmdb)$/i.test(attribute(rating, 'name') ?? '')),
    ...rated,
  ];
  for (const rating of ranked) {
    const value = isNode(rating) ? scaled(decimal(line(rating, 'value')), decimal(attribute(rating, 'max'))) : null;
    if (value !== null) return value;
  }
  return scaled(decimal(line(node, 'rating')), NaN); // the old bare form is always out of 10
}

/** On a 0..10 scale, to two decimals; a value of 0 or out of its range is no rating. */
function scaled(value: number, max: number): number | null {
  const tenths = Number.isFinite(max) && max > 0 ? (value / max) * 10 : value;
  if (!Number.isFinite(tenths) || tenths <= 0 || tenths > 10) return null;
  return Math.round(tenths * 100) / 100;
}

// --- Ids ----------------------------------------------------------------------------------

/** `<uniqueid>` first (it says which provider), then `<tmdbid>`/`<imdbid>`/`<tvdbid>`, then `<id>`. */
function readIds(node: XmlNode, bareIdIsTmdb: boolean): ProviderIds {
  const tagged = compactIds({
    tmdb: asNumericId(line(node, 'tmdbid')),
    imdb: asImdbId(line(node, 'imdbid')),
    tvdb: asNumericId(line(node, 'tvdbid')),
  });
  const bare = line(node, 'id');
  const fromId = compactIds({ imdb: asImdbId(bare), tmdb: bareIdIsTmdb ? asNumericId(bare) : undefined });
  return mergeIds(mergeIds(readUniqueIds(node), tagged), fromId);
}

/** Several `<uniqueid>` of one type: the `default="true"` one wins, else the first. */
function readUniqueIds(node: XmlNode): ProviderIds {
  const all = children(node, 'uniqueid');
  const ordered = [...all.filter((u) => attribute(u, 'default') === 'true'), ...all];
  let ids: ProviderIds = {};
  for (const unique of ordered) {
    const type = attribute(unique, 'type')?.toLowerCase();
    const value = textOf(unique);
    const found = compactIds({
      tmdb: type === 'tmdb' || type === 'themoviedb' ? asNumericId(value) : undefined,
      // An untyped uniqueid (older Kodi) is taken only when it can be nothing but an IMDb id.
      imdb: type === 'imdb' || type === undefined ? asImdbId(value) : undefined,
      tvdb: type === 'tvdb' || type === 'thetvdb' ? asNumericId(value) : undefined,
    });
    ids = mergeIds(ids, found);
  }
  return ids;
}

// --- Sets ---------------------------------------------------------------------------------

/**
 * A movie's collection. Kodi writes `<set><name>…</name><overview>…</overview></set>` (older
 * files `<set>Name</set>`); the provider's collection id comes as a `tmdbcolid` attribute on it
 * (Jellyfin, tinyMediaManager) or as Jellyfin's `<collectionnumber>` beside it. A set without an
 * id is left out: collections are kept by the provider's id, never by name, and a name alone
 * would make a second collection beside the provider's one, or one of two sets sharing a name.
 */
function readSet(node: XmlNode): { id: number; name: string } | null {
  const set = children(node, 'set').find((s) => textOf(s) !== '' || (isNode(s) && line(s, 'name') !== null));
  if (set === undefined) return null;
  const id = asNumericId(attribute(set, 'tmdbcolid')) ?? asNumericId(line(node, 'collectionnumber'));
  const name = (isNode(set) ? line(set, 'name') : null) ?? textOf(set).replace(/\s+/gu, ' ');
  return id === undefined ? null : { id, name };
}
