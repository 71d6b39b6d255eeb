// Building a browse index over the catalogue's films or shows (lib/catalog/snapshot.ts): per
// item a few precomputed values in typed arrays, the genres and collections as postings, and each
// sort as item positions in order. In steps of a few milliseconds with a turn of the event loop
// between them, as the search index is built, so a process serving requests goes on serving
// them while 100,000 titles are indexed.
import type { TitledItem } from '../catalog/model';
import type { MediaKind } from '../library/model';
import { normalize } from '../text/normalize';
import { LETTERS } from '../text/sort-title';
import { ascending } from '../util/order';
import { Pacer } from '../util/pace';
import { sortPaced } from '../util/sort-paced';
import { BrowseIndex } from './index';
import { MATCHED, NO_YEAR, type IndexParts, type OwnOrder, type Sorted } from './parts';
import { keyOf, letterOfKey, titleKey } from './keys';
import { STORED_SORTS } from './model';

/** Items between pauses: a few milliseconds of work (a title's sort title is most of it). */
const STEP = 2_000;

/** The genres of the items, as postings and per item; a genre is one whatever its case or accents. */
class GenreTable {
  readonly names: string[] = [];
  readonly byKey = new Map<string, number>();
  readonly postings: number[][] = [];
  readonly start: number[] = [0];
  readonly list: number[] = [];
  // Genre names repeat from title to title: each spelling is normalised once.
  private readonly bySpelling = new Map<string, number>();

  add(position: number, genres: readonly string[]) {
    for (const name of genres) {
      let genre = this.bySpelling.get(name);
      if (genre === undefined) {
        const key = normalize(name);
        if (key === '') continue;
        genre = this.byKey.get(key);
        if (genre === undefined) {
          genre = this.names.length;
          this.byKey.set(key, genre);
          this.names.push(name); // the first spelling met is the one shown
          this.postings.push([]);
        }
        this.bySpelling.set(name, genre);
      }
      const posting = this.postings[genre]!;
      if (posting.at(-1) === position) continue; // "Drama" and "drama" on one title
      posting.push(position);
      this.list.push(genre);
    }
    this.start.push(this.list.length);
  }
}

/** What the sorts of a build compare. */
interface Sorting {
  year: Int16Array;
  /** Read out of the items once: items read from the table differ in shape, and a property read per comparison is slow. */
  ids: readonly string[];
  pacer: Pacer;
}

/** Ties: year (none the lowest: NO_YEAR), then id. */
const tieBreak =
  ({ year, ids }: Sorting) =>
  (a: number, b: number) =>
    year[a]! - year[b]! || ascending(ids[a]!, ids[b]!);

/** Positions in the order of (year, id): no year first. How ties are broken, and the year sort itself. */
const tieOrder = (s: Sorting) =>
  sortPaced(
    Array.from(s.ids, (_, i) => i),
    tieBreak(s),
    s.pacer,
  );

/** One stored sort: those with a value by (value, year, id), then those without in tie order. */
const sortBy = async (
  sort: OwnOrder,
  items: readonly TitledItem[],
  titleKeys: readonly string[],
  tie: readonly number[],
  s: Sorting,
): Promise<Sorted> => {
  const ties = tieBreak(s);
  let has = (_: number) => true;
  let order = (a: number, b: number) => ascending(titleKeys[a]!, titleKeys[b]!) || ties(a, b);
  if (sort !== 'title') {
    // Every sort but the title's is of numbers: NaN where a title has none.
    const values = new Float64Array(items.length);
    for (let i = 0; i < items.length; i++) {
      values[i] = (keyOf(sort, items[i]!) as number | null) ?? NaN;
      if (s.pacer.spent()) await s.pacer.nextTurn();
    }
    has = (i) => !Number.isNaN(values[i]);
    order = (a, b) => values[a]! - values[b]! || ties(a, b);
  }
  const present: number[] = [];
  const missing: number[] = [];
  for (const i of tie) (has(i) ? present : missing).push(i);
  const sorted = await sortPaced(present, order, s.pacer);
  return { order: Uint32Array.from([...sorted, ...missing]), present: sorted.length };
};

/** The index of one kind of title, built in steps. */
export const buildBrowseIndex = async (all: readonly TitledItem[], type: MediaKind, pacer = new Pacer(STEP)): Promise<BrowseIndex> => {
  const items = all.filter((item) => item.entity === type);
  const n = items.length;
  const year = new Int16Array(n);
  const letter = new Uint8Array(n);
  const flags = new Uint8Array(n);
  const library = new Uint16Array(n);
  const libraryIds: string[] = [];
  const genres = new GenreTable();
  const collections = new Map<number, number[]>();
  const titleKeys: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const item = items[i]!;
    year[i] = item.year ?? NO_YEAR;
    titleKeys[i] = titleKey(item.title);
    letter[i] = LETTERS.indexOf(letterOfKey(titleKeys[i]!));
    flags[i] = item.metadata?.matched ? MATCHED : 0;
    let lib = libraryIds.indexOf(item.libraryId);
    if (lib < 0) lib = libraryIds.push(item.libraryId) - 1;
    library[i] = lib;
    genres.add(i, item.genres);
    const collection = item.metadata?.collection?.id;
    if (collection !== undefined) {
      const parts = collections.get(collection);
      if (parts) parts.push(i);
      else collections.set(collection, [i]);
    }
    if (pacer.spent()) await pacer.nextTurn();
  }
  const sorting: Sorting = { year, ids: items.map((item) => item.id), pacer };
  const tie = await tieOrder(sorting);
  // The year sort needs no order of its own: it is the tie order (BrowseIndex.groups).
  const sorted = {} as Record<OwnOrder, Sorted>;
  for (const sort of STORED_SORTS) if (sort !== 'year') sorted[sort] = await sortBy(sort, items, titleKeys, tie, sorting);
  const byId = await sortPaced(
    Array.from(items, (_, i) => i),
    (a, b) => ascending(sorting.ids[a]!, sorting.ids[b]!),
    pacer,
  );
  const parts: IndexParts = {
    items,
    year,
    letter,
    flags,
    library,
    libraryIds,
    genreNames: genres.names,
    genreByKey: genres.byKey,
    genrePostings: genres.postings.map((p) => Uint32Array.from(p)),
    genreStart: Uint32Array.from(genres.start),
    genreList: genres.names.length <= 0xffff ? Uint16Array.from(genres.list) : Uint32Array.from(genres.list),
    collections: new Map([...collections].map(([id, list]) => [id, Uint32Array.from(list)])),
    tie: Uint32Array.from(tie),
    sorted,
    byId: Uint32Array.from(byId),
  };
  return new BrowseIndex(parts);
};
