// The error catalogue. Each error has a stable code that becomes the problem `type`
// (`/problems/<code>`, listed in the OpenAPI document), a status and a human `detail`.
// Only lib/http/problem.ts turns these into response bodies.

export interface FieldIssue {
  field: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    detail: string,
    readonly fields?: FieldIssue[],
    options?: ErrorOptions,
  ) {
    super(detail, options);
    this.name = new.target.name;
  }
}

/**
 * Where a code is sent: in an HTTP problem body, as a scan job's `error.code` (and in
 * `scan:error`), or both. A job-only code's status is what it would mean over HTTP.
 */
export type ProblemScope = 'http' | 'job' | 'both';

/** Every problem code the service can send, over HTTP or in a job: code -> [status, title, scope]. */
export const PROBLEMS = {
  'invalid-request': [400, 'Invalid request'],
  'malformed-json': [400, 'Malformed JSON body'],
  'origin-not-allowed': [403, 'Origin not allowed'],
  'not-found': [404, 'Not found'],
  'route-not-found': [404, 'Route not found'],
  'method-not-allowed': [405, 'Method not allowed'],
  'job-state-conflict': [409, 'The scan job is not in a state that allows this'],
  'scan-already-running': [409, 'A scan of that library is already running'],
  'library-exists': [409, 'A library already covers that path'],
  'name-taken': [409, 'That name is taken'],
  'default-profile': [409, "The household's profile cannot be deleted"],
  'body-too-large': [413, 'Request body too large'],
  'range-not-satisfiable': [416, 'Range not satisfiable'],
  'unsupported-media-type': [415, 'Unsupported media type'],
  'headers-too-large': [431, 'Request headers too large'],
  'path-not-usable': [422, 'The path cannot be used'],
  'media-type-mismatch': [422, 'The media type does not match the library'],
  unplayable: [422, 'The file cannot be played'],
  'unknown-provider-id': [422, 'The metadata provider has no such record'],
  'provider-not-configured': [409, 'No metadata provider is set up'],
  'provider-unavailable': [424, 'The metadata provider did not answer'],
  'rate-limited': [429, 'Too many requests'],
  internal: [500, 'Internal server error', 'both'],
  'dependency-unavailable': [503, 'A dependency is unavailable', 'both'],
  'gateway-timeout': [504, 'The request took too long'],
  'media-offline': [503, 'The media is offline'],
  'subtitle-pending': [503, 'The subtitle track is still being extracted'],
  'playback-busy': [503, 'Every conversion the server can run at once is running'],
  'conversion-unavailable': [501, 'This server cannot convert media'],
  'disk-full': [507, "The disk holding the service's data is full", 'both'],
  // A scan job's own failures (`error.code` of a failed job, and `scan:error`).
  'library-gone': [410, 'The library was deleted during the scan', 'job'],
  'path-not-found': [422, 'The scanned folder cannot be read any more', 'job'],
  'path-outside-library': [422, 'The scanned folder is not inside its library', 'job'],
  'worker-unavailable': [503, 'The scan worker could not be started', 'job'],
  'scan-too-large': [422, 'The folder holds more entries than a scan walks', 'job'],
  'scan-too-deep': [422, 'The folder nests deeper than a scan walks', 'job'],
  'library-offline': [503, "The library's folder is offline; nothing was removed", 'job'],
  'resume-limit': [500, 'The scan kept stopping the service and is no longer resumed by itself', 'job'],
} as const satisfies Record<string, readonly [number, string, ProblemScope?]>;

export const scopeOf = (code: ProblemCode): ProblemScope => (PROBLEMS[code] as readonly [number, string, ProblemScope?])[2] ?? 'http';

/** The codes a scan job's `error` may carry. */
export type JobErrorCode = {
  [K in ProblemCode]: (typeof PROBLEMS)[K] extends readonly [number, string, 'job' | 'both'] ? K : never;
}[ProblemCode];
export const JOB_ERROR_CODES = (Object.keys(PROBLEMS) as ProblemCode[]).filter((c): c is JobErrorCode => scopeOf(c) !== 'http');

/** A scan job's error: its code always comes from this catalogue. */
export interface JobError {
  code: JobErrorCode;
  message: string;
}

export type ProblemCode = keyof typeof PROBLEMS;

const problem = (code: ProblemCode, detail: string, fields?: FieldIssue[], options?: ErrorOptions) => {
  const [status, title] = PROBLEMS[code];
  return new AppError(status, code, title, detail, fields, options);
};

export const invalidRequest = (fields: FieldIssue[]) =>
  problem('invalid-request', fields.map((f) => `${f.field}: ${f.message}`).join('; '), fields);
export const malformedJson = () => problem('malformed-json', 'The request body is not valid JSON');
export const originNotAllowed = (origin: string) => problem('origin-not-allowed', `Requests from origin ${origin} are not allowed`);
export const notFound = (what: string) => problem('not-found', `${what} was not found`);
/** A 404 whose detail says why, where notFound's "<what> was not found" would not. */
export const notFoundBecause = (detail: string) => problem('not-found', detail);
export const routeNotFound = (method: string, path: string) => problem('route-not-found', `No route for ${method} ${path}`);
export const methodNotAllowed = (method: string, path: string, allowed: string[]) =>
  Object.assign(problem('method-not-allowed', `${method} is not allowed on ${path}; use ${allowed.join(', ')}`), {
    allowed,
  });
export const jobStateConflict = (jobId: string, status: string, action: string) =>
  problem('job-state-conflict', `Scan job ${jobId} is ${status}: it cannot ${action}`);
