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

/** Whether the library's folder can be seen: a missing, unreadable or emptied root is offline, never empty. */
export interface LibraryStatus {
  state: 'online' | 'offline';
  /** Why it is offline, or what to know while online (its folder cannot be watched); null when nothing. */
  reason: string | null;
  /** When the state last changed. */
  since: string;
}

/** How a library is kept up to date without anyone asking. */
export interface LibraryUpkeep {
  /** Rescanned every so many hours; 0: never on a schedule. */
  scanIntervalHours: number;
  /** Whether its folder is watched for changes (where the feature is on). */
  monitoring: boolean;
  /** When the schedule scans it next; null when it has no schedule. */
  nextScanAt: string | null;
}

export const DEFAULT_SCAN_INTERVAL_HOURS = 12;

/** The next scheduled scan after `from`, or null for no schedule. */
export const nextScanAfter = (from: number, scanIntervalHours: number): string | null =>
  scanIntervalHours > 0 ? new Date(from + scanIntervalHours * 3_600_000).toISOString() : null;

/** A library being removed (lib/library/removal.ts): gone from every list, its items going in the background. */
export interface LibraryRemoval {
  since: string;
  /** Moved on by the run removing it; a run silent for long has died, and upkeep starts another. */
  heartbeatAt: string;
}

export interface Library extends LibraryUpkeep {
  id: string;
  name: string;
  /** Canonical (symlinks resolved). */
  path: string;
  mediaType: MediaKind;
  createdAt: string;
  lastScannedAt: string | null;
  counts: LibraryCounts;
  status: LibraryStatus;
  /** Set once a delete was asked for: the library is no longer listed, and its path stays taken until it is gone. */
  removing?: LibraryRemoval;
}
