// Film collections as clients read them: those with at least one film here, by name, and one
// with every part in release order, the missing ones too. Which films are here comes from the
// films kept in memory per catalogue version (lib/catalog/snapshot.ts), what the provider
// lists from the stored collections (lib/catalog/collections.ts, one BatchGetItem per 100), both
// read again only when the version stamp moves: the scan writes a collection before the films
// that point at it, then moves the stamp.
import type { Static } from '@sinclair/typebox';
import type { CollectionDetail, CollectionPart, CollectionSummary } from '../api/schemas';
import { collectionArtworkId, type CollectionStore, type StoredCollection } from '../catalog/collections';
import type { MovieItem } from '../catalog/model';
import type { CatalogStore } from '../catalog/store';
import { derived, snapshotOf, type TitledCatalogue } from '../catalog/snapshot';
import { notFound } from '../errors';
import { filing } from '../text/sort-title';
import { ascending } from '../util/order';
import { toMedia } from './entry';
import { artworkUrl } from './urls';

export interface CollectionsDeps {
  catalog: CatalogStore;
  collections: CollectionStore;
}

interface Part {
  tmdbId: number | null;
  title: string;
  year: number | null;
  releaseDate: string | null;
  film: MovieItem | undefined;
}

interface Shelf {
  id: number;
  name: string;
  stored: StoredCollection | undefined;
  /** In release order. */
  parts: Part[];
  owned: number;
}

// Undated parts (an announced sequel) last; a year alone before the dates within it.
const releaseKey = (p: Part) => p.releaseDate ?? (p.year !== null ? String(p.year) : '\uffff');
const inReleaseOrder = (a: Part, b: Part) =>
  ascending(releaseKey(a), releaseKey(b)) || ascending(a.title, b.title) || ascending(a.tmdbId ?? 0, b.tmdbId ?? 0);

/**
 * The provider's parts, each with the film here when there is one (the first of two copies),
 * then the films here it does not list (an NFO's set, or a collection the provider was not asked
 * about yet): those are parts too, so every film here is on its collection's page.
 */
const partsOf = (films: readonly MovieItem[], stored: StoredCollection | undefined): Part[] => {
  const byTmdbId = new Map<number, MovieItem>();
  for (const film of films) if (film.tmdbId !== null && !byTmdbId.has(film.tmdbId)) byTmdbId.set(film.tmdbId, film);
  const listed = (stored?.parts ?? []).map((p): Part => ({ ...p, film: byTmdbId.get(p.tmdbId) }));
  const named = new Set(listed.map((p) => p.tmdbId));
  const unlisted = films
    .filter((f) => f.tmdbId === null || (!named.has(f.tmdbId) && byTmdbId.get(f.tmdbId) === f))
    .map((f): Part => ({ tmdbId: f.tmdbId, title: f.title, year: f.year, releaseDate: f.metadata?.releaseDate ?? null, film: f }));
  return [...listed, ...unlisted].sort(inReleaseOrder);
};

const load = async ({ items }: TitledCatalogue, deps: CollectionsDeps) => {
  const films = new Map<number, MovieItem[]>();
  for (const item of items) {
    const collection = item.entity === 'movie' ? item.metadata?.collection : undefined;
    if (collection) films.set(collection.id, [...(films.get(collection.id) ?? []), item as MovieItem]);
  }
  const stored = await deps.collections.getMany([...films.keys()]);
  const shelves = [...films].map(([id, own]): Shelf => {
    const parts = partsOf(own, stored.get(id));
    // The provider's name once it was asked; until then the one the film was described with.
    return {
      id,
      name: stored.get(id)?.name ?? own[0]!.metadata!.collection!.name,
      stored: stored.get(id),
      parts,
      owned: parts.filter((p) => p.film).length,
    };
  });
  // Filed as titles are ("The Godfather Collection" under G), so the list reads like the films'.
  const sortKeys = new Map(shelves.map((s) => [s.id, filing(s.name).sortTitle]));
  shelves.sort((a, b) => ascending(sortKeys.get(a.id)!, sortKeys.get(b.id)!) || ascending(a.id, b.id));
  return { shelves, byId: new Map(shelves.map((s) => [s.id, s])) };
};

const shelves = derived(load);
const shelvesNow = (deps: CollectionsDeps) => snapshotOf(deps.catalog).derive(shelves, deps);

const pictures = (shelf: Shelf, origin: string) => ({
  posterUrl: artworkUrl(origin, collectionArtworkId(shelf.id), 'poster', shelf.stored?.artwork.poster),
  backdropUrl: artworkUrl(origin, collectionArtworkId(shelf.id), 'backdrop', shelf.stored?.artwork.backdrop),
});

/** Every collection with a film here, by name. */
export const collectionList = async (deps: CollectionsDeps, origin: string): Promise<Static<typeof CollectionSummary>[]> => {
  const { shelves } = await shelvesNow(deps);
  return shelves.map((s) => ({ id: s.id, name: s.name, ...pictures(s, origin), owned: s.owned, total: s.parts.length }));
};

/** One collection with every part; 404 when no film here is in it. */
export const collectionDetail = async (deps: CollectionsDeps, id: number, origin: string): Promise<Static<typeof CollectionDetail>> => {
  const shelf = (await shelvesNow(deps)).byId.get(id);
  if (!shelf) throw notFound(`Collection ${id}`);
  const parts = shelf.parts.map(({ tmdbId, title, year, film }): Static<typeof CollectionPart> => ({
    tmdbId,
    title: film?.title ?? title,
    year: film?.year ?? year,
    owned: film !== undefined,
    id: film?.id ?? null,
    media: film ? toMedia(film, origin) : null,
  }));
  return { id: shelf.id, name: shelf.name, overview: shelf.stored?.overview ?? null, ...pictures(shelf, origin), parts };
};
