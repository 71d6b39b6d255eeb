// Every operation of the contract, once. Handlers validate against these definitions, the
// OpenAPI document is rendered from them, and the catch-all route answers 404/405/501 from
// them, so the docs, the routing and the behaviour cannot drift apart.
import { Type } from '@sinclair/typebox';
import { matchingOperations } from './matching-operations';
import { op, pathParams, type OperationDef } from './operation-def';
import * as S from './schemas';
import { watchingOperations } from './watching-operations';

export type { HttpMethod, OperationDef } from './operation-def';

/** The movie and show lists' two ways of answering (the contract's "Browsing the whole library"). */
const BROWSING =
  'With none of `sort`, `order`, `genre`, `yearFrom`, `yearTo`, `letter`, `played`, `libraryId`, `collectionId`: the most recently added first, `meta.total` counting the titles the libraries hold, kept current as a scan writes them (with `matched`, those matched, or not, now). ' +
  'With any of them: every title the filters keep (all must match), in the order asked for, `meta.total` counting them now. Titles without the sorted value (no year, rating or release date; never played) come last in either order; ties go by year, then id. ' +
  'Follow `meta.nextCursor` for the next page: it names the last title\'s place in the order, so paging while a scan adds titles neither repeats nor skips one. A cursor of another list, sort or order is a 400.';
const FACETS =
  'The same filters as the list. Genres by count (most first), then name; years newest first (titles without one are not counted there); letters A to Z, then `#`. With `played`, for `profileId`.';
const movieMatching = matchingOperations('movie');
const showMatching = matchingOperations('tvshow');

