// The recent movies and shows lists, newest first, with the libraries' totals.
import type { Static } from '@sinclair/typebox';
import type { MediaEntry } from '../api/schemas';
import type { CatalogDeps } from '../catalog/service';
import { versionCached } from '../catalog/version-cache';
import type { MediaKind } from '../library/model';
import type { LibraryStore } from '../library/store';
import { toEntry } from './entry';

// A list's total may lag a finished scan by a second; its items never do.
const librariesNow = versionCached((libraries: LibraryStore) => libraries.list(), { recheckAfterMs: 1_000 });

export const listRecent = async (deps: CatalogDeps, type: MediaKind, limit: number, cursor: string | undefined, origin: string, matched?: boolean) => {
  if (matched !== undefined) {
    // Those the provider did (or did not) describe: counted as they are now, not as of a scan.
    const [page, total] = await Promise.all([deps.catalog.recent(type, limit, cursor, matched), deps.catalog.countMatched(type, matched)]);
    return { data: page.items.map((item) => toEntry(item, origin)), meta: { total: Math.max(total, page.items.length), nextCursor: page.nextCursor } };
  }
  // A finished scan or a deleted library moves the version stamp, so the libraries' counts
  // are read again only then (checked at most once a second).
  const [page, libraries] = await Promise.all([deps.catalog.recent(type, limit, cursor), librariesNow(deps.catalog, deps.libraries)]);
  // Totals are the libraries' counts, which a running scan keeps current as it writes.
  const total = libraries.reduce((n, l) => n + (type === 'movie' ? l.counts.movies : l.counts.tvShows), 0);
  const data: Static<typeof MediaEntry>[] = page.items.map((item) => toEntry(item, origin));
  return { data, meta: { total: Math.max(total, data.length), nextCursor: page.nextCursor } };
};
