// The film collections of the films just described, kept in the table (lib/catalog/collections.ts):
// a collection's parts are asked of the provider once per collection, not once per film, and
// only when it is not stored yet or its copy is older than COLLECTION_TTL_SECONDS. Its poster and
// backdrop go into the artwork cache as an item's do, fetched again only when the provider's
// path changes. A collection the provider fails for is logged and asked for again when a scan
// next describes one of its films (or one is refreshed); its films point at it meanwhile, and
// its page lists them alone.
import type { ArtworkSet } from '../../artwork/model';
import type { ArtworkStore } from '../../artwork/store';
import { collectionArtworkId, type CollectionStore, type StoredCollection } from '../../catalog/collections';
import type { CatalogItem } from '../../catalog/model';
import { isDiskFull } from '../../errors';
import { COLLECTION_TTL_SECONDS, type CollectionDetails } from '../../metadata/provider';
import { eachLimited } from '../../util/pool';
import { fetchPicture, type Collecting } from '../phases/artwork';
import type { EnrichDeps, EnrichSession } from './session';

/** Collections asked for at once: each is one request, and the items' own calls share the pace. */
const CONCURRENCY = 4;
const PICTURES = ['poster', 'backdrop'] as const;

export interface CollectionKeeping {
  store: CollectionStore;
  /** Where their pictures go; absent: none are fetched (artwork off, or no cache). */
  artworks?: ArtworkStore | undefined;
  /** Ask the provider again even for a current copy (a title refreshed by hand). */
  refetch?: boolean;
  clock?: () => number;
}

/** The collections a scan has seen to, so two batches, or two films of one batch, never ask twice. */
export type CollectionsSeen = Map<number, Promise<void>>;

type Keeping = EnrichDeps & { collections: CollectionKeeping };

const collectionsOf = (films: readonly CatalogItem[]) => [
  ...new Set(films.flatMap((f) => (f.entity === 'movie' && f.metadata?.collection ? [f.metadata.collection.id] : []))),
];

const pathOf = (details: Pick<StoredCollection, 'posterPath' | 'backdropPath'>, kind: 'poster' | 'backdrop') =>
  kind === 'poster' ? details.posterPath : details.backdropPath;

/** The pictures as the provider has them now: kept when the path is the same, fetched when it changed. */
const picturesOf = async (
  c: Collecting | undefined,
  id: number,
  paths: Pick<StoredCollection, 'posterPath' | 'backdropPath'>,
  had: ArtworkSet,
) => {
  const artwork: ArtworkSet = {};
  for (const kind of PICTURES) {
    const from = pathOf(paths, kind);
    const have = had[kind];
    if (from === null) continue;
    if (have?.from === from) {
      artwork[kind] = have;
      continue;
    }
    if (!c) continue;
    try {
      const stored = await fetchPicture(c, collectionArtworkId(id), kind, { source: 'provider', from });
      if (stored) artwork[kind] = stored;
    } catch (err) {
      if (isDiskFull(err)) throw err;
      c.log.warn({ err, collectionId: id, kind, from }, 'collection artwork not usable; skipped');
    }
  }
  return artwork;
};

const isCurrent = (stored: StoredCollection, now: number) => now - Date.parse(stored.fetchedAt) < COLLECTION_TTL_SECONDS * 1000;

const wantsPictures = (stored: StoredCollection) =>
  PICTURES.some((kind) => pathOf(stored, kind) !== null && stored.artwork[kind]?.from !== pathOf(stored, kind));

const keepOne = async (
  deps: Keeping,
  session: EnrichSession,
  c: Collecting | undefined,
  id: number,
  stored: StoredCollection | undefined,
) => {
  const keeping = deps.collections;
  const now = (keeping.clock ?? Date.now)();
  if (stored && !keeping.refetch && isCurrent(stored, now)) {
    // Current, but its pictures were not fetched (artwork was off then): those alone, no provider call.
    if (c && wantsPictures(stored)) await keeping.store.put({ ...stored, artwork: await picturesOf(c, id, stored, stored.artwork) });
    return;
  }
  let details: CollectionDetails | null | undefined;
  try {
    details = await session.ask((p) => p.collectionDetails(id));
  } catch (err) {
    deps.log.warn({ err, collectionId: id }, 'a film collection could not be fetched; asked again when one of its films is described');
    return;
  }
  // No provider (or it refused the key): nothing to store. Unknown to it (a wrong id in an NFO): logged, nothing stored.
  if (details === undefined) return;
  if (details === null) return void deps.log.info({ collectionId: id }, 'the provider knows no film collection of this id');
  const { name, overview, parts, posterPath, backdropPath } = details;
  const artwork = await picturesOf(c, id, { posterPath, backdropPath }, stored?.artwork ?? {});
  await keeping.store.put({ id, name, overview, parts, posterPath, backdropPath, artwork, fetchedAt: new Date(now).toISOString() });
};

/** Sees to the collections these films point at; resolves once each is stored (or left for later). */
export const keepCollections = async (
  deps: Keeping,
  session: EnrichSession,
  root: string,
  films: readonly CatalogItem[],
  seen: CollectionsSeen = new Map(),
): Promise<void> => {
  const ids = collectionsOf(films);
  if (!ids.length || !session.canAsk()) return;
  const keeping = deps.collections;
  const unseen = ids.filter((id) => !seen.has(id));
  if (unseen.length) {
    const c: Collecting | undefined = keeping.artworks
      ? {
          storage: deps.storage,
          root,
          artworks: keeping.artworks,
          provider: deps.provider,
          meshGradients: false,
          log: deps.log,
          tally: { stored: 0, failed: 0 },
        }
      : undefined;
    // Claimed before anything is awaited, so a batch running beside this one waits for it instead of asking too.
    const work = keeping.store
      .getMany(unseen)
      .then((stored) => eachLimited(unseen, CONCURRENCY, (id) => keepOne(deps, session, c, id, stored.get(id))));
    for (const id of unseen) seen.set(id, work);
  }
  // Every id is in `seen` by now: asked before, or just claimed above.
  await Promise.all(ids.map((id) => seen.get(id)!));
};
