// The only module that reads process.env. Everything is parsed once, every problem is
// collected into one error, and the result is frozen; adapters receive what they need. What
// the local runner tells the handlers about how they run is read through lib/runtime.ts.
import { availableParallelism, hostname } from 'node:os';
import pkg from '../package.json';
import { TMDB_DEFAULTS } from './defaults';
import { readRuntime } from './runtime';

const issues: string[] = [];

const str = (key: string): string | undefined => {
  const raw = process.env[key]?.trim();
  return raw ? raw : undefined;
};

const int = (key: string, dflt: number, min = 1, max = Number.MAX_SAFE_INTEGER): number => {
  const raw = str(key);
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < min || n > max) {
    issues.push(`${key} must be an integer from ${min} to ${max} (got "${raw}")`);
    return dflt;
  }
  return n;
};

const oneOf = <T extends string>(key: string, allowed: readonly T[], dflt: T): T => {
  const raw = str(key);
  if (raw === undefined) return dflt;
  if (!(allowed as readonly string[]).includes(raw)) {
    issues.push(`${key} must be one of ${allowed.join(', ')} (got "${raw}")`);
    return dflt;
  }
  return raw as T;
};

/** A port number, `off` for none (null), or `on` for the default. */
const portOrOff = (key: string, dflt: number): number | null => {
  const raw = str(key)?.toLowerCase();
  if (raw === 'off') return null;
  if (raw === undefined || raw === 'on') return dflt;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1 || n > 65535) {
    issues.push(`${key} must be a port number from 1 to 65535, \`on\` or \`off\` (got "${raw}")`);
    return dflt;
  }
  return n;
};

/** Jellyfin's apps compare versions as three numbers (a fourth is allowed). */
const VERSION = /^\d{1,4}\.\d{1,4}\.\d{1,4}(?:\.\d{1,4})?$/u;

const url = (key: string, dflt?: string): string | undefined => {
  const raw = str(key) ?? dflt;
  if (raw === undefined) return undefined;
  try {
    return new URL(raw).toString().replace(/\/$/, '');
  } catch {
    issues.push(`${key} must be an absolute URL (got "${raw}")`);
    return dflt;
  }
};

export type { Mode } from './runtime';
export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** DynamoDB Local accepts any credentials, but the SDK insists on some. */
// Not frozen: the SDK marks credential objects it is given.
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * The box's own host names, for same-origin requests (lib/http/origin.ts): ALLOWED_HOSTS
 * (comma-separated names, no scheme or port) and the machine's name, bare and under .local.
 */
