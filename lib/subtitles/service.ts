// GET /api/v1/subtitles/{mediaId}/{trackId}: one subtitle track of a movie or an episode as
// WebVTT, the one format a browser's <video> plays.
//
// Decisions:
// - The track is found in the item's own list (tracks.ts), by id: the only files this endpoint
//   can read are the subtitle files a scan found beside an indexed video, through the storage
//   port (inside the library's folder once links are resolved, local disk or bucket alike), and
//   the text streams inside that video. No path ever comes from the request.
// - Files are decoded whatever their encoding (decode.ts) and converted (webvtt.ts); streams
//   inside the video are taken out by ffmpeg (extract.ts) and go through the same writer, so
//   `offsetMs` and the output are the same for both.
// - A picture-based track (PGS, VobSub), a stream when ffmpeg is missing or the media is in a
//   bucket, is listed with `url: null` and is 404 here with the reason.
// - Validators: a strong ETag from the source's size and time (the video's for a stream), the
//   track and the offset. `Cache-Control: private, no-cache`, as for the stream: a subtitle file
//   is edited in place to fix its timing, and a revalidation is one small request, answered 304.
// - An extraction that takes longer than the wait is 503 with Retry-After; it carries on, and
//   the request asked again gets the cached track.
import type { CatalogItem } from '../catalog/model';
import { internal, notFound, notFoundBecause, subtitlePending } from '../errors';
import { ifNoneMatchHolds } from '../util/etag';
import type { Library } from '../library/model';
import type { Log } from '../log';
import type { LocatedFile, MediaStorage } from '../storage';
import { locateInLibrary } from '../stream/resolve';
import { decodeSubtitle, MAX_SUBTITLE_BYTES } from './decode';
import type { SubtitleExtractor } from './extract';
import { EXTRACTABLE, subtitleTracks, type ListedTrack, type TrackOptions } from './tracks';
import { convertToWebVtt, parseVtt, toWebVtt } from './webvtt';

export interface SubtitleDeps {
  catalog: { get(id: string): Promise<CatalogItem | undefined> };
  libraries: { get(id: string): Promise<Library | undefined> };
  storage: MediaStorage;
  /** null where streams are never extracted (the cloud). */
  extractor: SubtitleExtractor | null;
  log: Pick<Log, 'error' | 'warn'>;
  /** How long a request waits for an extraction before answering 503. */
  extractWaitMs: number;
}

export interface SubtitleRequest {
  mediaId: string;
  trackId: string;
  offsetMs?: number | undefined;
  ifNoneMatch?: string | undefined;
}

export interface SubtitleAnswer {
  status: 200 | 304;
  body?: string;
  headers: Record<string, string>;
}

/** Bumped when the WebVTT written for the same source changes, so caches do not keep the old. */
const RENDER_VERSION = 'r1';
const RETRY_EXTRACTION_SECONDS = 5;

/** Streams are extracted on this machine's disk only; extraction in the cloud is left for later. */
export const trackOptions = (deps: Pick<SubtitleDeps, 'storage' | 'extractor'>): TrackOptions => ({
  extract: deps.storage.kind === 'local' && deps.extractor?.available === true,
});

const whyNotServable = (listed: ListedTrack, what: string, options: TrackOptions) => {
  if (listed.origin.source === 'external')
    return `${what} is a ${listed.track.format} file, which holds pictures or frames rather than timed text; it cannot be served as WebVTT`;
  if (listed.origin.map === null || !EXTRACTABLE.has(listed.origin.codec ?? '')) {
    return `${what} is a ${listed.track.format} stream, which is not timed text; it cannot be served as WebVTT`;
  }
  return options.extract
    ? `${what} cannot be served`
    : `${what} is inside the video file, and taking it out needs ffmpeg on the server's own disk (not installed, or the media is in a bucket)`;
};

const vttHeaders = (etag: string) => ({
  'Content-Type': 'text/vtt; charset=utf-8',
  ETag: etag,
  'Cache-Control': 'private, no-cache',
  Vary: 'Origin',
});

const versionTag = (file: LocatedFile) => `${file.size.toString(16)}-${Math.trunc(file.mtimeMs).toString(16)}`;

export const serveSubtitle = async (deps: SubtitleDeps, req: SubtitleRequest): Promise<SubtitleAnswer> => {
  const { mediaId, trackId } = req;
  const offsetMs = req.offsetMs ?? 0;
  const item = await deps.catalog.get(mediaId);
  if (!item || item.entity === 'tvshow') throw notFound(`Media ${mediaId}`);
  const what = `Subtitle track ${trackId} of ${mediaId}`;
  const options = trackOptions(deps);
  const tracks = subtitleTracks(item, options);
  const listed = tracks.find((t) => t.track.id === trackId);
  if (!listed) throw notFound(what);
  if (!listed.servable) throw notFoundBecause(whyNotServable(listed, what, options));
  const library = await deps.libraries.get(item.libraryId);
  if (!library) throw notFound(what);
  const gone = () => notFoundBecause(`${what} is no longer there; a rescan of its library updates the list`);

  if (listed.origin.source === 'external') {
    const { relPath, format } = listed.origin;
    const located = await locateInLibrary(deps.storage, library, relPath, what, gone);
    const etag = `"${versionTag(located)}-${offsetMs}-${RENDER_VERSION}"`;
    if (ifNoneMatchHolds(req.ifNoneMatch, etag)) return { status: 304, headers: vttHeaders(etag) };
    if (located.size > MAX_SUBTITLE_BYTES)
      throw notFoundBecause(`${what} is larger than ${MAX_SUBTITLE_BYTES / 2 ** 20} MiB, which no subtitle file is`);
    const bytes = await deps.storage.readSmall(library.path, relPath, MAX_SUBTITLE_BYTES);
    if (!bytes) throw gone();
    return {
      status: 200,
      body: convertToWebVtt(decodeSubtitle(bytes, listed.track.language).text, format!, offsetMs),
      headers: vttHeaders(etag),
    };
  }

  const video = await locateInLibrary(deps.storage, library, item.files[0]!.relPath, `Media ${mediaId}`, gone);
  const map = listed.origin.map!;
  const etag = `"${versionTag(video)}-${map.replaceAll(':', '.')}-${offsetMs}-${RENDER_VERSION}"`;
  if (ifNoneMatchHolds(req.ifNoneMatch, etag)) return { status: 304, headers: vttHeaders(etag) };
  if (!video.path || !deps.extractor) throw notFoundBecause(whyNotServable(listed, what, { extract: false }));
  // Every text stream of the file in the one read.
  const maps = tracks.flatMap((t) => (t.servable && t.origin.source === 'embedded' && t.origin.map ? [t.origin.map] : []));
  const extracted = await deps.extractor.extract(
    { mediaId, path: video.path, size: video.size, mtimeMs: video.mtimeMs },
    map,
    maps,
    deps.extractWaitMs,
  );
  if (extracted.state === 'pending') throw subtitlePending(what, RETRY_EXTRACTION_SECONDS);
  if (extracted.state === 'failed') {
    deps.log.error({ mediaId, trackId, reason: extracted.reason }, 'an embedded subtitle track could not be extracted');
    throw internal();
  }
  return { status: 200, body: toWebVtt(parseVtt(extracted.text), offsetMs), headers: vttHeaders(etag) };
};
