// Every film (or show) of the catalogue, ready to be sorted and filtered: kept per process beside
// the items lib/catalog/snapshot.ts holds, holding positions into them and a few precomputed
// values, never copies. A page is a walk along a ready order from its cursor's place, found by a
// binary search; a filter narrows the walk to the titles of its smallest list (a genre's, a letter's
// run of the title order, a year range's of the year order, a collection's, the profile's played
// titles or favourites). Pure: built by build.ts, queried here, no I/O.
import type { TitledItem } from '../catalog/model';
import { normalize } from '../text/normalize';
import { LETTERS } from '../text/sort-title';
import { firstWhere } from '../util/first-where';
import { ascending } from '../util/order';
import { compareToPoint, keyOf, timeOf } from './keys';
import { MATCHED, NO_YEAR, type IndexParts } from './parts';
import type { FacetCounts, Filters, PageRequest, SortKey, SortPoint, Watched, WatchedById } from './model';

/**
 * A stretch of an order, walked forwards for ascending, backwards for descending: its parts,
 * concatenated, ascend. Those with a value come first in either order, then those without.
 */
interface Group {
  parts: readonly Uint32Array[];
  missing: boolean;
  key: (i: number) => number | string | null;
  skip?: (i: number) => boolean;
}

/** The titles a filter keeps: a mask over positions (none: all of them), and a list holding them all. */
interface Match {
  total: number;
  mask: Uint8Array | null;
  from: ArrayLike<number> | null;
}

const NOTHING: Match = { total: 0, mask: new Uint8Array(0), from: [] };

export class BrowseIndex {
  readonly items: readonly TitledItem[];
  private readonly p: IndexParts;
  /** Where each letter's titles start in the title order (the title order files by letter first). */
  private readonly letterStart: Uint32Array;
  /** Where the titles with a year start in the tie order. */
  private readonly firstDated: number;
  /** The years the titles span (0 and -1 when none has one). */
  private readonly yearFrom: number;
  private readonly yearTo: number;
  private unfiltered: FacetCounts | undefined;

  constructor(parts: IndexParts) {
    this.p = parts;
    this.items = parts.items;
    const counts = new Uint32Array(LETTERS.length);
    for (const l of parts.letter) counts[l]!++;
    this.letterStart = new Uint32Array(LETTERS.length + 1);
    counts.forEach((c, l) => (this.letterStart[l + 1] = this.letterStart[l]! + c));
    this.firstDated = firstWhere(parts.tie, (i) => parts.year[i] !== NO_YEAR);
    const dated = parts.tie.subarray(this.firstDated);
    this.yearFrom = dated.length ? parts.year[dated[0]!]! : 0;
    this.yearTo = dated.length ? parts.year[dated.at(-1)!]! : -1;
  }

  get size(): number {
    return this.items.length;
  }

  /** A page in the order asked for, after the cursor's place; `next` is the place of its last title when more follow. */
  page(request: PageRequest, filters: Filters, watched?: WatchedById): { items: TitledItem[]; total: number; next: SortPoint | null } {
    const match = this.match(filters, watched);
    if (match.total === 0) return { items: [], total: 0, next: null };
    const groups = this.groups(request.sort, filters, watched);
    const { mask } = match;
    const found: number[] = [];
    this.walk(groups, request.order === 'desc', request.after, (i) => {
      if (mask && !mask[i]) return true;
      found.push(i);
      return found.length <= request.limit;
    });
    const more = found.length > request.limit;
    if (more) found.length = request.limit;
    const last = found.at(-1);
    return {
      items: found.map((i) => this.items[i]!),
      total: match.total,
      next: more && last !== undefined ? this.pointOf(last, groups) : null,
    };
  }

  /** What the titles a filter keeps have, with how many have it. */
  facets(filters: Filters, watched?: WatchedById): FacetCounts {
    const match = this.match(filters, watched);
    // The whole catalogue's (a Films screen opening) is counted once per index.
    if (!match.mask) return (this.unfiltered ??= this.count(match));
    return this.count(match);
  }