const boxHosts = (): string[] => {
  const listed = (str('ALLOWED_HOSTS') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  const bad = listed.filter((h) => !/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(h));
  if (bad.length) issues.push(`ALLOWED_HOSTS must be host names without scheme or port (got ${bad.map((h) => `"${h}"`).join(', ')})`);
  const machine = hostname().toLowerCase();
  return [...new Set([...listed.filter((h) => !bad.includes(h)), machine, `${machine}.local`])];
};

const runtime = readRuntime(process.env, issues);
const { mode, dataDir, dynamodbEndpoint } = runtime;
const cloudWatchLogsEndpoint = url('CLOUDWATCH_LOGS_ENDPOINT');
const ssmEndpoint = url('SSM_ENDPOINT');

/** ffmpeg, for embedded subtitles and conversions: a name on PATH, an absolute path, or `off`. */
const FFMPEG = str('FFMPEG_PATH') ?? 'ffmpeg';
const CORES = availableParallelism();

export const config = Object.freeze({
  version: pkg.version,
  /** When the service (not this process) started: the local runner says it to its children. */
  startedAt: runtime.serviceStartedAt ?? Date.now() - process.uptime() * 1000,
  mode,
  /** What the origin rules need: the mode, and the names the box answers on besides its addresses. */
  http: Object.freeze({ mode, boxHosts: Object.freeze(boxHosts()) }),
  port: int('PORT', 3000, 1, 65535),
  host: str('HOST') ?? '0.0.0.0',
  dataDir,
  /** Where the local runner collects JSON log lines; unset in the cloud, where logs go to CloudWatch. */
  logDir: runtime.logDir,
  /** In the cloud, without LOG_DIR: the one CloudWatch Logs group every function of the stack logs into. */
  cloudWatchLogs: Object.freeze({
    logGroup: str('LOG_GROUP'),
    /** A local stand-in for CloudWatch Logs; unset for AWS. */
    endpoint: cloudWatchLogsEndpoint,
    localCredentials: cloudWatchLogsEndpoint && !str('AWS_ACCESS_KEY_ID') ? LOCAL_CREDENTIALS : undefined,
  }),
  logLevel: oneOf<LogLevel>('LOG_LEVEL', LOG_LEVELS, 'info'),
  db: Object.freeze({
    tableName: runtime.tableName,
    endpoint: dynamodbEndpoint,
    region: str('AWS_REGION') ?? 'us-east-1',
    localCredentials: dynamodbEndpoint && !str('AWS_ACCESS_KEY_ID') ? LOCAL_CREDENTIALS : undefined,
  }),
  rateLimit: Object.freeze({
    max: int('RATE_LIMIT_MAX', 100),
    windowMs: int('RATE_LIMIT_WINDOW_MS', 900_000, 1000),
    /**
     * Where requests are counted: `table` (shared by every process and instance) or `edge`,
     * where the local front door counts them and the handlers do not (the runner says so when
     * its instance owns the embedded database, so no other instance shares the count).
     */
    at: runtime.rateLimitAt,
    /** RATE_LIMIT_AT as set for the runner, which otherwise chooses by where the database is. */
    chosen: str('RATE_LIMIT_AT') === undefined ? undefined : runtime.rateLimitAt,
  }),
  tmdb: Object.freeze({
    apiKey: str('TMDB_API_KEY'),
    /** In the cloud: the SSM SecureString parameter that holds the key (read when TMDB_API_KEY is unset). */
    apiKeyParameter: str('TMDB_API_KEY_PARAMETER'),
    /** A local stand-in for SSM; unset for AWS. */
    ssmEndpoint,
    ssmLocalCredentials: ssmEndpoint && !str('AWS_ACCESS_KEY_ID') ? LOCAL_CREDENTIALS : undefined,
    apiBaseUrl: url('TMDB_API_BASE_URL', TMDB_DEFAULTS.baseUrl)!,
    imageBaseUrl: url('TMDB_IMAGE_BASE_URL', TMDB_DEFAULTS.imageBaseUrl)!,
    /** The provider's documented pace is about 40-50 requests/s; the client keeps under this. */
    requestsPerSecond: int('TMDB_REQUESTS_PER_SECOND', TMDB_DEFAULTS.requestsPerSecond, 1, 1000),
    timeoutMs: int('TMDB_TIMEOUT_MS', TMDB_DEFAULTS.timeoutMs, 100, 120_000),
  }),
  mediaStorage: oneOf('MEDIA_STORAGE', ['local', 's3'] as const, 'local'),
  /** With MEDIA_STORAGE=s3: libraries are `s3://bucket/prefix` locations. */
  s3: Object.freeze({
    /** Another S3-API server (s3rver, MinIO); unset for AWS. */
    endpoint: url('S3_ENDPOINT'),
    /** When set, the only bucket libraries may live in. */
    bucket: str('MEDIA_BUCKET'),
    /**
     * Artwork answers larger than this leave as a 302 to a presigned URL of the stored variant
     * rather than in the function's response (Lambda carries about 4.5 MB of binary, base64);
     * 0 redirects every answer, which a wall of posters measured slower (docs/benchmarks-history.md).
     */
    artworkRedirectAboveBytes: int('ARTWORK_REDIRECT_ABOVE_BYTES', 4 * 1024 * 1024, 0, 4 * 1024 * 1024),
    /** How long a presigned artwork URL lives; a redirect to it is cached a minute less. */
    artworkUrlSeconds: int('ARTWORK_URL_TTL_SECONDS', 3600, 120, 7 * 24 * 3600),
  }),
  /** How the handlers are hosted (lib/runtime.ts): one shared process at home, Lambdas in the cloud. */
  hosting: runtime.hosting,
  /** Where WebSocket messages are posted (API Gateway management API, or offline's WebSocket port). */
  wsManagementEndpoint: runtime.wsManagementEndpoint,
  /** How stream bytes leave (lib/stream/deliver.ts). */
  stream: Object.freeze({
    /**
     * Bytes the service sends go `inline` in the response (Lambda alone: 4 MiB at most), or
     * through the `front-door`, where the handler names the file and byte range and the local
     * front door sends them itself (the runner says so).
     */
    delivery: runtime.streamDelivery,
    /** With MEDIA_STORAGE=s3: how long a presigned stream URL lives, long enough for a paused film, short enough to leak little. */
    urlSeconds: int('STREAM_URL_TTL_SECONDS', 4 * 3600, 60, 7 * 24 * 3600),
  }),
  subtitles: Object.freeze({
    ffmpeg: FFMPEG,
    /** A subtitle request waits this long for an extraction, then answers 503 with Retry-After while it carries on. */
    extractWaitMs: int('SUBTITLE_EXTRACT_WAIT_MS', 15_000, 0, 120_000),
    /** An extraction (a whole file read once) is stopped after this long. */
    extractTimeoutMs: int('SUBTITLE_EXTRACT_TIMEOUT_MS', 10 * 60_000, 1_000, 3_600_000),
  }),
  /** Conversions while a file is watched (docs/playback-design.md); the figures are this box's by measurement. */
  playback: Object.freeze({
    ffmpeg: FFMPEG,
    /** Transcodes at once: two 1080p run faster than real time on 2 cores, three do not. */
    maxTranscodes: int('PLAYBACK_MAX_TRANSCODES', CORES, 0, 64),
    /** Remuxes at once: a 6 s segment costs 0.2-0.5 s of one core. */
    maxRemuxes: int('PLAYBACK_MAX_REMUXES', CORES * 4, 0, 256),
    /** A session nobody asked anything of for this long ends, and its files go. */
    idleSeconds: int('PLAYBACK_IDLE_SECONDS', 60, 5, 3600),
    /** Segments kept per session (the least recently asked for go first) ... */
    sessionSegments: int('PLAYBACK_SESSION_SEGMENTS', 12, 2, 10_000),
    /** ... and in all, under DATA_DIR/playback. */
    cacheBytes: int('PLAYBACK_CACHE_MIB', 2048, 16, 1 << 20) * 1024 * 1024,
    /** Transcodes send no taller picture than this unless the client asks for less. */
    maxHeight: int('PLAYBACK_MAX_HEIGHT', 1080, 144, 4320),
    /** x264's preset: veryfast made 1080p at 1.86x real time here, a segment at a time. */
    preset: oneOf('PLAYBACK_X264_PRESET', ['ultrafast', 'superfast', 'veryfast', 'faster', 'fast', 'medium'] as const, 'veryfast'),
    /** One segment's run is stopped after this long (the function answers 504 and the player asks again). */
    segmentTimeoutMs: int('PLAYBACK_SEGMENT_TIMEOUT_MS', 25_000, 1_000, 120_000),
  }),
  scan: Object.freeze({
    /** Offline's Lambda port locally; unset in the cloud (the SDK's own endpoint). */
    lambdaEndpoint: runtime.lambdaEndpoint,
    workerFunction: str('SCAN_WORKER_FUNCTION') ?? 'media-library-local-scanWorker',
    /** At most this long per worker invocation before it checkpoints and re-invokes itself (0: until near its timeout). */
    sliceMs: int('SCAN_SLICE_MS', 0, 0),
    /** Discovery of a folder ends the job failed past this many directory entries (any kind) ... */
    maxEntries: int('SCAN_MAX_ENTRIES', 1_000_000, 100),
    /** ... or folders this deep below the library's root. */
    maxDepth: int('SCAN_MAX_DEPTH', 64, 2, 1_000),
  }),
  /** The disk holding DATA_DIR (docs/running-at-home.md, "When the disk fills"). */
  disk: Object.freeze({
    /** Free space is low below the smaller of these: health says degraded, caches give their space back. */
    lowBelow: Object.freeze({ bytes: int('DISK_LOW_MIB', 500, 1, 1 << 20) * 1024 * 1024, percent: int('DISK_LOW_PERCENT', 1, 0, 50) }),
    /** How often the runner looks at the free space. */
    checkMs: int('DISK_CHECK_MS', 2_000, 100, 60_000),
    /**
     * Kept in DATA_DIR and given up when the disk fills, so the service can still record that it
     * did (0: none). Only with the embedded database: the runner that starts it keeps the reserve.
     */
    reserveBytes: int('DISK_RESERVE_MIB', 8, 0, 1024) * 1024 * 1024,
    /** Where the embedded database keeps its files (the runner says so); unset when the database is elsewhere. */
    databaseDir: runtime.databaseDir,
  }),
  /** The Jellyfin door (docs/jellyfin.md): the port Jellyfin's apps connect to, and what it says it is. */
  jellyfin: Object.freeze({
    /** The door's port; null: no door. */
    port: portOrOff('JELLYFIN_PORT', 8096),
    /** The UDP port that answers the apps' discovery datagrams; null: none. */
    discoveryPort: portOrOff('JELLYFIN_DISCOVERY', 7359),
    serverName: str('JELLYFIN_SERVER_NAME') ?? hostname(),
    version: (() => {
      const raw = str('JELLYFIN_VERSION') ?? '10.11.11';
      if (VERSION.test(raw)) return raw;
      issues.push(`JELLYFIN_VERSION must be a version like 10.11.11 (got "${raw}")`);
      return '10.11.11';
    })(),
    /** A build of Jellyfin's web client to serve at /web on the door; unset: none. */
    webDir: str('JELLYFIN_WEB_DIR'),
  }),
  /** The runner's folder monitor and schedule (infra/runner/monitor/, its rules in lib/scan/monitor-rules.ts). */
  monitor: Object.freeze({
    /** Off: no folder is watched and no schedule runs in this instance (a test stack sharing folders with its tests). */
    enabled: oneOf('LIBRARY_MONITOR', ['on', 'off'] as const, 'on') === 'on',
    /** How often the schedule is checked, the libraries to watch read again and their roots looked at (at once after a library is created or changed). */
    tickMs: int('MONITOR_TICK_MS', 10_000, 200),
    /** Changes are scanned once their folder has been quiet this long (and no changed file is still growing). */
    quietMs: int('MONITOR_QUIET_MS', 3_000, 100),
  }),
});

export type Config = typeof config;

if (issues.length) throw new Error(`Invalid configuration: ${issues.join('; ')}`);
