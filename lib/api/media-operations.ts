// What plays and shows: streams, artwork, subtitles, playback (the registry: lib/api/operations.ts).
import { Type } from '@sinclair/typebox';
import { op, pathParams } from './operation-def';
import * as S from './schemas';

/** Files sent as they are: a stream and its HEAD. */
export const streamOperations = {
  stream: op({
    id: 'stream',
    method: 'GET',
    path: '/api/v1/stream/{mediaId}',
    tag: 'stream',
    counted: false,
    handler: 'functions/stream/get.handler',
    sendsFile: true,
    summary: "A movie's or episode's file bytes, with HTTP range support",
    description:
      'One range per request (RFC 9110): `bytes=a-b`, `bytes=a-`, `bytes=-n` answer 206 with Content-Range; when several ranges are asked for, the first is answered. A malformed Range header or another unit is ignored (200, the whole file). If-Range with the ETag or Last-Modified of another version gives the whole file. If-None-Match (or If-Modified-Since) with the current version gives 304. A range outside the file: 416 with `Content-Range: bytes */SIZE`. A stacked movie streams part 1 unless `part` names another. With media in a bucket (MEDIA_STORAGE=s3) the answer is a 307 to a presigned URL of the object (STREAM_URL_TTL_SECONDS, default 4 h), which S3 serves with the same range semantics. A file whose library folder is offline (missing, unreadable or empty: an unmounted disk, a sleeping NAS) answers 503 media-offline with Retry-After, not 404: it may come back. Not counted by the rate limit.',
    params: pathParams(['mediaId']),
    query: S.StreamQuery,
    errors: [304, 307, 404, 416],
    success: { status: 200, description: 'The whole file, or 206 with one range', contentType: 'application/octet-stream' },
  }),
  streamHead: op({
    id: 'streamHead',
    method: 'HEAD',
    path: '/api/v1/stream/{mediaId}',
    tag: 'stream',
    counted: false,
    handler: 'functions/stream/get.head',
    sendsFile: true,
    summary: 'Headers of the stream: size, type, ETag',
    params: pathParams(['mediaId']),
    query: S.StreamQuery,
    errors: [304, 307, 404, 416],
    success: { status: 200, description: 'Headers only' },
  }),
};

