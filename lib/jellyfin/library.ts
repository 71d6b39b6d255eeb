// The door's browsing: views, items and one item, a show's seasons and episodes, and played
// marks (the same watch state as our own API's). Everything is read from the catalogue the
// process holds and the profile's watch state; the other lists are in lists.ts.
import type { MovieItem } from '../catalog/model';
import type { DoorHandler, DoorRequest } from './door';
import { json, notFound } from './door';
import { boxSetDto, boxSetsViewDto, viewDto } from './items';
import { listHandlers } from './lists';
import { page, queryTitles, titleKinds } from './query';
import { libraryReader, result, type Dto, type LibraryDeps } from './reader';

export type { LibraryDeps } from './reader';

export const libraryHandlers = (deps: LibraryDeps): Record<string, DoorHandler> => {
  const reader = libraryReader(deps);
  const { contextFor, titleDtos, found, oneDto, states, episodesOf, seasonsResult, mark } = reader;

  const items: DoorHandler = async (req) => {
    const { query } = req;
    const ids = query.list('ids');
    if (ids.length) {
      const dtos: Dto[] = [];
      for (const id of ids) {
        const hit = await deps.catalogue.find(id);
        if (hit && hit.kind !== 'boxsets') dtos.push(await oneDto(req, hit));
      }
      return json(result(dtos));
    }
    const parent = query.str('parentId') ? await found(query.str('parentId')) : undefined;
    const types = query.list('includeItemTypes').map((t) => t.toLowerCase());
    if (parent?.kind === 'title' && parent.item.entity === 'tvshow') {
      return json(
        types.includes('episode') || query.bool('recursive') ? await episodesOf(req, parent.item) : await seasonsResult(req, parent.item),
      );
    }
    if (parent?.kind === 'season') return json(await episodesOf(req, parent.show, parent.season));
    if (parent?.kind === 'boxsets' || (!parent && types.includes('boxset'))) return json(await boxSets(req));
    if (parent && parent.kind !== 'library' && parent.kind !== 'collection') return json(result([]));
    const kinds = parent?.kind === 'collection' ? new Set(['movie' as const]) : titleKinds(query);
    if (!kinds) return json(result([]));
    const [titled, index] = await Promise.all([deps.catalogue.titled(), deps.catalogue.index()]);
    const term = query.str('searchTerm');
    const searched = term ? new Set(await deps.search(term, 200)) : undefined;
    const members = parent?.kind === 'collection' ? new Set(parent.collection.films) : undefined;
    const pool = titled.items.filter(
      (item) =>
        kinds.has(item.entity) &&
        (parent?.kind !== 'library' || item.libraryId === parent.library.id) &&
        (!members || members.has(item as MovieItem)) &&
        (!searched || searched.has(item.id)),
    );
    const { items: shown, total, start } = queryTitles(pool, query, index, await states(req));
    return json(result(await titleDtos(req, shown), total, start));
  };

  /** The film collections with films here, by name, as box sets. */
  const boxSets = async (req: DoorRequest) => {
    const sets = [...(await deps.catalogue.index()).boxSets.values()];
    const ctx = await contextFor(
      req,
      sets.flatMap((set) => set.films.map((f) => f.id)),
    );
    const { items: shown, total, start } = page(sets, req.query);
    return result(
      shown.map((set) => boxSetDto(set, ctx)),
      total,
      start,
    );
  };

  return {
    ...listHandlers(deps, reader),
    views: async (req) => {
      const [libraries, titled, index, ctx] = await Promise.all([
        deps.catalogue.libraries(),
        deps.catalogue.titled(),
        deps.catalogue.index(),
        contextFor(req, []),
      ]);
      const views = libraries.map((l) => viewDto(l, ctx, titled.items.filter((i) => i.libraryId === l.id).length));
      // Jellyfin shows "Collections" once there is one.
      if (index.boxSets.size) views.push(boxSetsViewDto(ctx, index.boxSets.size));
      return json(result(views));
    },
    items,
    item: async (req) => json(await oneDto(req, await found(req.params.itemId))),
    seasons: async (req) => {
      const hit = await found(req.params.seriesId);
      if (hit.kind !== 'title' || hit.item.entity !== 'tvshow') throw notFound('Series');
      return json(await seasonsResult(req, hit.item));
    },
    episodes: async (req) => {
      const hit = await found(req.params.seriesId);
      if (hit.kind !== 'title' || hit.item.entity !== 'tvshow') throw notFound('Series');
      const seasonHit = req.query.str('seasonId') ? await found(req.query.str('seasonId')) : undefined;
      const season = seasonHit?.kind === 'season' ? seasonHit.season : req.query.int('season');
      return json(await episodesOf(req, hit.item, season));
    },
    markFavorite: (req) => reader.favorite(req, true),
    unmarkFavorite: (req) => reader.favorite(req, false),
    markPlayed: (req) => mark(req, true),
    markUnplayed: (req) => mark(req, false),
    userData: async (req) => json((await oneDto(req, await found(req.params.itemId))).UserData),
  };
};
