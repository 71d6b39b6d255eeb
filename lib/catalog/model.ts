// The catalogue's items as stored (one item per movie, show and episode); what clients see of
// them is built in lib/views/. Identity is derived from the library and the relative path
// (lib/catalog/ids.ts), so writing an item twice can only overwrite it, never duplicate it.
import type { ArtworkSet, ArtworkWanted } from '../artwork/model';
import type { Colors } from '../media/mesh-gradient';
import type { TechnicalInfo } from '../media/technical-info';
import type { LocalFiles } from '../naming/sidecars';
import type { CastMember } from '../metadata/provider';

export type Entity = 'movie' | 'tvshow' | 'episode';
export type Change = 'added' | 'updated' | 'moved';

/** A video file of an item, relative to its library's root. */
export interface FileRef {
  relPath: string;
  size: number;
  mtimeMs: number;
  /** The part of a stacked movie (cd1, part2 ...), else null. */
  part: number | null;
  /** Read from the file's headers when the scan wrote the item; null when it could not be read. */
  tech?: TechnicalInfo | null;
}

/**
 * How far an item's enrichment has got. A scan writes new and changed items as 'metadata'; the
 * metadata phase moves them to 'artwork' (or 'local' when no provider could be asked: a later
 * scan with one takes them up again), the artwork phase to 'done', or to 'details' when the
 * title was described from a search hit alone and the provider's details (cast, runtime ...)
 * are still to come (lib/scan/phases/details.ts). The library index carries it, so each phase
 * finds its work, also after a crash, without reading every item.
 */
export type EnrichState = 'metadata' | 'local' | 'artwork' | 'details' | 'done';

/** What is known beyond the file name, and where it came from. */
export interface ItemMetadata {
  /** Where the titles come from: the provider, a local NFO (which wins field by field), or the file name alone. */
  source: 'provider' | 'nfo' | 'file';
  /** Below the matching threshold (or no provider asked): the file's title stays. */
  matched: boolean;
  confidence: number | null;
  tagline: string | null;
  runtimeMinutes: number | null;
  releaseDate: string | null;
  certification: string | null;
  cast: CastMember[];
  directors: string[];
  creators: string[];
  /** Other titles the provider knows it by; absent on items described before they were kept. */
  alternativeTitles?: string[];
  imdbId: string | null;
  tvdbId: number | null;
  /** Described from the provider's search hit alone: its details (cast, runtime, tagline, collection, ids) are still to come. */
  brief?: boolean;
  /** Described from a provider record someone chose (lib/catalog/match-lock.ts); absent: automatic. */
  matchLocked?: boolean;
  /** A film's collection, by the provider's collection id (never by name); absent on items described before. */
  collection?: { id: number; name: string } | null;
}

/** Which scan wrote an item last and what it did: a resumed scan counts its own earlier work. */
interface Stamp {
  id: string;
  libraryId: string;
  addedAt: string;
  updatedAt: string;
  lastJob: string;
  lastChange: Change;
  /**
   * The id the item's path gives now, when it differs from its id: a moved or renamed item keeps
   * its id, and a rescan maps its path's id back to it (lib/scan/plan/aliases.ts).
   */
  pathKey?: string;
}

interface Titled {
  title: string;
  originalTitle: string | null;
  year: number | null;
  overview: string | null;
  genres: string[];
  rating: number | null;
  meshGradientColors: Colors;
  /** The poster (its etag) the colours were taken from; absent while they come from the title. */
  colorsFrom?: string;
  tmdbId: number | null;
  metadata?: ItemMetadata;
}

interface Enrichable {
  enrich?: EnrichState;
  /** NFO and artwork files beside the video (library-relative), found by the scan. */
  local?: LocalFiles;
  /** The local files' names and times as the scan saw them, so a rescan notices a change. */
  localStamp?: string;
  artworkWanted?: ArtworkWanted;
  /** Whether the metadata phase could ask the provider (else a later scan with one will). */
  providerAsked?: boolean;
}

export interface MovieItem extends Stamp, Titled, Enrichable {
  entity: 'movie';
  /** In part order. */
  files: FileRef[];
  artwork?: ArtworkSet;
}

export interface ShowItem extends Stamp, Titled, Enrichable {
  entity: 'tvshow';
  artwork?: ArtworkSet;
}

export interface EpisodeItem extends Stamp, Enrichable {
  entity: 'episode';
  showId: string;
  seasonNumber: number;
  episodeNumber: number;
  title: string | null;
  overview: string | null;
  airDate: string | null;
  /** One file; a file holding several episodes appears under each of them. */
  files: FileRef[];
  artwork?: ArtworkSet;
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
  enrich?: EnrichState;
  localStamp?: string;
  pathKey?: string;
}

/** Containers by extension, for the file info and the stream's Content-Type. */
/** The length of a movie's parts or an episode's file, as their headers said; null when one could not be read. */
export const filesDuration = (files: readonly FileRef[]): number | null => {
  const durations = files.map((f) => f.tech?.durationSeconds ?? null);
  return files.length && durations.every((d) => d !== null) ? Math.round(durations.reduce((a, b) => a + b, 0) * 1000) / 1000 : null;
};

export const containerOf = (relPath: string): string | null => {
  const ext = /\.([A-Za-z0-9]+)$/.exec(relPath)?.[1]?.toLowerCase();
  return ext ?? null;
};