  private count(match: Match): FacetCounts {
    const { year, letter, genreStart, genreList } = this.p;
    const genres = new Uint32Array(this.p.genreNames.length);
    const years = new Uint32Array(this.yearTo - this.yearFrom + 1);
    const letters = new Uint32Array(LETTERS.length);
    const count = (i: number) => {
      if (match.mask && !match.mask[i]) return;
      for (let g = genreStart[i]!; g < genreStart[i + 1]!; g++) genres[genreList[g]!]!++;
      if (year[i] !== NO_YEAR) years[year[i]! - this.yearFrom]!++;
      letters[letter[i]!]!++;
    };
    if (match.from) for (let k = 0; k < match.from.length; k++) count(match.from[k]!);
    else for (let i = 0; i < this.items.length; i++) count(i);
    return {
      total: match.total,
      genres: [...genres]
        .flatMap((c, g) => (c > 0 ? [{ name: this.p.genreNames[g]!, count: c }] : []))
        .sort((a, b) => b.count - a.count || ascending(a.name, b.name)),
      years: [...years].flatMap((c, y) => (c > 0 ? [{ year: this.yearFrom + y, count: c }] : [])).reverse(),
      letters: [...letters].flatMap((c, l) => (c > 0 ? [{ letter: LETTERS[l]!, count: c }] : [])),
    };
  }

  // --- Filters -------------------------------------------------------------------------------

  /** The titles every filter keeps, checked over the smallest list one of them gives (else all). */
  private match(f: Filters, watched: WatchedById | undefined): Match {
    const { year, letter, flags, library, genreByKey, genrePostings } = this.p;
    const lists: Array<ArrayLike<number>> = [];
    const tests: Array<(i: number) => boolean> = [];
    if (f.genres?.length) {
      const wanted = [...new Set(f.genres.map((g) => genreByKey.get(normalize(g))))];
      if (wanted.includes(undefined)) return NOTHING;
      for (const g of wanted) {
        lists.push(genrePostings[g!]!);
        tests.push((i) => this.hasGenre(i, g!));
      }
    }
    if (f.yearFrom !== undefined || f.yearTo !== undefined) {
      const from = f.yearFrom ?? -Infinity;
      const to = f.yearTo ?? Infinity;
      lists.push(this.yearRun(from, to));
      tests.push((i) => year[i] !== NO_YEAR && year[i]! >= from && year[i]! <= to);
    }
    if (f.letter !== undefined) {
      const l = LETTERS.indexOf(f.letter);
      lists.push(this.p.sorted.title.order.subarray(this.letterStart[l], this.letterStart[l + 1]));
      tests.push((i) => letter[i] === l);
    }
    if (f.collectionId !== undefined) {
      const id = f.collectionId;
      const parts = this.p.collections.get(id);
      if (!parts) return NOTHING;
      lists.push(parts);
      tests.push((i) => this.items[i]!.metadata?.collection?.id === id);
    }
    if (f.libraryId !== undefined) {
      const lib = this.p.libraryIds.indexOf(f.libraryId);
      if (lib < 0) return NOTHING;
      tests.push((i) => library[i] === lib);
    }
    if (f.matched !== undefined) {
      const want = f.matched ? MATCHED : 0;
      tests.push((i) => (flags[i]! & MATCHED) === want);
    }
    // The profile's marks (played, favourite): the titles with one are a list; `false` keeps every other.
    for (const [want, has] of [[f.played, (w: Watched) => w.played] as const, [f.favorite, (w: Watched) => w.favorite] as const]) {
      if (want === undefined) continue;
      const marked = new Uint8Array(this.items.length);
      const found = this.positionsOf(watched, has);
      for (const i of found) marked[i] = 1;
      if (want) lists.push(found);
      tests.push((i) => marked[i] === (want ? 1 : 0));
    }
    if (tests.length === 0) return { total: this.items.length, mask: null, from: null };
    const from = lists.length ? lists.reduce((a, b) => (b.length < a.length ? b : a)) : null;
    const mask = new Uint8Array(this.items.length);
    let total = 0;
    const check = (i: number) => {
      for (const test of tests) if (!test(i)) return;
      mask[i] = 1;
      total++;
    };
    if (from) for (let k = 0; k < from.length; k++) check(from[k]!);
    else for (let i = 0; i < this.items.length; i++) check(i);
    return { total, mask, from };
  }

  private hasGenre(i: number, genre: number): boolean {
    const { genreStart, genreList } = this.p;
    for (let g = genreStart[i]!; g < genreStart[i + 1]!; g++) if (genreList[g] === genre) return true;
    return false;
  }

  /** The titles from year `from` to year `to`: a run of the tie order. */
  private yearRun(from: number, to: number): Uint32Array {
    const { tie, year } = this.p;
    const withYear = tie.subarray(this.firstDated);
    return withYear.subarray(
      firstWhere(withYear, (i) => year[i]! >= from),
      firstWhere(withYear, (i) => year[i]! > to),
    );
  }

