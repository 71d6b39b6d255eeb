// Reading one title from the catalogue, and the poster colours it should carry.
import { sourceKey, type ArtworkStore } from '../artwork/store';
import { notFound } from '../errors';
import type { Log } from '../log';
import { posterColors } from '../media/poster-colors';
import type { LibraryStore } from '../library/store';
import type { MovieItem, ShowItem, TitledItem } from './model';
import { snapshotOf } from './snapshot';
import type { CatalogStore } from './store';

export interface CatalogDeps {
  catalog: CatalogStore;
  libraries: LibraryStore;
  /** For poster colours taken behind a read; without it the stored colours are shown. */
  artworks?: ArtworkStore;
  log?: Log;
}

/** A movie or a show by id (from the catalogue the process holds), 404 when there is none of that kind. */
export const getTitle = async <E extends 'movie' | 'tvshow'>(deps: CatalogDeps, entity: E, id: string) => {
  const snapshot = snapshotOf(deps.catalog);
  const item = await snapshot.title(id);
  if (!item || item.entity !== entity) throw notFound(`${entity === 'movie' ? 'Movie' : 'TV show'} ${id}`);
  // A read never writes: colours a poster lacks are taken behind it, where the process lives on.
  if (snapshot.holdsEverything) colourLater(deps, item);
  return item as E extends 'movie' ? MovieItem : ShowItem;
};

/** Titles whose colours are being taken, so a title read again meanwhile is not taken twice. */
const colouring = new Set<string>();
/** At most this many at once: each decodes a poster. */
const COLOURING_MAX = 4;

/**
 * A title with a poster its colours were not taken from (a poster stored while colours were off,
 * an item from before posters had colours) gets them behind the read that found it, and keeps
 * them; the next read shows them. A failure is logged: the stored colours stay.
 */
const colourLater = (deps: CatalogDeps, item: TitledItem) => {
  const poster = item.artwork?.poster;
  if (!poster || item.colorsFrom === poster.etag || !deps.artworks || colouring.has(item.id) || colouring.size >= COLOURING_MAX) return;
  const artworks = deps.artworks;
  colouring.add(item.id);
  void (async () => {
    try {
      const source = await artworks.get(sourceKey(item.id, 'poster', poster.etag));
      if (source) await deps.catalog.setColors(item.id, await posterColors(source.bytes), poster.etag);
    } catch (err) {
      deps.log?.warn({ err, itemId: item.id }, 'poster colours could not be computed; the stored ones are shown');
    } finally {
      colouring.delete(item.id);
    }
  })();
};
