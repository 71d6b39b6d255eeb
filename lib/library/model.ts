// A library: a named folder of movies or of TV shows, and what its last finished scan found.
import type { Static } from '@sinclair/typebox';
import type { MediaType } from '../api/schemas';

/** What a library holds: movies or TV shows. */
export type MediaKind = Static<typeof MediaType>;

export interface LibraryCounts {
  movies: number;
  tvShows: number;
  seasons: number;
  episodes: number;
  totalSizeBytes: number;
  /** Of the files whose duration could be read. */
  totalDurationSeconds?: number;
}

export const EMPTY_COUNTS: LibraryCounts = { movies: 0, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 0 };

export interface Library {
  id: string;
  name: string;
  /** Canonical (symlinks resolved). */
  path: string;
  mediaType: MediaKind;
  createdAt: string;
  lastScannedAt: string | null;
  counts: LibraryCounts;
}