  /** The positions of a profile's titles of this kind that `pick` keeps (binary searches by id). */
  private positionsOf(watched: WatchedById | undefined, pick: (w: Watched) => boolean): number[] {
    const found: number[] = [];
    for (const [id, w] of watched ?? []) {
      if (!pick(w)) continue;
      const i = this.positionOfId(id);
      if (i >= 0) found.push(i);
    }
    return found;
  }

  private positionOfId(id: string): number {
    const { byId } = this.p;
    const at = firstWhere(byId, (i) => this.items[i]!.id >= id);
    const i = byId[at];
    return i !== undefined && this.items[i]!.id === id ? i : -1;
  }

  // --- Orders --------------------------------------------------------------------------------

  private groups(sort: SortKey, filters: Filters, watched: WatchedById | undefined): Group[] {
    const { sorted, tie } = this.p;
    if (sort === 'lastPlayed') return this.lastPlayedGroups(watched);
    if (sort === 'year') {
      // The tie order is the year order with the titles without a year first.
      const key = (i: number) => this.items[i]!.year;
      return [
        { parts: [tie.subarray(this.firstDated)], missing: false, key },
        { parts: [tie.subarray(0, this.firstDated)], missing: true, key },
      ];
    }
    const { order, present } = sorted[sort];
    const key = (i: number) => keyOf(sort, this.items[i]!);
    if (sort === 'title' && filters.letter !== undefined) {
      // A letter's titles are a run of the title order: nothing outside it is walked.
      const l = LETTERS.indexOf(filters.letter);
      return [{ parts: [order.subarray(this.letterStart[l], this.letterStart[l + 1])], missing: false, key }];
    }
    return [
      { parts: [order.subarray(0, present)], missing: false, key },
      { parts: [order.subarray(present)], missing: true, key },
    ];
  }

  /** The profile's titles by when it last played them, ordered now; then the others in tie order. */
  private lastPlayedGroups(watched: WatchedById | undefined): Group[] {
    const at = new Map<number, number>();
    for (const [id, w] of watched ?? []) {
      const time = timeOf(w.lastPlayedAt);
      const i = time === null ? -1 : this.positionOfId(id);
      if (i >= 0) at.set(i, time!);
    }
    const { year } = this.p;
    const played = Uint32Array.from(
      [...at.keys()].sort(
        (a, b) => at.get(a)! - at.get(b)! || ascending(year[a]!, year[b]!) || ascending(this.items[a]!.id, this.items[b]!.id),
      ),
    );
    const key = (i: number) => at.get(i) ?? null;
    return [
      { parts: [played], missing: false, key },
      { parts: [this.p.tie], missing: true, key, skip: (i) => at.has(i) },
    ];
  }

  private pointOf(i: number, groups: readonly Group[]): SortPoint {
    const item = this.items[i]!;
    return { key: groups[0]!.key(i), year: item.year, id: item.id };
  }

  /**
   * Calls `visit` with each position in order after the place `after` names (from the start
   * without one), until it answers false. The place is found by a binary search in the group it
   * belongs to (with a value or without), so a title added or gone since changes nothing else.
   */
  private walk(groups: readonly Group[], descending: boolean, after: SortPoint | undefined, visit: (i: number) => boolean): void {
    const afterMissing = after?.key === null;
    for (const group of groups) {
      // The group before the place's is done with; the one after it is walked whole.
      if (after && afterMissing && !group.missing) continue;
      let seek = after && afterMissing === group.missing ? after : undefined;
      const parts = descending ? [...group.parts].reverse() : group.parts;
      for (const part of parts) {
        let p = descending ? part.length - 1 : 0;
        if (seek) {
          const point = seek;
          const compare = (i: number) => compareToPoint(group.missing ? null : group.key(i), this.items[i]!.year, this.items[i]!.id, point);
          p = descending ? firstWhere(part, (i) => compare(i) >= 0) - 1 : firstWhere(part, (i) => compare(i) > 0);
          if (p < 0 || p >= part.length) continue; // the whole part lies on the place's other side
          seek = undefined;
        }
        for (const step = descending ? -1 : 1; p >= 0 && p < part.length; p += step) {
          const i = part[p]!;
          if (group.skip?.(i)) continue;
          if (!visit(i)) return;
        }
      }
    }
  }
}
