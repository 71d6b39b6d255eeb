// `/Items` as the apps ask it: which titles (a library, kinds, ids, a search), filtered (played,
// unplayed, resumable, favourite, genres, years, a first letter), sorted by the keys the apps
// send, and paged. Over the films and shows the process holds: no database read but the
// profile's states.
import type { TitledItem } from '../catalog/model';
import type { DoorIndex } from './catalogue';
import type { DoorQuery } from './wire';

export interface TitleStates {
  played: (id: string) => boolean;
  lastPlayedAt: (id: string) => string | null;
  favorite: (id: string) => boolean;
  resumable: (id: string) => boolean;
}

const KINDS: Record<string, TitledItem['entity']> = { movie: 'movie', series: 'tvshow' };

/** The title kinds a query asks for (none: both); undefined when it asks only for kinds that are not titles. */
export const titleKinds = (query: DoorQuery): Set<TitledItem['entity']> | undefined => {
  const include = query.list('includeItemTypes').map((t) => t.toLowerCase());
  const exclude = new Set(query.list('excludeItemTypes').map((t) => t.toLowerCase()));
  const asked = include.length ? include : ['movie', 'series'];
  const kinds = new Set(asked.filter((t) => !exclude.has(t)).flatMap((t) => (KINDS[t] ? [KINDS[t]] : [])));
  return kinds.size ? kinds : undefined;
};

/** Which filters the query names, from `filters=` and the boolean parameters alike. */
const filtersOf = (query: DoorQuery) => {
  const named = new Set(query.list('filters').map((f) => f.toLowerCase()));
  const played = query.bool('isPlayed') ?? (named.has('isplayed') ? true : named.has('isunplayed') ? false : undefined);
  const favorite = query.bool('isFavorite') ?? (named.has('isfavorite') ? true : undefined);
  const resumable = named.has('isresumable') ? true : undefined;
  return { played, favorite, resumable };
};

const releaseOf = (item: TitledItem) => item.metadata?.releaseDate ?? (item.year ? `${item.year}-01-01` : '');

type Compare = (a: TitledItem, b: TitledItem) => number;
const by =
  <T extends string | number>(key: (item: TitledItem) => T): Compare =>
  (a, b) => {
    const x = key(a);
    const y = key(b);
    return x < y ? -1 : x > y ? 1 : 0;
  };

/** Filters, sorts and pages `items`; the total is before paging. */
export const queryTitles = (items: readonly TitledItem[], query: DoorQuery, index: DoorIndex, states: TitleStates) => {
  const { played, favorite, resumable } = filtersOf(query);
  const genres = new Set(query.list('genres', /\|/u).map((g) => g.toLowerCase()));
  const years = new Set(query.list('years').map(Number));
  const starts = query.str('nameStartsWith')?.toLowerCase();
  const startsOrAfter = query.str('nameStartsWithOrGreater')?.toLowerCase();
  const lessThan = query.str('nameLessThan')?.toLowerCase();
  const sortName = (item: TitledItem) => index.sortName.get(item.id) ?? item.title.toLowerCase();
  const kept = items.filter(
    (item) =>
      (played === undefined || states.played(item.id) === played) &&
      (favorite === undefined || states.favorite(item.id) === favorite) &&
      (resumable === undefined || states.resumable(item.id)) &&
      (!genres.size || item.genres.some((g) => genres.has(g.toLowerCase()))) &&
      (!years.size || (item.year !== null && years.has(item.year))) &&
      (starts === undefined || sortName(item).startsWith(starts) || item.title.toLowerCase().startsWith(starts)) &&
      (startsOrAfter === undefined || sortName(item) >= startsOrAfter) &&
      (lessThan === undefined || sortName(item) < lessThan),
  );
  const keys = query.list('sortBy').map((k) => k.toLowerCase());
  const orders = query.list('sortOrder').map((o) => o.toLowerCase() === 'descending');
  const compares: { compare: Compare; descending: boolean }[] = [];
  keys.forEach((key, i) => {
    const descending = orders[i] ?? orders[0] ?? false;
    const compare: Compare | undefined = {
      sortname: by(sortName),
      name: by(sortName),
      productionyear: by((item) => item.year ?? 0),
      premieredate: by(releaseOf),
      datecreated: by((item) => item.addedAt),
      communityrating: by((item) => item.rating ?? 0),
      criticrating: by((item) => item.rating ?? 0),
      dateplayed: by((item) => states.lastPlayedAt(item.id) ?? ''),
      datelastcontentadded: by((item) => item.updatedAt),
      runtime: by((item) => item.metadata?.runtimeMinutes ?? 0),
    }[key];
    if (compare) compares.push({ compare, descending });
  });
  if (keys.includes('random')) shuffle(kept);
  else {
    compares.push({ compare: by(sortName), descending: false });
    kept.sort((a, b) => {
      for (const { compare, descending } of compares) {
        const c = compare(a, b);
        if (c !== 0) return descending ? -c : c;
      }
      return 0;
    });
  }
  return page(kept, query);
};

const shuffle = <T>(list: T[]) => {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
};

/** `startIndex` and `limit` over a whole list. */
export const page = <T>(all: readonly T[], query: DoorQuery): { items: T[]; total: number; start: number } => {
  const start = query.int('startIndex') ?? 0;
  const limit = query.int('limit', 0);
  return { items: all.slice(start, limit === undefined ? undefined : start + limit), total: all.length, start };
};
