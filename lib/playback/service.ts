// Playback: what a player asks before it plays (decide.ts), and the conversions that make a file
// it cannot play playable, as HLS, one short ffmpeg run per segment when the player asks for it
// (docs/playback-design.md): a seek costs one segment, nothing runs ahead of the player, no
// process outlives its request, and the same code runs in a function.
import { stat } from 'node:fs/promises';
import type { FileRef } from '../catalog/model';
import type { CatalogStore } from '../catalog/store';
import { conversionUnavailable, notFound, notFoundBecause, playbackBusy } from '../errors';
import type { LibraryStore } from '../library/store';
import type { Log } from '../log';
import type { MediaStorage } from '../storage';
import { resolveFile, type StreamTarget } from '../stream/resolve';
import { BoundedMap } from '../util/bounded-map';
import { streamUrl } from '../views/urls';
import { audioPlan } from './audio-copy';
import { BROWSER_PROFILE, decide, type ClientProfile, type Decision, type Reason } from './decide';
import { probeTiming } from './keyframes';
import { playlist, remuxPlan, transcodePlan, type Segment, type VideoTiming } from './plan';
import { SessionEnded, type SegmentCache } from './segment-cache';
import { SegmentRuns, type SegmentSettings } from './segment-runs';
import { parseSessionId, type ConversionKind } from './session-id';
import type { Session, SessionPlan, SessionStore } from './sessions';
import type { TimingStore } from './timing-store';

export interface PlaybackSettings extends SegmentSettings {
  ffprobe: string;
  idleMs: number;
  /** Transcodes: the tallest picture sent unless the client asks for less. */
  maxHeight: number;
}

export interface PlaybackDeps {
  catalog: CatalogStore;
  libraries: LibraryStore;
  storage: MediaStorage;
  sessions: SessionStore;
  timings: TimingStore;
  /** Where segments are kept; null where conversions cannot run (media in a bucket). */
  segments: SegmentCache | null;
  settings: PlaybackSettings;
  log: Log;
}

export interface PlaybackRequest {
  mediaId: string;
  client?: ClientProfile | undefined;
  audioTrack?: number | undefined;
  /** Where the player will start: the segment there is made at once, before it is asked for. */
  startSeconds?: number | undefined;
}

export interface PlaybackAnswer {
  method: 'direct' | 'remux' | 'transcode';
  url: string;
  mimeType: string;
  reasons: Reason[];
  sessionId: string | null;
  durationSeconds: number | null;
  audioTrack: number | null;
}

/** A decision on a file this server can carry out. */
export interface Chosen {
  decision: Decision;
  file: FileRef;
  target: StreamTarget;
}

export const HLS_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';

/** The segment that holds `seconds` (the last one past the end). */
const segmentAt = (segments: readonly Segment[], seconds: number) => {
  const found = segments.findIndex((s) => seconds < s.end);
  return found === -1 ? segments.length - 1 : found;
};

/** The tallest picture a transcode sends within a bit rate: H.264 at our quality takes about this much. */
const heightWithin = (maxBitrate: number | undefined) => {
  if (maxBitrate === undefined) return Number.POSITIVE_INFINITY;
  if (maxBitrate < 1_500_000) return 360;
  if (maxBitrate < 3_000_000) return 480;
  if (maxBitrate < 6_000_000) return 720;
  return Number.POSITIVE_INFINITY;
};

const sessionBase = (origin: string, id: string) => `${origin}/api/v1/playback/sessions/${id}`;
const versionOf = (target: StreamTarget) => target.etag.replaceAll('"', '');
/** The version a stat gives, as versionOf reads it from the stream's etag (lib/stream/resolve.ts). */
const fileVersion = (size: number, mtimeMs: number) => `${size.toString(16)}-${Math.trunc(mtimeMs).toString(16)}`;
const ended = (id: string) =>
  notFoundBecause(
    `Playback session ${id} was not found: it ended (closed, or nothing asked for it for a minute). Ask POST /api/v1/playback/{mediaId} again`,
  );

/**
 * The plans of the conversion sessions this process serves: a plan never changes once its
 * session started, and a two-hour film's (its every segment's bounds) is about 170 KB read from
 * the table, so a segment request reads it only where this process has not yet (started
 * elsewhere, or before a restart: sessions.ts keeps it in the table for that). More than the
 * slots of every kind on a box (a few per core); a session that ended idle is never forgotten by
 * name, so the least recently asked for go once there are too many.
 */
