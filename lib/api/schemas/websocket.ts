// Messages on /ws: the events the service pushes, and what a client may send.
import { Type, type Static } from '@sinclair/typebox';
import { IsoTime } from './common';
import { DiskStatus, HealthReason } from './health';
import { JobErrorSchema, ScanPhase } from './scans';
import { UserData } from './user-data';

const Timestamp = IsoTime;
/** What a finished or cancelled scan did. */
const ScanSummary = Type.Object({
  added: Type.Integer(),
  updated: Type.Integer(),
  moved: Type.Integer(),
  removed: Type.Integer(),
  failed: Type.Integer(),
  durationMs: Type.Integer(),
});

export const WsEvents = {
  'scan:progress': Type.Object(
    {
      type: Type.Literal('scan:progress'),
      jobId: Type.String(),
      phase: ScanPhase,
      progress: Type.Number({ minimum: 0, maximum: 100 }),
      processed: Type.Integer(),
      total: Type.Integer(),
      timestamp: Timestamp,
    },
    { description: 'A scan job moved on; `progress` (0..100) never goes down within a job' },
  ),
  'scan:complete': Type.Object(
    {
      type: Type.Literal('scan:complete'),
      jobId: Type.String(),
      summary: ScanSummary,
      timestamp: Timestamp,
    },
    { description: 'A scan job completed' },
  ),
  'scan:cancelled': Type.Object(
    {
      type: Type.Literal('scan:cancelled'),
      jobId: Type.String(),
      summary: ScanSummary,
      timestamp: Timestamp,
    },
    { description: 'A scan job was cancelled through the API' },
  ),
  'scan:error': Type.Object(
    {
      type: Type.Literal('scan:error'),
      jobId: Type.String(),
      error: JobErrorSchema,
      timestamp: Timestamp,
    },
    { description: "A scan job failed (`library-offline` when its library's folder is away); it can be resumed" },
  ),
  'library:updated': Type.Object(
    {
      type: Type.Literal('library:updated'),
      libraryId: Type.String(),
      changes: Type.Object({ added: Type.Integer(), updated: Type.Integer(), moved: Type.Integer(), removed: Type.Integer() }),
      items: Type.Object(
        {
          added: Type.Array(Type.String()),
          updated: Type.Array(Type.String()),
          moved: Type.Array(Type.String()),
          removed: Type.Array(Type.String()),
          truncated: Type.Boolean({ description: 'More items changed than the 100 ids of a kind listed: refresh the lists' }),
        },
        { description: 'The ids of the movies, shows and episodes changed, at most 100 of each kind' },
      ),
      timestamp: Timestamp,
    },
    { description: 'A scan changed a library: counts, and the ids of the items changed (at most 100 of each kind)' },
  ),
  'library:status': Type.Object(
    {
      type: Type.Literal('library:status'),
      libraryId: Type.String(),
      status: Type.Union([Type.Literal('online'), Type.Literal('offline')]),
      reason: Type.String({ description: 'Why (empty when back online)' }),
      timestamp: Timestamp,
    },
    { description: "A library's folder went away (an unmounted disk, a sleeping NAS) or came back, or it can no longer be watched" },
  ),
  'library:created': Type.Object(
    { type: Type.Literal('library:created'), libraryId: Type.String(), timestamp: Timestamp },
    { description: 'A library was created' },
  ),
  'library:deleted': Type.Object(
    { type: Type.Literal('library:deleted'), libraryId: Type.String(), timestamp: Timestamp },
    { description: 'A library was deleted' },
  ),
  'system:status': Type.Object(
    {
      type: Type.Literal('system:status'),
      status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
      disk: Type.Optional(DiskStatus),
      reasons: Type.Array(HealthReason),
      timestamp: Timestamp,
    },
    {
      description:
        "The service's health changed: the disk holding its data ran low on space or has room again (what GET /api/v1/health says)",
    },
  ),
  'userdata:changed': Type.Object(
    {
      type: Type.Literal('userdata:changed'),
      profileId: Type.String(),
      mediaId: Type.String(),
      userData: UserData,
      timestamp: Timestamp,
    },
    {
      description:
        "A profile's position, played mark or favourite of a film, an episode or a whole show changed (a player's report, a mark)",
    },
  ),
  pong: Type.Object({ type: Type.Literal('pong') }),
  error: Type.Object({
    type: Type.Literal('error'),
    error: Type.Object({ code: Type.String(), message: Type.String() }),
  }),
} as const;

export const WsClientMessages = {
  ping: Type.Object({ type: Type.Literal('ping') }),
} as const;

export type ServerEvent = { [K in keyof typeof WsEvents]: Static<(typeof WsEvents)[K]> }[keyof typeof WsEvents];
