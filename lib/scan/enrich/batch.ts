// The metadata phase's work for one batch of items: each described from its NFO and the
// provider (titles.ts, episodes.ts), and the film collections they point at kept
// (collections.ts). A provider that fails for an item leaves that item waiting for the next
// scan, counted as failed; a refused key stops all provider calls for the rest of the scan.
import type { MatchLock } from '../../catalog/match-lock';
import type { CatalogItem, ShowItem } from '../../catalog/model';
import { eachLimited } from '../../util/pool';
import type { SidecarChange } from '../plan';
import { keepCollections, type CollectionsSeen } from './collections';
import { describeEpisode, type SeasonCache } from './episodes';
import { enrichSession, type EnrichDeps, type EnrichTally } from './session';
import { describeTitle } from './titles';

export type { EnrichDeps, EnrichTally } from './session';

/** Items in flight: enough to keep the provider's 40 requests/s busy at a home connection's latency. */
const CONCURRENCY = 12;

/**
 * The items, described (not written: the caller writes them, so it can overlap the next batch's
 * provider calls with this one's writes). `shows` holds shows described in earlier batches of
 * the same scan, which their episodes need and the table may not have yet.
 */
export const enrichBatch = async (
  deps: EnrichDeps,
  root: string,
  ids: string[],
  tally: EnrichTally,
  known: {
    shows?: ReadonlyMap<string, CatalogItem>;
    /** Items whose local files changed since they were written: their new ones. */
    sidecarChanges?: ReadonlyMap<string, SidecarChange>;
    /** The film collections seen to earlier in the same scan. */
    collections?: CollectionsSeen;
    /** The items of `ids`, when the caller has just read them. */
    items?: CatalogItem[];
  } = {},
): Promise<CatalogItem[]> => {
  const session = enrichSession(deps, root, tally);
  const shows = known.shows ?? new Map<string, CatalogItem>();
  const items = (known.items ?? (await deps.catalog.getMany(ids))).map((item) => {
    const changed = known.sidecarChanges?.get(item.id);
    if (!changed) return item;
    // Pictures from local files are read again (one may have been edited in place).
    const artwork = Object.fromEntries(Object.entries(item.artwork ?? {}).filter(([, a]) => a.source !== 'local'));
    return { ...item, local: changed.local, localStamp: changed.localStamp, artwork };
  });
  const byId = new Map(items.map((i) => [i.id, i]));
  const titles = items.filter((i) => i.entity !== 'episode');
  const locks = titles.length ? await deps.locks.getMany(titles.map((i) => i.id)) : new Map<string, MatchLock>();
  const described = new Map<string, CatalogItem>();
  const seasons: SeasonCache = new Map();
  const showOf = async (id: string) =>
    (described.get(id) ?? shows.get(id) ?? byId.get(id) ?? (await deps.catalog.get(id))) as ShowItem | undefined;

  const describeOne = async (item: CatalogItem) => {
    try {
      described.set(
        item.id,
        item.entity === 'episode'
          ? await describeEpisode(session, item, await showOf(item.showId), seasons)
          : await describeTitle(session, item, locks.get(item.id)),
      );
    } catch (err) {
      // The provider failed for this item after its retries (or answered nonsense): it keeps what
      // it has and waits for the next scan that can ask.
      tally.failed++;
      deps.log.warn({ err, itemId: item.id }, 'metadata for an item failed; it will be asked again on the next scan');
      described.set(item.id, { ...item, enrich: 'local' });
    }
  };
  // Shows before their episodes: an episode needs its show's provider id.
  await eachLimited(titles, CONCURRENCY, describeOne);
  await eachLimited(
    items.filter((i) => i.entity === 'episode'),
    CONCURRENCY,
    describeOne,
  );
  // Before the films are written: a scan cut short after that would describe them, and so ask
  // for their collections, no more.
  if (deps.collections)
    await keepCollections({ ...deps, collections: deps.collections }, session, root, [...described.values()], known.collections);
  return [...described.values()];
};