export const jobChanged = (jobId: string) =>
  problem('job-state-conflict', `Scan job ${jobId} was changed by another writer meanwhile; read it again`);
export const scanAlreadyRunning = (path: string) =>
  problem('scan-already-running', `A scan of the library holding ${path} is already queued or running`);
export const libraryExists = (path: string, existing: string) =>
  problem('library-exists', path === existing ? `A library for ${path} already exists` : `${path} overlaps the library at ${existing}`);
export const pathNotUsable = (path: string, why: string) => problem('path-not-usable', `${path} ${why}`);
export const mediaTypeMismatch = (libraryId: string, has: string, asked: string) =>
  problem(
    'media-type-mismatch',
    `Library ${libraryId} holds ${has === 'movie' ? 'movies' : 'TV shows'}, not ${asked === 'movie' ? 'movies' : 'TV shows'}`,
  );
export const bodyTooLarge = (limitBytes: number) => problem('body-too-large', `The request body is larger than ${limitBytes} bytes`);
export const unsupportedMediaType = (got: string, why?: string) =>
  problem('unsupported-media-type', `Expected an application/json body, got ${got || 'no content type'}${why ? `: ${why}` : ''}`);
export const rateLimited = (retryAfterSeconds: number) =>
  Object.assign(problem('rate-limited', `Rate limit reached; retry in ${retryAfterSeconds} s`), { retryAfterSeconds });
export const rangeNotSatisfiable = (size: number) =>
  Object.assign(problem('range-not-satisfiable', `The requested range is outside the file (${size} bytes)`), {
    contentRange: `bytes */${size}`,
  });
export const dependencyUnavailable = (dependency: string, cause?: unknown) =>
  Object.assign(problem('dependency-unavailable', `The ${dependency} is unavailable; try again shortly`, undefined, { cause }), {
    dependency,
  });

/** The database (not another dependency) could not be reached: worth waiting for. */
export const isDatabaseDown = (err: unknown) => err instanceof AppError && (err as { dependency?: string }).dependency === 'database';

export const serviceStarting = () =>
  Object.assign(problem('dependency-unavailable', 'The service is starting; try again in a few seconds'), { retryAfterSeconds: 2 });

export const headersTooLarge = (limitBytes: number) =>
  problem('headers-too-large', `The request line and headers are larger than ${limitBytes} bytes`);
export const unreadableRequest = () =>
  invalidRequest([
    { field: 'request', message: 'is not a well-formed HTTP request (bytes outside ASCII in the target, conflicting lengths ...)' },
  ]);
/** The file's library folder is missing, unreadable or empty (an unmounted disk, a sleeping NAS): it may come back. */
export const mediaOffline = (what: string, retryAfterSeconds = 60) =>
  Object.assign(problem('media-offline', `${what} is on a disk or share that is offline; try again when it is back`), {
    retryAfterSeconds,
  });
export const subtitlePending = (what: string, retryAfterSeconds: number) =>
  Object.assign(problem('subtitle-pending', `${what} is being taken out of the video file; ask again in a few seconds`), {
    retryAfterSeconds,
  });
/** A file ffmpeg cannot read (damaged, truncated, not media after all), with its reason. */
export const unplayable = (what: string, reason: string) => problem('unplayable', `${what} cannot be played: ${reason}`);
/** Every conversion slot of that kind is taken: the client may try again shortly. */
export const playbackBusy = (kind: 'remux' | 'transcode', running: number, retryAfterSeconds = 15) =>
  Object.assign(
    problem(
      'playback-busy',
      `The server is already converting ${running} ${kind === 'transcode' ? 'videos' : 'files'} for other players, as many as it can at once; try again in a moment`,
    ),
    { retryAfterSeconds },
  );
export const conversionUnavailable = (reason: string) =>
  problem('conversion-unavailable', `This file must be converted for this player, and ${reason}`);
/** A write that found no room on the disk holding `dir` (DATA_DIR): nothing was written; reads go on working. */
export const diskFull = (dir: string, retryAfterSeconds = 60) =>
  Object.assign(
    problem('disk-full', `The disk holding ${dir} is full: nothing was written. Reading still works; free some space on it and try again`),
    { retryAfterSeconds, dir },
  );
export const isDiskFull = (err: unknown) => err instanceof AppError && err.code === 'disk-full';

export const nameTaken = (name: string) =>
  problem('name-taken', `A profile named ${name} exists already (names are compared without case)`);
export const defaultProfileProtected = () =>
  problem('default-profile', "The household's profile (default) is always there: it can be renamed, not deleted");
/** Fixing a match: what the provider could not do. None is a 5xx: the service itself is fine. */
export const unknownProviderId = (kind: 'movie' | 'tvshow', tmdbId: number) =>
  problem('unknown-provider-id', `TMDB has no ${kind === 'movie' ? 'movie' : 'TV show'} with id ${tmdbId}`);
export const providerNotConfigured = (why: string) =>
  problem('provider-not-configured', `Matches come from TMDB, and ${why}: set a TMDB API key in settings (tmdbApiKey) or TMDB_API_KEY`);
export const providerUnavailable = (retryAfterSeconds = 30) =>
  Object.assign(
    problem('provider-unavailable', 'TMDB did not answer (down, unreachable or rate limiting); nothing was changed. Try again in a moment'),
    { retryAfterSeconds },
  );

export const gatewayTimeout = () => problem('gateway-timeout', 'The function did not answer in time; the request may be retried');

/** An untyped error: rendered as a bare 500, never with its message. */
export const internal = () => problem('internal', 'An unexpected error occurred');
