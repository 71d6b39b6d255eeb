// The contract's shapes as JSON Schemas (TypeBox): the same objects validate requests
// (lib/http/validate.ts), type the handlers, and become the OpenAPI document (lib/api/openapi.ts).
import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { LOG_LEVELS } from '../config';
import { JOB_ERROR_CODES } from '../errors';

/** A union of string literals that keeps its literal type. */
const literals = <T extends readonly string[]>(values: T) => Type.Unsafe<T[number]>(Type.Union(values.map((v) => Type.Literal(v))));

const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) => Type.Union([schema, Type.Null()], options);
const IsoTime = Type.String({ format: 'date-time' });
/** A catalogue, library or job id, in a path or a body: letters, digits, '_' and '-'. */
export const Id = Type.String({ minLength: 1, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });
const HexColor = Type.String({ pattern: '^#[0-9A-Fa-f]{6}$' });
const Limit = (dflt: number, max: number) => Type.Integer({ minimum: 1, maximum: max, default: dflt });
const Cursor = Type.String({ minLength: 1, maxLength: 2048, description: 'Opaque cursor from `meta.nextCursor`' });

export const Problem = Type.Object(
  {
    type: Type.String({ description: 'A URI naming the problem type: /problems/<code>' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String({ description: 'The request path' }),
    requestId: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  },
  { description: 'RFC 9457 problem details' },
);

export const ListMeta = Type.Object({ total: Type.Integer({ minimum: 0 }), nextCursor: Nullable(Type.String()) });

// ---- media ---------------------------------------------------------------------------
export const MediaType = Type.Union([Type.Literal('movie'), Type.Literal('tvshow')]);

export const Media = Type.Object({
  id: Type.String(),
  type: MediaType,
  title: Type.String(),
  originalTitle: Nullable(Type.String()),
  year: Nullable(Type.Integer()),
  overview: Nullable(Type.String()),
  genres: Type.Array(Type.String()),
  rating: Nullable(Type.Number()),
  posterUrl: Nullable(Type.String({ format: 'uri' })),
  backdropUrl: Nullable(Type.String({ format: 'uri' })),
  meshGradientColors: Type.Array(HexColor, {
    minItems: 4,
    maxItems: 4,
    description: 'Top-left, top-right, bottom-left, bottom-right colours of the poster',
  }),
  addedAt: IsoTime,
});

/** A movie or show wherever a list of them appears (search hits, recent lists): one shape, so one client component renders both. */
export const MediaEntry = Type.Object(
  { id: Type.String(), type: MediaType, media: Media },
  { description: 'A movie or TV show in a list: search hits and the recent lists share this shape' },
);

/** A search hit: a list entry, and what it was found by. */
// An intersection, so a client's code for list entries takes search hits as they are.
export const SearchHit = Type.Intersect(
  [
    MediaEntry,
    Type.Object({
      matchedOn: Type.Union([Type.Literal('title'), Type.Literal('originalTitle'), Type.Literal('alternativeTitle'), Type.Literal('person')], {
        description:
          'What the query matched, the best of the item\'s matches: its title, its original title, another title the provider knows it by, or a person (a director, a show\'s creator, one of the first five billed cast)',
      }),
      matchedText: Type.String({ description: 'The title or name that matched, as the item has it ("Le Fabuleux Destin d\'Amélie Poulain", "Christopher Nolan")' }),
    }),
  ],
  { description: 'A search hit: a list entry, and what it was found by' },
);

export const FileInfo = Type.Object(
  {
    size: Type.Integer({ minimum: 0 }),
    container: Nullable(Type.String()),
    durationSeconds: Nullable(Type.Number({ description: 'Of all parts, read from the files\' headers; null when they could not be read' })),
    path: Type.String({ description: "The (first) file's path relative to its library folder" }),
    parts: Type.Integer({ minimum: 1, description: 'Files of a stacked movie (cd1, cd2 ...), played in order' }),
    video: Nullable(
      Type.Object({ codec: Type.String(), width: Nullable(Type.Integer()), height: Nullable(Type.Integer()), frameRate: Nullable(Type.Number()), bitDepth: Nullable(Type.Integer()), hdr: Nullable(Type.String()) }, { additionalProperties: true }),
      { description: "The first part's first video stream (h264, hevc, vp9, av1 ...)" },
    ),
    audio: Type.Array(Type.Object({ codec: Type.String(), channels: Nullable(Type.Integer()), language: Nullable(Type.String()) }, { additionalProperties: true }), {
      description: 'Audio streams of the first part, in file order; languages as BCP 47 tags (en, de) or null',
    }),
    subtitles: Type.Array(Type.Object({ codec: Nullable(Type.String()), language: Nullable(Type.String()) }, { additionalProperties: true }), {
      description: 'Embedded subtitle streams of the first part',
    }),
  },
  { additionalProperties: true },
);

export const SubtitleTrack = Type.Object(
  {
    id: Type.String({ description: 'The track\'s id in the subtitle URL' }),
    source: Type.Union([Type.Literal('external'), Type.Literal('embedded')], { description: 'A file beside the video, or a stream inside it' }),
    format: Type.String({ description: 'srt, webvtt, ass, ssa, tx3g (MP4 text); pictures: pgs, vobsub, dvbsub; sub (a MicroDVD-style file)' }),
    language: Nullable(Type.String({ description: 'BCP 47 (en, pt-BR, zh-Hant)' })),
    label: Type.String({ description: 'For a menu: "French", "English (forced)", "English (Commentary, SDH)"' }),
    forced: Type.Boolean({ description: 'Only the parts in another language than the film\'s' }),
    default: Type.Boolean(),
    hearingImpaired: Type.Boolean({ description: 'SDH / CC: sounds and speakers too' }),
    url: Nullable(Type.String({ format: 'uri', description: 'The track as WebVTT; null when it cannot be served as text (pictures, or a stream inside the video without ffmpeg)' })),
  },
  { description: 'A subtitle track. Lists put the default first, then forced tracks, then by language' },
);

const CastMember = Type.Object({ name: Type.String(), character: Type.String(), order: Type.Integer({ minimum: 0, description: 'Billing order, 0 first' }) });

/** What is known of an item beyond its file name (the provider's, an NFO's), shared by movies and shows. */
const KnownFields = {
  tmdbId: Nullable(Type.Integer()),
  imdbId: Nullable(Type.String()),
  tagline: Nullable(Type.String()),
  certification: Nullable(Type.String()),
  cast: Type.Array(CastMember),
  alternativeTitles: Type.Array(Type.String({ description: 'Other titles the provider knows it by' })),
  matched: Type.Boolean({ description: 'Matched with confidence; when false the title is the file\'s' }),
  source: Type.Union([Type.Literal('provider'), Type.Literal('nfo'), Type.Literal('file')], { description: 'Where the fields come from: the provider, a local NFO (which wins field by field), or the file name alone' }),
};

export const MovieMetadata = Type.Object({
  ...KnownFields,
  directors: Type.Array(Type.String()),
  releaseDate: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
  runtime: Nullable(Type.Integer({ description: 'Minutes, as the provider or NFO says (the file\'s own length is file.durationSeconds)' })),
});

export const ShowMetadata = Type.Object({
  ...KnownFields,
  tvdbId: Nullable(Type.Integer()),
  creators: Type.Array(Type.String()),
  firstAirDate: Nullable(Type.String({ description: 'YYYY-MM-DD' })),
});

export const MovieDetail = Type.Object({
  id: Type.String(),
  media: Media,
  poster: Nullable(Type.String({ format: 'uri' })),
  backdrop: Nullable(Type.String({ format: 'uri' })),
  metadata: MovieMetadata,
  file: FileInfo,
  streamUrl: Type.String({ format: 'uri' }),
  subtitles: Type.Array(SubtitleTrack, { description: 'Subtitle files beside the video and streams inside it (its first part)' }),
});

export const Episode = Type.Object({
  id: Type.String(),
  seasonNumber: Type.Integer({ minimum: 0 }),
  episodeNumber: Type.Integer({ minimum: 0 }),
  title: Nullable(Type.String()),
  overview: Nullable(Type.String()),
  airDate: Nullable(Type.String()),
  stillUrl: Nullable(Type.String({ format: 'uri' })),
  streamUrl: Type.String({ format: 'uri' }),
  file: FileInfo,
  subtitles: Type.Array(SubtitleTrack, { description: 'Subtitle files beside the video and streams inside it' }),
});

export const ShowDetail = Type.Object({
  id: Type.String(),
  media: Media,
  metadata: ShowMetadata,
  seasons: Type.Array(
    Type.Object({
      seasonNumber: Type.Integer({ minimum: 0 }),
      name: Type.String(),
      episodeCount: Type.Integer({ minimum: 0 }),
      episodes: Type.Array(Episode),
    }),
  ),
});

// ---- library and scans ----------------------------------------------------------------
export const JobStatus = literals(['queued', 'running', 'completed', 'failed', 'interrupted', 'cancelled'] as const);
export const ScanPhase = literals(['discovering', 'analyzing', 'metadata', 'artwork', 'finalizing'] as const);

export const ScanRequest = Type.Object(
  {
    path: Type.String({ minLength: 1, maxLength: 4096, description: 'An absolute directory path on the server (with MEDIA_STORAGE=s3: `s3://bucket/prefix`)' }),
    mediaType: MediaType,
    libraryId: Type.Optional(Id),
  },
  { additionalProperties: false },
);

/** Why a job failed; the codes are the catalogue's (`x-problem-types` with sentIn `job`). */
export const JobErrorSchema = Type.Object({ code: literals(JOB_ERROR_CODES), message: Type.String() });

export const ScanTrigger = Type.Union([Type.Literal('manual'), Type.Literal('watch'), Type.Literal('schedule')], {
  description: 'What started the job: a request (`manual`), the folder monitor (`watch`) or the library\'s schedule (`schedule`)',
});

export const ScanJob = Type.Object({
  jobId: Type.String(),
  status: JobStatus,
  trigger: ScanTrigger,
  path: Type.String(),
  mediaType: MediaType,
  libraryId: Type.String(),
  phase: Nullable(ScanPhase),
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  counts: Type.Object({
    discovered: Type.Integer(),
    processed: Type.Integer(),
    added: Type.Integer(),
    updated: Type.Integer(),
    moved: Type.Integer({ description: 'Items whose files moved or were renamed (same size and modification time): they keep their id, addedAt, metadata and artwork' }),
    removed: Type.Integer(),
    failed: Type.Integer({ description: 'Files whose names could not be read, and items whose metadata, NFO or artwork failed' }),
    matched: Type.Integer({ description: 'Items the metadata provider matched' }),
    unmatched: Type.Integer({ description: 'Items the provider was asked about but did not match with confidence (they keep their file titles)' }),
    artwork: Type.Integer({ description: 'Pictures copied into the artwork cache' }),
    probed: Type.Integer({ description: 'Video files whose technical info (duration, codecs) was read' }),
    probeFailed: Type.Integer({ description: 'Video files that could not be read for technical info (broken or truncated); they do not fail the scan' }),
  }),
  warnings: Type.Array(Type.String(), { description: 'What to know about a scan that still completed, e.g. a refused TMDB key' }),
  startedAt: Nullable(IsoTime),
  updatedAt: IsoTime,
  finishedAt: Nullable(IsoTime),
  error: Nullable(JobErrorSchema),
});

export const CleanupRequest = Type.Object(
  { staleAfterSeconds: Type.Optional(Type.Integer({ minimum: 0, maximum: 86_400 * 30, description: '0 treats every running job as stale (what a client sends after a crash)' })) },
  { additionalProperties: false },
);

export const Library = Type.Object({
  id: Type.String(),
  name: Type.String(),
  path: Type.String(),
  mediaType: MediaType,
  itemCount: Type.Integer({ minimum: 0 }),
  lastScannedAt: Nullable(IsoTime),
  createdAt: IsoTime,
  status: Type.Union([Type.Literal('online'), Type.Literal('offline')], {
    description: '`offline` while the folder is missing, unreadable or empty although the library holds items (an unmounted disk, a sleeping NAS): nothing is removed, items stay listed, streams answer 503 media-offline',
  }),
  statusReason: Nullable(Type.String({ description: 'Why it is offline; while online, what to know (e.g. its folder cannot be watched, so the schedule covers it)' })),
  statusSince: IsoTime,
  scanIntervalHours: Type.Number({ minimum: 0, description: 'Rescanned every so many hours (default 12); 0: never on a schedule' }),
  nextScanAt: Nullable(IsoTime),
  monitoring: Type.Boolean({ description: 'Whether the folder is watched for changes (with features.realtimeMonitoring on)' }),
});

const ScanIntervalHours = Type.Number({ minimum: 0, maximum: 24 * 365, description: 'Hours between scheduled rescans (fractions allowed: 0.5 is 30 min); 0: never rescan on a schedule' });

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

// ---- settings --------------------------------------------------------------------------
export const LANGUAGE_PATTERN = '^[a-z]{2,3}(-[A-Z]{2})?$';
const Language = Type.String({ pattern: LANGUAGE_PATTERN, description: 'ISO 639-1 language, optionally with ISO 3166-1 region: en-US' });
const Theme = Type.Union([Type.Literal('system'), Type.Literal('light'), Type.Literal('dark')]);

export const Features = Type.Object(
  {
    metadataFetching: Type.Boolean({ description: 'Fetch titles, overviews and artwork from TMDB during scans' }),
    artwork: Type.Boolean({ description: 'Download and cache posters, backdrops and stills' }),
    meshGradients: Type.Boolean({ description: 'Compute poster colours for meshGradientColors' }),
    autoResumeScans: Type.Boolean({ description: 'Resume interrupted scans when the service starts' }),
    realtimeMonitoring: Type.Boolean({ description: "Watch libraries' folders (those with `monitoring` on) and scan what changed a few seconds after it settles" }),
  },
  { additionalProperties: false },
);

export const Preferences = Type.Object(
  {
    theme: Theme,
    pageSize: Type.Integer({ minimum: 1, maximum: 100, description: 'Items per page clients should ask for' }),
  },
  { additionalProperties: false },
);

export const Settings = Type.Object({
  metadata: Type.Object({
    tmdbApiKeySet: Type.Boolean(),
    tmdbApiKeyHint: Nullable(Type.String({ description: 'The last 4 characters of the key, masked: ****abcd' })),
    tmdbApiKeySource: Nullable(Type.Union([Type.Literal('settings'), Type.Literal('environment')])),
    language: Language,
  }),
  features: Features,
  preferences: Preferences,
});

export const SettingsPatch = Type.Object(
  {
    metadata: Type.Optional(
      Type.Object(
        {
          tmdbApiKey: Type.Optional(
            Nullable(Type.String({ minLength: 8, maxLength: 512, pattern: '^[A-Za-z0-9._-]+$', description: 'Set the key; null removes it' })),
          ),
          language: Type.Optional(Language),
        },
        { additionalProperties: false },
      ),
    ),
    features: Type.Optional(Type.Partial(Features, { additionalProperties: false })),
    preferences: Type.Optional(Type.Partial(Preferences, { additionalProperties: false })),
  },
  { additionalProperties: false, minProperties: 1 },
);

// ---- logs, health ----------------------------------------------------------------------
export const LogLevelName = literals(LOG_LEVELS);

export const LogsQuery = Type.Object(
  {
    level: Type.Optional(LogLevelName),
    limit: Type.Optional(Limit(100, 1000)),
    since: Type.Optional(IsoTime),
    q: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const LogRecord = Type.Object(
  { time: IsoTime, level: LogLevelName, msg: Type.String() },
  { additionalProperties: true },
);

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  version: Type.String(),
  uptimeSeconds: Type.Integer({ minimum: 0 }),
});

// ---- queries shared by operations --------------------------------------------------------
export const PageQuery = Type.Object(
  { limit: Type.Optional(Limit(10, 100)), cursor: Type.Optional(Cursor) },
  { additionalProperties: false },
);
export const SearchQuery = Type.Object(
  {
    query: Type.String({ minLength: 1, maxLength: 200 }),
    type: Type.Optional(MediaType),
    limit: Type.Optional(Limit(20, 100)),
  },
  { additionalProperties: false },
);
export const StreamQuery = Type.Object(
  { part: Type.Optional(Type.Integer({ minimum: 1, maximum: 99, default: 1, description: 'The part of a stacked movie (cd2 ...); 1 by default' })) },
  { additionalProperties: false },
);
export const JobsQuery = Type.Object({ status: Type.Optional(JobStatus) }, { additionalProperties: false });
export const ArtworkQuery = Type.Object(
  {
    w: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 4000,
        description:
          'Width wanted, in pixels. Snapped up to the next of 160, 320, 480, 780 and 1280 (anything wider gets 1280), so a handful of sizes are rendered and cached whatever clients ask for; the height follows the aspect ratio. Never enlarged: a width at least as wide as the stored image gives its original size. Without `w`: the original size.',
      }),
    ),
    v: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 128,
        description:
          "The artwork's version, as in the URLs the catalogue hands out (`?v=<etag>`). When it is the current version the answer is cacheable for a year (`Cache-Control: public, max-age=31536000, immutable`); otherwise, or without it, for a day. It never changes which bytes are sent.",
      }),
    ),
  },
  { additionalProperties: false },
);
export const ArtworkKind = Type.Union([Type.Literal('poster'), Type.Literal('backdrop'), Type.Literal('still')], {
  description: 'poster and backdrop for movies and TV shows, still for episodes',
});

