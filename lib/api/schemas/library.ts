// Libraries: a folder of one media type, and what they hold.
import { Type } from '@sinclair/typebox';
import { IsoTime, MediaType, Nullable } from './common';

export const Library = Type.Object({
  id: Type.String(),
  name: Type.String(),
  path: Type.String(),
  mediaType: MediaType,
  itemCount: Type.Integer({ minimum: 0 }),
  lastScannedAt: Nullable(IsoTime),
  createdAt: IsoTime,
  status: Type.Union([Type.Literal('online'), Type.Literal('offline')], {
    description:
      '`offline` while the folder is missing, unreadable or empty although the library holds items (an unmounted disk, a sleeping NAS): nothing is removed, items stay listed, streams answer 503 media-offline',
  }),
  statusReason: Nullable(
    Type.String({
      description: 'Why it is offline; while online, what to know (e.g. its folder cannot be watched, so the schedule covers it)',
    }),
  ),
  statusSince: IsoTime,
  scanIntervalHours: Type.Number({ minimum: 0, description: 'Rescanned every so many hours (default 12); 0: never on a schedule' }),
  nextScanAt: Nullable(IsoTime),
  monitoring: Type.Boolean({ description: 'Whether the folder is watched for changes (with features.realtimeMonitoring on)' }),
});

const ScanIntervalHours = Type.Number({
  minimum: 0,
  maximum: 24 * 365,
  description: 'Hours between scheduled rescans (fractions allowed: 0.5 is 30 min); 0: never rescan on a schedule',
});

export const LibraryCreate = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    path: Type.String({ minLength: 1, maxLength: 4096 }),
    mediaType: MediaType,
    scanIntervalHours: Type.Optional(ScanIntervalHours),
    monitoring: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const LibraryPatch = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    scanIntervalHours: Type.Optional(ScanIntervalHours),
    monitoring: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);

export const LibraryRemoval = Type.Object({
  libraryId: Type.String(),
  name: Type.String(),
  path: Type.String(),
  state: Type.Literal('removing', {
    description:
      'The library and its items are already gone from every list, search and detail; its catalogue entries, artwork and watch state are being removed in the background (resumed after a restart), then `library:deleted` goes out on `/ws`',
  }),
  since: IsoTime,
  items: Type.Integer({ minimum: 0, description: 'Catalogue items (movies, shows, episodes) it held at its last count' }),
});

export const LibraryStats = Type.Object({
  libraries: Type.Integer(),
  movies: Type.Integer(),
  tvShows: Type.Integer(),
  seasons: Type.Integer(),
  episodes: Type.Integer(),
  totalSizeBytes: Type.Integer(),
  totalDurationSeconds: Type.Number(),
  lastScanAt: Nullable(IsoTime),
});