const LIVE_PLANS = 64;

export class PlaybackService {
  private readonly runs: SegmentRuns;
  private readonly plans = new BoundedMap<string, SessionPlan>({ maxSize: LIVE_PLANS });

  constructor(private readonly deps: PlaybackDeps) {
    this.runs = new SegmentRuns(deps);
  }

  /**
   * What playing the file would be, without starting anything: direct, or a conversion this
   * server can run (else the honest refusal: media in a bucket, no ffmpeg, the kind turned off).
   */
  async choose(request: PlaybackRequest): Promise<Chosen> {
    const { deps } = this;
    const { file, target } = await resolveFile(deps, request.mediaId);
    const decision = decide(file.tech ?? null, request.client ?? BROWSER_PROFILE, request.audioTrack);
    if (decision.method === 'direct') return { decision, file, target };
    const kind: ConversionKind = decision.method;
    const { settings } = deps;
    if (!target.path || !deps.segments)
      throw conversionUnavailable('this deployment converts nothing: its media are in a bucket, and conversions run on a home server only');
    if (!settings.ffmpeg) throw conversionUnavailable('ffmpeg is not installed on the server (or FFMPEG_PATH=off)');
    if (settings.capacity[kind] === 0)
      throw conversionUnavailable(
        kind === 'transcode'
          ? 'transcoding is off on this server (PLAYBACK_MAX_TRANSCODES=0)'
          : 'remuxing is off on this server (PLAYBACK_MAX_REMUXES=0)',
      );
    return { decision, file, target };
  }

  /** POST /api/v1/playback/{mediaId}: direct when the client plays the file as it is, else a conversion session. */
  async start(request: PlaybackRequest, origin: string): Promise<PlaybackAnswer> {
    const { deps } = this;
    const what = `Media ${request.mediaId}`;
    const { decision, file, target } = await this.choose(request);
    const durationSeconds = file.tech?.durationSeconds ?? null;
    if (decision.method === 'direct') {
      return {
        method: 'direct',
        url: streamUrl(origin, request.mediaId),
        mimeType: target.contentType,
        reasons: [],
        sessionId: null,
        durationSeconds,
        audioTrack: decision.audioTrack,
      };
    }
    const kind: ConversionKind = decision.method;
    const { settings } = deps;
    const input = target.path;
    const kept = deps.segments;
    if (!input || !kept) throw new Error('choose() lets no conversion through without the file on this disk');
    const timing = await this.timing(request.mediaId, target, kind === 'remux', what);
    const segments = kind === 'remux' ? remuxPlan(timing) : transcodePlan(timing);
    const maxHeight = Math.min(
      request.client?.maxHeight ?? settings.maxHeight,
      settings.maxHeight,
      heightWithin(request.client?.maxBitrate),
    );
    // A file the scan could not read has no track list: ffprobe's count stands in for it.
    const audioTrack =
      decision.audioTrack ??
      (!file.tech && (timing.audioTracks ?? 0) > 0 ? Math.min(request.audioTrack ?? 0, timing.audioTracks! - 1) : null);
    // The decision says what the client plays; whether the segments can carry it copied is audio-copy.ts's.
    const audio = audioPlan(decision.audio, kind, timing, audioTrack);
    const plan = {
      mediaId: request.mediaId,
      part: 1,
      version: versionOf(target),
      audioTrack,
      video: decision.video,
      ...audio,
      maxHeight,
      prerollS: timing.prerollS ?? 0,
      segments,
      input,
    };
    const session = await deps.sessions.start(kind, settings.capacity[kind], plan, settings.idleMs);
    if (!session) throw playbackBusy(kind, settings.capacity[kind]);
    this.plans.set(session.id, plan);
    await kept.seen(session.id);
    // The player asks for the playlist and then this segment: it is on its way by then.
    void this.runs.prepare(session, input, segmentAt(segments, request.startSeconds ?? 0), what);
    deps.log.info(
      {
        sessionId: session.id,
        mediaId: request.mediaId,
        method: kind,
        audio: audio.audio,
        segments: segments.length,
        reasons: decision.reasons.map((r) => r.code),
      },
      'playback session started',
    );
    return {
      method: kind,
      url: `${sessionBase(origin, session.id)}/index.m3u8`,
      mimeType: HLS_TYPE,
      reasons: decision.reasons,
      sessionId: session.id,
      durationSeconds: durationSeconds ?? timing.durationS,
      audioTrack,
    };
  }

