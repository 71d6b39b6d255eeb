// Reading one title from the catalogue, with the poster colours it should carry.
import { sourceKey, type ArtworkStore } from '../artwork/store';
import { notFound } from '../errors';
import type { Log } from '../log';
import { posterColors } from '../media/poster-colors';
import type { LibraryStore } from '../library/store';
import type { MovieItem, ShowItem, TitledItem } from './model';
import type { CatalogStore } from './store';

export interface CatalogDeps {
  catalog: CatalogStore;
  libraries: LibraryStore;
  /** For poster colours computed when an item is fetched; without it the stored colours are shown. */
  artworks?: ArtworkStore;
  log?: Log;
}

/** A movie or a show by id, 404 when there is none of that kind. */
export const getTitle = async <E extends 'movie' | 'tvshow'>(deps: CatalogDeps, entity: E, id: string) => {
  const item = await deps.catalog.get(id);
  if (!item || item.entity !== entity) throw notFound(`${entity === 'movie' ? 'Movie' : 'TV show'} ${id}`);
  return withPosterColors(deps, item as E extends 'movie' ? MovieItem : ShowItem);
};

/**
 * An item fetched with a poster its colours were not taken from (a poster stored while colours
 * were off, an item from before posters had colours) gets them now, and keeps them. A failure
 * here never fails the request: the stored colours are shown.
 */
const withPosterColors = async <T extends TitledItem>(deps: CatalogDeps, item: T): Promise<T> => {
  const poster = item.artwork?.poster;
  if (!poster || item.colorsFrom === poster.etag || !deps.artworks) return item;
  try {
    const source = await deps.artworks.get(sourceKey(item.id, 'poster', poster.etag));
    if (!source) return item;
    const meshGradientColors = await posterColors(source.bytes);
    await deps.catalog.setColors(item.id, meshGradientColors, poster.etag);
    // The lists and search kept in memory read the item again; they need not wait for it.
    await deps.catalog.bumpVersion({ quiet: true });
    return { ...item, meshGradientColors, colorsFrom: poster.etag };
  } catch (err) {
    deps.log?.warn({ err, itemId: item.id }, 'poster colours could not be computed; the stored ones are shown');
    return item;
  }
};
