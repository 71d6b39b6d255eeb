// Provider ids as NFO files and links spell them, checked once here so every reader agrees on
// what counts as an id: a TMDB or TVDB id is a positive integer, an IMDb id is "tt" and digits.

/** Ids of one title at the providers we know; a provider is absent when nothing named it. */
export interface ProviderIds {
  tmdb?: number;
  /** Lowercase, "tt0133093". */
  imdb?: string;
  tvdb?: number;
}

// IMDb ids have seven digits, and eight for titles added since 2017; a little room beyond that.
const IMDB_ID = /^tt\d{7,10}$/;
const DIGITS = /^\d{1,12}$/;

/** A positive integer id ("603", " 603 "), else undefined. */
export function asNumericId(raw: string | null | undefined): number | undefined {
  const text = raw?.trim();
  if (text === undefined || !DIGITS.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** "tt0133093" (any case, trimmed), else undefined. */
export function asImdbId(raw: string | null | undefined): string | undefined {
  const text = raw?.trim().toLowerCase();
  return text !== undefined && IMDB_ID.test(text) ? text : undefined;
}

/** `first`'s ids, with `second`'s filling only the providers `first` does not name. */
export function mergeIds(first: ProviderIds, second: ProviderIds): ProviderIds {
  return compactIds({
    tmdb: first.tmdb ?? second.tmdb,
    imdb: first.imdb ?? second.imdb,
    tvdb: first.tvdb ?? second.tvdb,
  });
}

/** The same ids without absent keys, so results compare and serialise cleanly. */
export function compactIds(ids: ProviderIds): ProviderIds {
  const out: ProviderIds = {};
  if (ids.tmdb !== undefined) out.tmdb = ids.tmdb;
  if (ids.imdb !== undefined) out.imdb = ids.imdb;
  if (ids.tvdb !== undefined) out.tvdb = ids.tvdb;
  return out;
}

export function hasAnyId(ids: ProviderIds): boolean {
  return ids.tmdb !== undefined || ids.imdb !== undefined || ids.tvdb !== undefined;
}