  /** The session's HLS playlist: every segment of the film, listed before any is made; `uri` names a segment for the door it is asked through. */
  async playlist(sessionId: string, uri: (index: number) => string = (i) => `segments/${i}.ts`): Promise<string> {
    const session = await this.touch(sessionId);
    return playlist(session.segments, uri);
  }

  /** A player that is paused still holds its session: its idle clock starts again. False when it had ended. */
  async keepAlive(sessionId: string): Promise<boolean> {
    if (!parseSessionId(sessionId) || !(await this.deps.sessions.touch(sessionId, this.deps.settings.idleMs))) return false;
    await this.deps.segments?.seen(sessionId);
    return true;
  }

  /** One segment, made now when it is not kept: the file to send. */
  async segment(sessionId: string, index: number): Promise<StreamTarget> {
    const session = await this.touch(sessionId);
    const segment = session.segments[index];
    if (!segment) throw notFound(`Segment ${index} of playback session ${sessionId}`);
    const what = `Media ${session.mediaId}`;
    const input = await this.source(session, what);
    const path = await this.runs.asked(session, input, index, what).catch((err: unknown) => {
      throw err instanceof SessionEnded ? ended(sessionId) : err;
    });
    const kept = await stat(path);
    return {
      path,
      size: kept.size,
      mtimeMs: kept.mtimeMs,
      contentType: SEGMENT_TYPE,
      etag: `"${sessionId}-${index}-${Math.trunc(kept.mtimeMs).toString(16)}"`,
      lastModified: new Date(Math.trunc(kept.mtimeMs / 1000) * 1000).toUTCString(),
    };
  }

  /** DELETE: the session ends now and its files go; false when it had already ended. */
  async end(sessionId: string): Promise<boolean> {
    if (!parseSessionId(sessionId)) return false;
    this.plans.delete(sessionId);
    const existed = await this.deps.sessions.end(sessionId);
    this.runs.stop(sessionId);
    await this.deps.segments?.remove(sessionId);
    return existed;
  }

  /**
   * The live session, its idle clock reset: one small conditional write. Its plan comes from
   * this process's memory, read from the table once where the process did not start it (a
   * restart, another process).
   */
  private async touch(sessionId: string): Promise<Session> {
    const slot = await this.deps.sessions.touch(sessionId, this.deps.settings.idleMs);
    const plan = slot && (this.plans.get(sessionId) ?? (await this.deps.sessions.plan(sessionId)));
    if (!slot || !plan) {
      this.plans.delete(sessionId);
      throw ended(sessionId);
    }
    this.plans.set(sessionId, plan);
    await this.deps.segments?.seen(sessionId);
    return { ...plan, ...slot };
  }

  /**
   * The source file, as the session found it: one stat, not the catalogue's lookup again, to see
   * that it is still the version planned. Where it is no longer there, the lookup says why (gone,
   * its disk offline) or where it went.
   */
  private async source(session: Session, what: string): Promise<string> {
    const changed = () => notFoundBecause(`${what} changed on disk since playback started; start it again`);
    const now = await stat(session.input).catch(() => undefined);
    if (now) {
      if (fileVersion(now.size, now.mtimeMs) !== session.version) throw changed();
      return session.input;
    }
    const { target } = await resolveFile(this.deps, session.mediaId, session.part);
    if (versionOf(target) !== session.version || !target.path) throw changed();
    return target.path;
  }

  private async timing(mediaId: string, target: StreamTarget, withKeyframes: boolean, what: string): Promise<VideoTiming> {
    const version = versionOf(target);
    const kept = await this.deps.timings.get(mediaId, 1, version);
    // One kept before the audio streams were read is read again (once): a remux may copy them.
    if (kept && kept.audio && (!withKeyframes || kept.keyframes.length > 0)) return kept;
    const { ffprobe, segmentTimeoutMs } = this.deps.settings;
    const timing = await probeTiming(target.path!, what, withKeyframes, { ffprobe, timeoutMs: segmentTimeoutMs });
    await this.deps.timings.put(mediaId, 1, version, timing);
    return timing;
  }
}