export const operations = {
  search: op({
    id: 'search', method: 'GET', path: '/api/v1/search', tag: 'search', counted: true, handler: 'functions/search/get.handler',
    summary: 'Search movies and shows by title, original and alternative titles, and people',
    description:
      'Searches each item\'s title, its original title, the other titles the provider knows it by, and its people (directors, a show\'s creators, the first five billed cast); a query matches one of these at a time. ' +
      'Case- and accent-insensitive; matches any word prefix ("dark kni" finds "The Dark Knight", "nolan" finds Christopher Nolan\'s films). ' +
      'Forgives typos: a word of 4 to 7 letters matches words within one edit, 8 or more within two (a swap of two letters is one edit), the last word typed as a word prefix; shorter words stay exact. ' +
      'A four-digit year names the items from that year, which come first ("heat 1995"); "&" reads as "and"; sequel numbers 2-20 match in either numerals ("rocky 2", "Rocky II"); a leading article may be left out ("matrix" is the whole title "The Matrix"). ' +
      'Best match first: matches as typed before matches with typos; within each, any title match before any person match; then items from a year the query names; then the whole text, the start of it, every word in any order (with typos: the whole text within one edit, within two, the words within theirs); at one level a title before an original title before an alternative one; then the most recent. ' +
      'Each hit says what it matched (`matchedOn`, `matchedText`), so a client can show "Amélie: original title Le Fabuleux Destin d\'Amélie Poulain".',
    query: S.SearchQuery,
    success: { status: 200, description: 'Hits, best first', schema: Type.Array(S.SearchHit), list: true },
  }),
  listMovies: op({
    id: 'listMovies', method: 'GET', path: '/api/v1/movies', tag: 'movies', counted: true, handler: 'functions/catalog/api.listMovies',
    summary: 'Movies: the most recently added first, or every one sorted and filtered', query: S.MovieListQuery,
    description: BROWSING,
    success: { status: 200, description: 'A page of movies, each `{ id, type, media }` as a search hit', schema: Type.Array(S.MediaEntry), list: true },
  }),
  movieFacets: op({
    id: 'movieFacets', method: 'GET', path: '/api/v1/movies/facets', tag: 'movies', counted: true, handler: 'functions/catalog/api.movieFacets',
    summary: 'The genres, years and letters of the movies the filters keep, with how many have each', query: S.MovieFacetsQuery,
    description: FACETS,
    success: { status: 200, description: 'The counts', schema: S.Facets },
  }),
  getMovie: op({
    id: 'getMovie', method: 'GET', path: '/api/v1/movies/{movieId}', tag: 'movies', counted: true, handler: 'functions/catalog/api.getMovie',
    summary: 'One movie with its file and stream URL', params: pathParams(['movieId']), query: S.ProfileQuery, errors: [404],
    success: { status: 200, description: 'The movie', schema: S.MovieDetail },
  }),
  listShows: op({
    id: 'listShows', method: 'GET', path: '/api/v1/tvshows', tag: 'tvshows', counted: true, handler: 'functions/catalog/api.listShows',
    summary: 'TV shows: the most recently added first, or every one sorted and filtered', query: S.ShowListQuery,
    description: `${BROWSING} A show counts as played when every episode of it is, and its lastPlayed is when one of them last was.`,
    success: { status: 200, description: 'A page of shows, each `{ id, type, media }` as a search hit', schema: Type.Array(S.MediaEntry), list: true },
  }),
  showFacets: op({
    id: 'showFacets', method: 'GET', path: '/api/v1/tvshows/facets', tag: 'tvshows', counted: true, handler: 'functions/catalog/api.showFacets',
    summary: 'The genres, years and letters of the shows the filters keep, with how many have each', query: S.ShowFacetsQuery,
    description: FACETS,
    success: { status: 200, description: 'The counts', schema: S.Facets },
  }),
  getShow: op({
    id: 'getShow', method: 'GET', path: '/api/v1/tvshows/{showId}', tag: 'tvshows', counted: true, handler: 'functions/catalog/api.getShow',
    summary: 'One show with its seasons and episodes in order', params: pathParams(['showId']), query: S.ProfileQuery, errors: [404],
    success: { status: 200, description: 'The show', schema: S.ShowDetail },
  }),
  listCollections: op({
    id: 'listCollections', method: 'GET', path: '/api/v1/collections', tag: 'movies', counted: true, handler: 'functions/collections/api.listCollections',
    summary: 'Film collections with at least one film here, by name',
    description: 'Collections come from the provider\'s `belongs_to_collection` of each film, and from an NFO\'s `<set>` that names the provider\'s collection id (`tmdbcolid`; a set without one is left out): kept by that id, never by name. Names file as titles do ("The Godfather Collection" under G). `owned` counts its films here (two copies of a film once), `total` its parts: the films the provider lists in it, and any here it does not list. Each collection\'s parts are asked of the provider once, when a scan first describes one of its films; again when one describes another of its films once that copy is a week old, or when one of its films is refreshed.',
    success: { status: 200, description: 'The collections', schema: Type.Array(S.CollectionSummary) },
  }),
  getCollection: op({
    id: 'getCollection', method: 'GET', path: '/api/v1/collections/{collectionId}', tag: 'movies', counted: true, handler: 'functions/collections/api.getCollection',
    summary: 'One film collection with every part, owned or missing, in release order',
    description: 'A missing part has `owned: false` and `id` and `media` null; a part here has the film\'s `id` and `media` as lists show it. Until the provider has been asked (no key), only the films here are listed. 400 for an id that is not a positive integer; 404 when no film here is in the collection.',
    params: S.CollectionParams, errors: [400, 404],
    success: { status: 200, description: 'The collection', schema: S.CollectionDetail },
  }),
  stream: op({
    id: 'stream', method: 'GET', path: '/api/v1/stream/{mediaId}', tag: 'stream', counted: false, handler: 'functions/stream/get.handler', sendsFile: true,
    summary: "A movie's or episode's file bytes, with HTTP range support",
    description: 'One range per request (RFC 9110): `bytes=a-b`, `bytes=a-`, `bytes=-n` answer 206 with Content-Range; when several ranges are asked for, the first is answered. A malformed Range header or another unit is ignored (200, the whole file). If-Range with the ETag or Last-Modified of another version gives the whole file. If-None-Match (or If-Modified-Since) with the current version gives 304. A range outside the file: 416 with `Content-Range: bytes */SIZE`. A stacked movie streams part 1 unless `part` names another. With media in a bucket (MEDIA_STORAGE=s3) the answer is a 307 to a presigned URL of the object (STREAM_URL_TTL_SECONDS, default 4 h), which S3 serves with the same range semantics. A file whose library folder is offline (missing, unreadable or empty: an unmounted disk, a sleeping NAS) answers 503 media-offline with Retry-After, not 404: it may come back. Not counted by the rate limit.',
    params: pathParams(['mediaId']), query: S.StreamQuery, errors: [304, 307, 404, 416],
    success: { status: 200, description: 'The whole file, or 206 with one range', contentType: 'application/octet-stream' },
  }),
  streamHead: op({
    id: 'streamHead', method: 'HEAD', path: '/api/v1/stream/{mediaId}', tag: 'stream', counted: false, handler: 'functions/stream/get.head', sendsFile: true,
    summary: 'Headers of the stream: size, type, ETag', params: pathParams(['mediaId']), query: S.StreamQuery, errors: [304, 307, 404, 416],
    success: { status: 200, description: 'Headers only' },
  }),
  startScan: op({
    id: 'startScan', method: 'POST', path: '/api/v1/scan/path', tag: 'scan', counted: true, handler: 'functions/scan/api.start',
    summary: 'Scan a folder (runs asynchronously)', body: S.ScanRequest, bodyRequired: true, errors: [404, 409, 422],
    description: 'The path must be an absolute, readable directory on the server, or with MEDIA_STORAGE=s3 an `s3://bucket/prefix` location with objects below it (else 422 path-not-usable). Never the filesystem\'s root, a system filesystem (`/proc`, `/sys`, `/dev`, `/run`, anything mounted as proc, sysfs, devtmpfs, cgroup, tmpfs under /run ...) or a folder inside one, and never the service\'s data folder (DATA_DIR), a folder inside it or one holding it: 422 path-not-usable with the reason. Discovery follows links to folders once, never back into the library, to a folder holding it or into the places above; a tree of more than SCAN_MAX_ENTRIES entries or deeper than SCAN_MAX_DEPTH folders ends the job `failed` (`scan-too-large`, `scan-too-deep`). Without `libraryId` the library whose folder holds the path is used, else a library is created for the path (`library:created`). A path inside a library scans only that folder: its items are added, updated or removed, the rest of the library is left alone. One scan per library at a time: 409 scan-already-running. Progress goes out on `/ws` as `scan:progress`, then `scan:complete` or `scan:error`. In the job, `discovered` and `processed` count video files; `added`, `updated` and `removed` count catalogue items (movies, shows, episodes); `failed` counts files whose names could not be read.',
    success: { status: 202, description: 'The queued job', schema: S.ScanJob },
  }),
  listJobs: op({
    id: 'listJobs', method: 'GET', path: '/api/v1/scan/jobs', tag: 'scan', counted: true, handler: 'functions/scan/api.jobs',
    summary: 'Scan jobs, newest first', query: S.JobsQuery,
    description: 'The 100 most recent jobs.',
    success: { status: 200, description: 'Jobs', schema: Type.Array(S.ScanJob), list: true },
  }),
  getJob: op({
    id: 'getJob', method: 'GET', path: '/api/v1/scan/jobs/{jobId}', tag: 'scan', counted: true, handler: 'functions/scan/api.job',
    summary: 'One scan job', params: pathParams(['jobId']), errors: [404],
    success: { status: 200, description: 'The job', schema: S.ScanJob },
  }),
  resumeJob: op({
    id: 'resumeJob', method: 'POST', path: '/api/v1/scan/jobs/{jobId}/resume', tag: 'scan', counted: true, handler: 'functions/scan/api.resume',
    summary: 'Resume an interrupted or failed job from its checkpoint', params: pathParams(['jobId']), errors: [404, 409],
    success: { status: 202, description: 'The resumed job', schema: S.ScanJob },
  }),
  cancelJob: op({
    id: 'cancelJob', method: 'POST', path: '/api/v1/scan/jobs/{jobId}/cancel', tag: 'scan', counted: true, handler: 'functions/scan/api.cancel',
    summary: 'Cancel a scan job', params: pathParams(['jobId']), errors: [404, 409],
    description: 'A running job is marked and ends `cancelled` at its next step (within a second or so), keeping every item it wrote; `scan:cancelled` goes out then. A queued, interrupted or failed job ends `cancelled` at once. A cancelled job is never resumed, automatically or by hand. A completed or already cancelled job: 409 job-state-conflict.',
    success: { status: 202, description: 'The job: `cancelled`, or still `running` until its worker reaches its next step', schema: S.ScanJob },
  }),
  cleanupJobs: op({
    id: 'cleanupJobs', method: 'POST', path: '/api/v1/scan/cleanup', tag: 'scan', counted: true, handler: 'functions/scan/api.cleanup',
    summary: 'Mark stale running jobs interrupted and remove old finished ones', body: S.CleanupRequest,
    description: 'Running jobs whose worker has not reported for `staleAfterSeconds` (default 120; 0 takes every running job for stale, what a client sends after a crash) become `interrupted` (a running job whose cancel was asked for ends `cancelled` instead, and is not counted); finished jobs older than 7 days are removed.',
    success: { status: 200, description: 'What was done', schema: Type.Object({ interrupted: Type.Integer(), removed: Type.Integer() }) },
  }),
  listLibraries: op({
    id: 'listLibraries', method: 'GET', path: '/api/v1/library', tag: 'library', counted: true, handler: 'functions/library/api.list',
    summary: 'Libraries', success: { status: 200, description: 'Libraries', schema: Type.Array(S.Library), list: true },
  }),
  createLibrary: op({
    id: 'createLibrary', method: 'POST', path: '/api/v1/library', tag: 'library', counted: true, handler: 'functions/library/api.create',
    summary: 'Create a library for a folder', body: S.LibraryCreate, bodyRequired: true, errors: [409, 422],
    description: 'The path is stored canonical (symlinks resolved). Never the filesystem\'s root, a system filesystem (`/proc`, `/sys`, `/dev`, `/run`, anything mounted as proc, sysfs, devtmpfs, cgroup, tmpfs under /run ...) or a folder inside one, and never the service\'s data folder (DATA_DIR), a folder inside it or one holding it: 422 path-not-usable with the reason. Libraries never overlap: the same folder, one inside an existing library or one holding it is 409 library-exists. Files are never written or removed.',
    success: { status: 201, description: 'The library', schema: S.Library },
  }),
  libraryStats: op({
    id: 'libraryStats', method: 'GET', path: '/api/v1/library/stats', tag: 'library', counted: true, handler: 'functions/library/api.stats',
    summary: 'Totals across libraries', success: { status: 200, description: 'Totals', schema: S.LibraryStats },
    description: '`totalDurationSeconds` sums the durations read from the files\' headers (files that could not be read count 0). Counts follow a running scan as it writes its items and reads their headers.',
  }),
  getLibrary: op({
    id: 'getLibrary', method: 'GET', path: '/api/v1/library/{libraryId}', tag: 'library', counted: true, handler: 'functions/library/api.get',
    summary: 'One library with its stats', params: pathParams(['libraryId']), errors: [404],
    description: '`itemCount` counts titles: movies and shows.',
    success: { status: 200, description: 'The library', schema: Type.Composite([S.Library, Type.Object({ stats: S.LibraryStats })]) },
  }),
  deleteLibrary: op({
    id: 'deleteLibrary', method: 'DELETE', path: '/api/v1/library/{libraryId}', tag: 'library', counted: true, handler: 'functions/library/api.remove',
    summary: 'Remove a library and its index entries (files on disk are never touched)', params: pathParams(['libraryId']), errors: [404],
    description: 'A scan of the library that is running is cancelled first (the answer waits for it to stop, at most about 15 s), then the library and its catalogue entries are removed.',
    success: { status: 204, description: 'Removed' },
  }),
  patchLibrary: op({
    id: 'patchLibrary', method: 'PATCH', path: '/api/v1/library/{libraryId}', tag: 'library', counted: true, handler: 'functions/library/api.patch',
    summary: "Change a library's name, rescan interval or monitoring", params: pathParams(['libraryId']), body: S.LibraryPatch, bodyRequired: true, errors: [404],
    description: 'A new `scanIntervalHours` counts from the last scan (`nextScanAt`); when that is already past, the schedule scans the library at once. 0 stops scheduled scans. `monitoring: false` stops watching the folder (changes are then found by the schedule or a manual scan).',
    success: { status: 200, description: 'The library after the update', schema: S.Library },
  }),
  getSettings: op({
    id: 'getSettings', method: 'GET', path: '/api/v1/settings', tag: 'settings', counted: true, handler: 'functions/settings/get.handler',
    summary: 'Settings (the TMDB key itself is never returned)',
    success: { status: 200, description: 'Settings', schema: S.Settings },
  }),
  patchSettings: op({
    id: 'patchSettings', method: 'PATCH', path: '/api/v1/settings', tag: 'settings', counted: true, handler: 'functions/settings/patch.handler',
    summary: 'Update part of the settings',
    description: 'A partial settings object; `metadata.tmdbApiKey` sets the key (null removes it). Unknown keys or wrong types: 400.',
    body: S.SettingsPatch, bodyRequired: true,
    success: { status: 200, description: 'Settings after the update', schema: S.Settings },
  }),
  listLogs: op({
    id: 'listLogs', method: 'GET', path: '/api/v1/logs', tag: 'logs', counted: true, handler: 'functions/logs/list.handler',
    summary: 'Recent log records, newest first, secrets redacted', query: S.LogsQuery,
    success: { status: 200, description: 'Log records', schema: Type.Array(S.LogRecord), list: true },
  }),
  health: op({
    id: 'health', method: 'GET', path: '/api/v1/health', tag: 'health', counted: false, handler: 'functions/health/get.handler',
    summary: 'Service health; 503 with the same body when the database is down',
    description: '`status` is `degraded` when the database is down (then the answer is 503) or when the disk holding the data folder is low on space (`disk.state` `low`, still 200: every read works, writes that find no room answer 507). `reasons` says why in words. The same state is pushed as `system:status` on /ws when it changes.',
    success: { status: 200, description: 'Healthy or degraded by a low disk (503 when the database is down)', schema: S.Health },
  }),
  artwork: op({
    id: 'artwork', method: 'GET', path: '/api/v1/artwork/{mediaId}/{kind}', tag: 'artwork', counted: false, handler: 'functions/artwork/get.handler',
    summary: 'Cached artwork, resized on demand',
    description: 'An item\'s poster or backdrop (movies, TV shows, and film collections under `co_<collection id>`) or still (episodes), from the artwork cache, resized to the snapped width `w` and encoded in the format `Accept` asks for: WebP or AVIF only when named (`image/webp`, `image/avif`; WebP first when both are equally wanted, as it is far cheaper to encode), else the stored image\'s own format when it is JPEG or PNG, else JPEG. Each variant is rendered once and cached. `ETag` names the exact bytes (a strong validator); `If-None-Match` with it gives 304. `Vary: Accept`. With `v` equal to the current version the answer may be cached for a year (`immutable`), else for a day. With the artwork cache in the media bucket (MEDIA_STORAGE=s3), an image larger than ARTWORK_REDIRECT_ABOVE_BYTES (default 4 MiB: more than a Lambda response can carry; 0 for every image) is answered with a 302 to a presigned URL of the stored variant instead, valid for ARTWORK_URL_TTL_SECONDS (default 1 h), with `Cache-Control: private` for a minute less and no ETag; `If-None-Match` is still answered 304 here. Smaller images are answered here, which a wall of posters measured faster than redirects. 404 for an unknown id, a kind the item does not have, an item without that artwork, or artwork no longer in the cache (a rescan stores it again). Not counted by the rate limit.',
    params: Type.Object({ mediaId: S.Id, kind: S.ArtworkKind }, { additionalProperties: false }),
    query: S.ArtworkQuery, errors: [302, 304, 404],
    success: { status: 200, description: 'Image bytes: WebP, AVIF, JPEG or PNG, by Accept', contentType: 'image/*' },
  }),
  subtitle: op({
    id: 'subtitle', method: 'GET', path: '/api/v1/subtitles/{mediaId}/{trackId}', tag: 'stream', counted: false, handler: 'functions/subtitles/get.handler',
    summary: 'A subtitle track as WebVTT',
    description: 'One of the tracks a movie\'s or an episode\'s details list in `subtitles`, by its `id`, as WebVTT (the format a browser\'s `<video>` plays through `<track>`). Subtitle files beside the video (SRT, WebVTT, ASS/SSA) are converted: timing, line breaks, italics, bold and underline kept, ASS styling stripped to the text, broken cues skipped; any encoding read (UTF-8 with or without BOM, UTF-16 LE/BE, else the legacy code page of the language the file\'s name gives, such as Windows-1251 for Russian or Shift_JIS for Japanese, and Windows-1252 without one). Text streams inside the video (SubRip, ASS/SSA, WebVTT, MP4 timed text) are taken out with ffmpeg on first request, all of a file\'s at once, and kept; while that runs longer than a few seconds the answer is 503 `subtitle-pending` with `Retry-After`. `offsetMs` shifts every cue (positive: later); a cue shifted before 0 starts at 0, one that ends before 0 is dropped. `ETag` names the source\'s version, the track and the offset; `If-None-Match` gives 304; `Cache-Control: private, no-cache`, since a subtitle file is edited in place to fix its timing. 404 for an unknown media or track id, and, with the reason, for a track listed with `url: null` (pictures: PGS, VobSub; or a stream inside the video where ffmpeg is not installed or the media is in a bucket) or a file gone since the scan. 503 `media-offline` when its disk is away. Not counted by the rate limit.',
    params: pathParams(['mediaId', 'trackId']), query: Type.Object({ offsetMs: Type.Optional(Type.Integer({ minimum: -3_600_000, maximum: 3_600_000, description: 'Milliseconds added to every cue\'s times, -1 h to +1 h' })) }, { additionalProperties: false }), errors: [304, 404, 503],
    success: { status: 200, description: 'The track as text/vtt; charset=utf-8', contentType: 'text/vtt' },
  }),
  playback: op({
    id: 'playback', method: 'POST', path: '/api/v1/playback/{mediaId}', tag: 'playback', counted: true, handler: 'functions/playback/api.start',
    summary: 'How to play a movie or an episode on this client: direct, or converted while it plays',
    description:
      'Decides from the technical info the scan read and what the client says it plays (`client`; without it, what every current browser plays: containers `mp4`, `webm`, `hls`; video `h264`, `vp9`, `av1`; audio `aac`, `mp3`, `opus`, `flac`). ' +
      '`direct` when the container, the video and the chosen audio track are all the client\'s (and within `maxHeight`/`maxAudioChannels`): `url` is the stream URL and nothing is started. ' +
      '`remux` when the video can be copied and only the container or the audio must change (audio to AAC stereo); `transcode` when the video must change too (to 8-bit H.264 no taller than `maxHeight`, 1080 at most by default). ' +
      'For both, `url` is an HLS playlist (MPEG-TS segments) of the whole duration, listed before anything is converted, so a player can seek anywhere at once: each segment is made when it is asked for (a remux segment in about half a second, a 6 s transcode segment in about 3 s on a 2-core box), cut at the file\'s keyframes for a remux. ' +
      '`reasons` say in words what did not fit. A session nobody asks anything of for PLAYBACK_IDLE_SECONDS (60) ends by itself and its files go; DELETE ends it at once. ' +
      'At most PLAYBACK_MAX_TRANSCODES transcodes (default: one per core) and PLAYBACK_MAX_REMUXES remuxes (four per core) run at once: one more gets 503 `playback-busy` with Retry-After. ' +
      'A file ffmpeg cannot read gets 422 `unplayable` with the reason, here when it is found out here, else from the playlist or segment. 501 `conversion-unavailable` where the server cannot convert (no ffmpeg; media in a bucket in the cloud). 503 `media-offline` when its disk is away.',
    params: pathParams(['mediaId']), body: S.PlaybackRequest, errors: [400, 404, 422, 501, 503],
    success: { status: 200, description: 'How to play it', schema: S.PlaybackInfo },
  }),
  playbackPlaylist: op({
    id: 'playbackPlaylist', method: 'GET', path: '/api/v1/playback/sessions/{sessionId}/index.m3u8', tag: 'playback', counted: false, handler: 'functions/playback/api.playlist',
    summary: "A conversion session's HLS playlist",
    description: 'An HLS VOD media playlist (version 3) listing every segment of the film with its duration; segment URIs are relative (`segments/<n>.ts`). Asking for it keeps the session alive, as asking for a segment does. 404 once the session has ended. Not counted by the rate limit.',
    params: pathParams(['sessionId']), errors: [404],
    success: { status: 200, description: 'The playlist', contentType: 'application/vnd.apple.mpegurl' },
  }),
  playbackSegment: op({
    id: 'playbackSegment', method: 'GET', path: '/api/v1/playback/sessions/{sessionId}/segments/{segment}', tag: 'playback', counted: false, handler: 'functions/playback/api.segment', sendsFile: true,
    summary: 'One segment of a conversion, made when first asked for',
    description: 'MPEG-TS (`video/mp2t`), made by one short ffmpeg run over its own time range the first time it is asked for, then kept for the session (PLAYBACK_SESSION_SEGMENTS per session, PLAYBACK_CACHE_MIB in all; the least recently asked for go first and are made again if asked for). Ranges are answered as for a stream. 404 for a segment past the end or a session that ended; 422 `unplayable` when ffmpeg cannot convert that part of the file; 504 when making it took longer than PLAYBACK_SEGMENT_TIMEOUT_MS (ask again). Not counted by the rate limit.',
    params: Type.Object({ sessionId: S.Id, segment: Type.String({ pattern: '^[0-9]{1,6}\\.ts$', description: '`<n>.ts`, 0-based' }) }, { additionalProperties: false }),
    errors: [404, 416, 422, 504],
    success: { status: 200, description: 'The segment', contentType: 'video/mp2t' },
  }),
  playbackEnd: op({
    id: 'playbackEnd', method: 'DELETE', path: '/api/v1/playback/sessions/{sessionId}', tag: 'playback', counted: false, handler: 'functions/playback/api.end',
    summary: 'End a conversion session now',
    description: 'The player closed: the session ends, its slot is free for another player, and its files go. 404 when it had already ended. Not counted by the rate limit.',
    params: pathParams(['sessionId']), errors: [404],
    success: { status: 204, description: 'Ended' },
  }),
  movieCandidates: movieMatching.candidates,
  matchMovie: movieMatching.match,
  unmatchMovie: movieMatching.unmatch,
  refreshMovie: movieMatching.refresh,
  showCandidates: showMatching.candidates,
  matchShow: showMatching.match,
  unmatchShow: showMatching.unmatch,
  refreshShow: showMatching.refresh,
  providerImage: op({
    id: 'providerImage', method: 'GET', path: '/api/v1/provider-images/{file}', tag: 'matching', counted: false, handler: 'functions/matching/api.providerImage',
    summary: "A candidate's poster, fetched from the provider by the service",
    description: 'The poster a candidate\'s `posterUrl` names, 185 px wide, fetched from the provider\'s image host by the service (a browser on the LAN may not reach it, and no key ever appears in a URL) and kept for a while in memory. `Cache-Control: public, max-age=86400`. 404 when the provider has no such image; 409 `provider-not-configured` or 424 `provider-unavailable` as for candidates. Not counted by the rate limit.',
    params: S.ProviderImageParams, errors: [404, 409, 424],
    success: { status: 200, description: 'The image (image/jpeg or image/png)', contentType: 'image/jpeg' },
  }),
  ...watchingOperations,
  docsPage: op({
    id: 'docsPage', method: 'GET', path: '/api/docs', tag: 'docs', counted: false, handler: 'functions/docs/get.page',
    summary: 'Interactive API documentation (works offline)', success: { status: 200, description: 'HTML page', contentType: 'text/html' },
  }),
  docsJson: op({
    id: 'docsJson', method: 'GET', path: '/api/docs.json', tag: 'docs', counted: false, handler: 'functions/docs/get.json',
    summary: 'This OpenAPI document', success: { status: 200, description: 'OpenAPI 3.1 document', contentType: 'application/json' },
  }),
  docsAsset: op({
    id: 'docsAsset', method: 'GET', path: '/api/docs/{asset}', tag: 'docs', counted: false, handler: 'functions/docs/get.asset', undocumented: true,
    summary: 'Assets of the docs page', params: Type.Object({ asset: Type.String({ pattern: '^[A-Za-z0-9._-]+$' }) }), errors: [404],
    success: { status: 200, description: 'A static asset' },
  }),
} as const satisfies Record<string, OperationDef>;

export type OperationId = keyof typeof operations;
export const allOperations: OperationDef[] = Object.values(operations);

