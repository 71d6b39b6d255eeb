// The recent movies and shows lists, newest first, with their totals. At home from the catalogue
// the process holds (lib/catalog/snapshot.ts): a page asks the database nothing, and its total
// is the list's own length. In a Lambda one Query a page (a cold function need not read the
// whole catalogue), the total the libraries' counts, which a running scan keeps current.
import type { Static } from '@sinclair/typebox';
import type { MediaEntry } from '../api/schemas';
import type { CatalogDeps } from '../catalog/service';
import { derived, snapshotOf } from '../catalog/snapshot';
import { recentPageOf } from '../catalog/recent-page';
import type { MediaKind } from '../library/model';
import type { TitledItem } from '../catalog/model';
import { toEntry } from './entry';

/** Each kind's titles, newest first. */
const newestFirst = derived(async ({ items }) => ({
  movie: items.filter((i) => i.entity === 'movie').reverse(),
  tvshow: items.filter((i) => i.entity === 'tvshow').reverse(),
}));

const pageOf = async (deps: CatalogDeps, type: MediaKind, limit: number, cursor: string | undefined) => {
  const snapshot = snapshotOf(deps.catalog);
  if (snapshot.holdsEverything) {
    const titles = (await snapshot.derive(newestFirst, undefined))[type];
    return { page: recentPageOf(titles, type, limit, cursor), total: titles.length };
  }
  const [page, libraries, withdrawn] = await Promise.all([
    deps.catalog.recent(type, limit, cursor),
    deps.libraries.list(),
    snapshot.withdrawn(),
  ]);
  return {
    page: visible(page, withdrawn),
    total: libraries.reduce((n, l) => n + (type === 'movie' ? l.counts.movies : l.counts.tvShows), 0),
  };
};

/** A page read from the table without the items of libraries being removed (the page may come out short). */
const visible = <P extends { items: TitledItem[] }>(page: P, withdrawn: ReadonlySet<string>): P =>
  withdrawn.size ? { ...page, items: page.items.filter((i) => !withdrawn.has(i.libraryId)) } : page;

export const listRecent = async (
  deps: CatalogDeps,
  type: MediaKind,
  limit: number,
  cursor: string | undefined,
  origin: string,
  matched?: boolean,
) => {
  if (matched !== undefined) {
    // Those the provider did (or did not) describe: counted as they are now, not as of a scan.
    const [read, total, withdrawn] = await Promise.all([
      deps.catalog.recent(type, limit, cursor, matched),
      deps.catalog.countMatched(type, matched),
      snapshotOf(deps.catalog).withdrawn(),
    ]);
    const page = visible(read, withdrawn);
    return {
      data: page.items.map((item) => toEntry(item, origin)),
      meta: { total: Math.max(total, page.items.length), nextCursor: page.nextCursor },
    };
  }
  const { page, total } = await pageOf(deps, type, limit, cursor);
  const data: Static<typeof MediaEntry>[] = page.items.map((item) => toEntry(item, origin));
  return { data, meta: { total: Math.max(total, data.length), nextCursor: page.nextCursor } };
};