/** Artwork, subtitles and playback (the decision, its playlist and segments). */
export const mediaOperations = {
  artwork: op({
    id: 'artwork',
    method: 'GET',
    path: '/api/v1/artwork/{mediaId}/{kind}',
    tag: 'artwork',
    counted: false,
    handler: 'functions/artwork/get.handler',
    summary: 'Cached artwork, resized on demand',
    description:
      "An item's poster or backdrop (movies, TV shows, and film collections under `co_<collection id>`) or still (episodes), from the artwork cache, resized to the snapped width `w` and encoded in the format `Accept` asks for: WebP or AVIF only when named (`image/webp`, `image/avif`; WebP first when both are equally wanted, as it is far cheaper to encode), else the stored image's own format when it is JPEG or PNG, else JPEG. Each variant is rendered once and cached. `ETag` names the exact bytes (a strong validator); `If-None-Match` with it gives 304. `Vary: Accept`. With `v` equal to the current version the answer may be cached for a year (`immutable`), else for a day. With the artwork cache in the media bucket (MEDIA_STORAGE=s3), an image larger than ARTWORK_REDIRECT_ABOVE_BYTES (default 4 MiB: more than a Lambda response can carry; 0 for every image) is answered with a 302 to a presigned URL of the stored variant instead, valid for ARTWORK_URL_TTL_SECONDS (default 1 h), with `Cache-Control: private` for a minute less and no ETag; `If-None-Match` is still answered 304 here. Smaller images are answered here, which a wall of posters measured faster than redirects. 404 for an unknown id, a kind the item does not have, an item without that artwork, or artwork no longer in the cache (a rescan stores it again). Not counted by the rate limit.",
    params: Type.Object({ mediaId: S.Id, kind: S.ArtworkKind }, { additionalProperties: false }),
    query: S.ArtworkQuery,
    errors: [302, 304, 404],
    success: { status: 200, description: 'Image bytes: WebP, AVIF, JPEG or PNG, by Accept', contentType: 'image/*' },
  }),
  subtitle: op({
    id: 'subtitle',
    method: 'GET',
    path: '/api/v1/subtitles/{mediaId}/{trackId}',
    tag: 'stream',
    counted: false,
    handler: 'functions/subtitles/get.handler',
    summary: 'A subtitle track as WebVTT',
    description:
      "One of the tracks a movie's or an episode's details list in `subtitles`, by its `id`, as WebVTT (the format a browser's `<video>` plays through `<track>`). Subtitle files beside the video (SRT, WebVTT, ASS/SSA) are converted: timing, line breaks, italics, bold and underline kept, ASS styling stripped to the text, broken cues skipped; any encoding read (UTF-8 with or without BOM, UTF-16 LE/BE, else the legacy code page of the language the file's name gives, such as Windows-1251 for Russian or Shift_JIS for Japanese, and Windows-1252 without one). Text streams inside the video (SubRip, ASS/SSA, WebVTT, MP4 timed text) are taken out with ffmpeg on first request, all of a file's at once, and kept; while that runs longer than a few seconds the answer is 503 `subtitle-pending` with `Retry-After`. `offsetMs` shifts every cue (positive: later); a cue shifted before 0 starts at 0, one that ends before 0 is dropped. `ETag` names the source's version, the track and the offset; `If-None-Match` gives 304; `Cache-Control: private, no-cache`, since a subtitle file is edited in place to fix its timing. 404 for an unknown media or track id, and, with the reason, for a track listed with `url: null` (pictures: PGS, VobSub; or a stream inside the video where ffmpeg is not installed or the media is in a bucket) or a file gone since the scan. 503 `media-offline` when its disk is away. Not counted by the rate limit.",
    params: pathParams(['mediaId', 'trackId']),
    query: Type.Object(
      {
        offsetMs: Type.Optional(
          Type.Integer({ minimum: -3_600_000, maximum: 3_600_000, description: "Milliseconds added to every cue's times, -1 h to +1 h" }),
        ),
      },
      { additionalProperties: false },
    ),
    errors: [304, 404, 503],
    success: { status: 200, description: 'The track as text/vtt; charset=utf-8', contentType: 'text/vtt' },
  }),
  playback: op({
    id: 'playback',
    method: 'POST',
    path: '/api/v1/playback/{mediaId}',
    tag: 'playback',
    counted: true,
    handler: 'functions/playback/api.start',
    summary: 'How to play a movie or an episode on this client: direct, or converted while it plays',
    description:
      'Decides from the technical info the scan read and what the client says it plays (`client`; without it, what every current browser plays: containers `mp4`, `webm`, `hls`; video `h264`, `vp9`, `av1`; audio `aac`, `mp3`, `opus`, `flac`). ' +
      "`direct` when the container, the video and the chosen audio track are all the client's (and within `maxHeight`/`maxAudioChannels`): `url` is the stream URL and nothing is started. " +
      '`remux` when the video can be copied and only the container or the audio must change (audio to AAC stereo); `transcode` when the video must change too (to 8-bit H.264 no taller than `maxHeight`, 1080 at most by default). ' +
      "For both, `url` is an HLS playlist (MPEG-TS segments) of the whole duration, listed before anything is converted, so a player can seek anywhere at once: each segment is made when it is asked for (a remux segment in about half a second, a 6 s transcode segment in about 3 s on a 2-core box), cut at the file's keyframes for a remux. " +
      '`reasons` say in words what did not fit. A session nobody asks anything of for PLAYBACK_IDLE_SECONDS (60) ends by itself and its files go; DELETE ends it at once. ' +
      'At most PLAYBACK_MAX_TRANSCODES transcodes (default: one per core) and PLAYBACK_MAX_REMUXES remuxes (four per core) run at once: one more gets 503 `playback-busy` with Retry-After. ' +
      'A file ffmpeg cannot read gets 422 `unplayable` with the reason, here when it is found out here, else from the playlist or segment. 501 `conversion-unavailable` where the server cannot convert (no ffmpeg; media in a bucket in the cloud). 503 `media-offline` when its disk is away.',
    params: pathParams(['mediaId']),
    body: S.PlaybackRequest,
    errors: [400, 404, 422, 501, 503],
    success: { status: 200, description: 'How to play it', schema: S.PlaybackInfo },
  }),
  playbackPlaylist: op({
    id: 'playbackPlaylist',
    method: 'GET',
    path: '/api/v1/playback/sessions/{sessionId}/index.m3u8',
    tag: 'playback',
    counted: false,
    handler: 'functions/playback/api.playlist',
    summary: "A conversion session's HLS playlist",
    description:
      'An HLS VOD media playlist (version 3) listing every segment of the film with its duration; segment URIs are relative (`segments/<n>.ts`). Asking for it keeps the session alive, as asking for a segment does. 404 once the session has ended. Not counted by the rate limit.',
    params: pathParams(['sessionId']),
    errors: [404],
    success: { status: 200, description: 'The playlist', contentType: 'application/vnd.apple.mpegurl' },
  }),
  playbackSegment: op({
    id: 'playbackSegment',
    method: 'GET',
    path: '/api/v1/playback/sessions/{sessionId}/segments/{segment}',
    tag: 'playback',
    counted: false,
    handler: 'functions/playback/api.segment',
    sendsFile: true,
    summary: 'One segment of a conversion, made when first asked for',
    description:
      'MPEG-TS (`video/mp2t`), made by one short ffmpeg run over its own time range the first time it is asked for, then kept for the session (PLAYBACK_SESSION_SEGMENTS per session, PLAYBACK_CACHE_MIB in all; the least recently asked for go first and are made again if asked for). Ranges are answered as for a stream. 404 for a segment past the end or a session that ended; 422 `unplayable` when ffmpeg cannot convert that part of the file; 504 when making it took longer than PLAYBACK_SEGMENT_TIMEOUT_MS (ask again). Not counted by the rate limit.',
    params: Type.Object(
      { sessionId: S.Id, segment: Type.String({ pattern: '^[0-9]{1,6}\\.ts$', description: '`<n>.ts`, 0-based' }) },
      { additionalProperties: false },
    ),
    errors: [404, 416, 422, 504],
    success: { status: 200, description: 'The segment', contentType: 'video/mp2t' },
  }),
  playbackEnd: op({
    id: 'playbackEnd',
    method: 'DELETE',
    path: '/api/v1/playback/sessions/{sessionId}',
    tag: 'playback',
    counted: false,
    handler: 'functions/playback/api.end',
    summary: 'End a conversion session now',
    description:
      'The player closed: the session ends, its slot is free for another player, and its files go. 404 when it had already ended. Not counted by the rate limit.',
    params: pathParams(['sessionId']),
    errors: [404],
    success: { status: 204, description: 'Ended' },
  }),
};
