// The catalogue's items as stored (one item per movie, show and episode), and the contract's
// media object built from them. Identity is derived from the library and the relative path
// (lib/catalog/ids.ts), so writing an item twice can only overwrite it, never duplicate it.
import type { Static } from '@sinclair/typebox';
import type { Media, MediaType } from '../api/schemas';
import type { Colors } from '../media/mesh-gradient';

export type MediaKind = Static<typeof MediaType>;
export type Entity = 'movie' | 'tvshow' | 'episode';
export type Change = 'added' | 'updated';

/** A video file of an item, relative to its library's root. */
export interface FileRef {
  relPath: string;
  size: number;
  mtimeMs: number;
  /** The part of a stacked movie (cd1, part2 ...), else null. */
  part: number | null;
}

/** Which scan wrote an item last and what it did: a resumed scan counts its own earlier work. */
interface Stamp {
  id: string;
  libraryId: string;
  addedAt: string;
  updatedAt: string;
  lastJob: string;
  lastChange: Change;
}

interface Titled {
  title: string;
  originalTitle: string | null;
  year: number | null;
  overview: string | null;
  genres: string[];
  rating: number | null;
  posterUrl: string | null;
  backdropUrl: string | null;
  meshGradientColors: Colors;
  tmdbId: number | null;
}

export interface MovieItem extends Stamp, Titled {
  entity: 'movie';
  /** In part order. */
  files: FileRef[];
}

export interface ShowItem extends Stamp, Titled {
  entity: 'tvshow';
}

export interface EpisodeItem extends Stamp {
  entity: 'episode';
  showId: string;
  seasonNumber: number;
  episodeNumber: number;
  title: string | null;
  overview: string | null;
  airDate: string | null;
  stillUrl: string | null;
  /** One file; a file holding several episodes appears under each of them. */
  files: FileRef[];
}

export type CatalogItem = MovieItem | ShowItem | EpisodeItem;
export type TitledItem = MovieItem | ShowItem;

/** What the library index (gsi2) holds of an item: enough for a rescan to compare and count. */
export interface IndexEntry {
  id: string;
  entity: Entity;
  addedAt: string;
  files?: FileRef[];
  showId?: string;
  seasonNumber?: number;
  lastJob?: string;
  lastChange?: Change;
}

export const toMedia = (item: TitledItem): Static<typeof Media> => ({
  id: item.id,
  type: item.entity,
  title: item.title,
  originalTitle: item.originalTitle,
  year: item.year,
  overview: item.overview,
  genres: item.genres,
  rating: item.rating,
  posterUrl: item.posterUrl,
  backdropUrl: item.backdropUrl,
  meshGradientColors: item.meshGradientColors,
  addedAt: item.addedAt,
});

/** Containers by extension, for the file info and the stream's Content-Type. */
export const containerOf = (relPath: string): string | null => {
  const ext = /\.([A-Za-z0-9]+)$/.exec(relPath)?.[1]?.toLowerCase();
  return ext ?? null;
};