// ---- WebSocket messages ----------------------------------------------------------------
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
  'scan:progress': Type.Object({
    type: Type.Literal('scan:progress'),
    jobId: Type.String(),
    phase: ScanPhase,
    progress: Type.Number({ minimum: 0, maximum: 100 }),
    processed: Type.Integer(),
    total: Type.Integer(),
    timestamp: Timestamp,
  }, { description: 'A scan job moved on; `progress` (0..100) never goes down within a job' }),
  'scan:complete': Type.Object({
    type: Type.Literal('scan:complete'),
    jobId: Type.String(),
    summary: ScanSummary,
    timestamp: Timestamp,
  }, { description: 'A scan job completed' }),
  'scan:cancelled': Type.Object({
    type: Type.Literal('scan:cancelled'),
    jobId: Type.String(),
    summary: ScanSummary,
    timestamp: Timestamp,
  }, { description: 'A scan job was cancelled through the API' }),
  'scan:error': Type.Object({
    type: Type.Literal('scan:error'),
    jobId: Type.String(),
    error: JobErrorSchema,
    timestamp: Timestamp,
  }, { description: 'A scan job failed (`library-offline` when its library\'s folder is away); it can be resumed' }),
  'library:updated': Type.Object({
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
  }, { description: 'A scan changed a library: counts, and the ids of the items changed (at most 100 of each kind)' }),
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
  'library:created': Type.Object({ type: Type.Literal('library:created'), libraryId: Type.String(), timestamp: Timestamp }, { description: 'A library was created' }),
  'library:deleted': Type.Object({ type: Type.Literal('library:deleted'), libraryId: Type.String(), timestamp: Timestamp }, { description: 'A library was deleted' }),
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

/** Schemas that get a name in the OpenAPI document's components. */
export const NAMED_SCHEMAS: Record<string, TSchema> = {
  Problem,
  ListMeta,
  Media,
  MediaEntry,
  SearchHit,
  FileInfo,
  SubtitleTrack,
  MovieMetadata,
  ShowMetadata,
  MovieDetail,
  Episode,
  ShowDetail,
  ScanRequest,
  ScanJob,
  JobError: JobErrorSchema,
  Library,
  LibraryCreate,
  LibraryPatch,
  LibraryStats,
  Features,
  Preferences,
  Settings,
  SettingsPatch,
  LogRecord,
  Health,
};

export type SettingsView = Static<typeof Settings>;
export type SettingsPatchBody = Static<typeof SettingsPatch>;
export type HealthView = Static<typeof Health>;
export type LogRecordView = Static<typeof LogRecord>;
