// A library as the store keeps it, for tests that write one straight into a store.
import { randomUUID } from 'node:crypto';
import type { Library } from '../../lib/library/model';

const uid = () => randomUUID().replaceAll('-', '');

/** A fresh movie library, online and never scanned, created at `createdAt`; `extra` overrides any field. */
export const aLibrary = (createdAt = new Date().toISOString(), extra: Partial<Library> = {}): Library => ({
  id: `lib_${uid()}`,
  name: `Library ${uid().slice(0, 6)}`,
  path: `/media/fixture/${uid()}`,
  mediaType: 'movie',
  createdAt,
  lastScannedAt: null,
  counts: { movies: 0, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 0 },
  status: { state: 'online', reason: null, since: createdAt },
  scanIntervalHours: 12,
  monitoring: true,
  nextScanAt: null,
  ...extra,
});
