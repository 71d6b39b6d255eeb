// What a browse index is made of: per title a few values in typed arrays, and the orders and
// lists build.ts fills and index.ts walks, all positions into the catalogue's items.
import type { TitledItem } from '../catalog/model';
import type { StoredSort } from './model';

/** Int16 years: none is the lowest, as ties are broken (lib/browse/keys.ts `tieYear`). */
export const NO_YEAR = -0x8000;
/** Flag bits per item. */
export const MATCHED = 1;

/** The sorts with an order of their own (the year sort walks the tie order). */
export type OwnOrder = Exclude<StoredSort, 'year'>;

/** A stored sort: positions with a value by (value, year, id), then those without by (year, id). */
export interface Sorted {
  order: Uint32Array;
  present: number;
}

export interface IndexParts {
  items: readonly TitledItem[];
  year: Int16Array;
  /** Index in LETTERS. */
  letter: Uint8Array;
  flags: Uint8Array;
  library: Uint16Array;
  libraryIds: readonly string[];
  genreNames: readonly string[];
  /** By normalised name. */
  genreByKey: ReadonlyMap<string, number>;
  genrePostings: readonly Uint32Array[];
  /** Each item's genres: genreList[genreStart[i] .. genreStart[i + 1]). */
  genreStart: Uint32Array;
  genreList: Uint16Array | Uint32Array;
  collections: ReadonlyMap<number, Uint32Array>;
  /** Every position by (year, id), no year first. */
  tie: Uint32Array;
  sorted: Readonly<Record<OwnOrder, Sorted>>;
  /** Positions by id, to find a profile's titles. */
  byId: Uint32Array;
}
