// Result shapes of the naming parsers. Parsers never throw and never return null: a name they
// cannot read is a Failure with a short reason a scanner can log.
import type { ShowFrom } from './show-root';

export interface Failure {
  readonly ok: false;
  readonly reason: string;
}

export interface MovieName {
  readonly ok: true;
  /** As written (case and accents kept), trimmed, inner whitespace collapsed. */
  readonly title: string;
  /** 1880..2100, or null when the name has none. */
  readonly year: number | null;
  /** From a `[tmdbid-123]` / `{tmdb-123}` / `[tmdb=123]` tag on the file or its folder. */
  readonly tmdbId: number | null;
  /** 1, 2, … for "cd1", "part 2", "disc3"; null for a single-file movie. */
  readonly part: number | null;
  /**
   * Identifies the movie within its library: the folder path plus the file's base name
   * without its part token, lowercased, separators collapsed. All parts share it.
   */
  readonly stackKey: string;
}

export interface EpisodeName {
  readonly ok: true;
  readonly showTitle: string;
  /** From the show folder ("Doctor Who (2005)", its own or the library's root), else from the file name; null when absent. */
  readonly showYear: number | null;
  /** 0 for specials. */
  readonly season: number;
  /** Ascending, at least one; several for "S01E01E02" or "S01E01-E03". */
  readonly episodes: number[];
  /** From a tag on the show folder, its own or the root (or on the file when the file names the show). */
  readonly tmdbId: number | null;
  /** What named the show: its own top folder, the library's root folder (./show-root), or the file's name. */
  readonly showFrom: ShowFrom;
}

export type MovieResult = MovieName | Failure;
export type EpisodeResult = EpisodeName | Failure;

export function fail(reason: string): Failure {
  return { ok: false, reason };
}
