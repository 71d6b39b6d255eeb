// Playback: what a player asks before it plays (decide.ts), and the conversions that make a file
// it cannot play playable, as HLS, one short ffmpeg run per segment when the player asks for it
// (docs/playback-design.md): a seek costs one segment, nothing runs ahead of the player, no
// process outlives its request, and the same code runs in a function.
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CatalogStore } from '../catalog/store';
import { conversionUnavailable, gatewayTimeout, notFound, notFoundBecause, playbackBusy, unplayable } from '../errors';
import type { LibraryStore } from '../library/store';
import type { Log } from '../log';
import type { MediaStorage } from '../storage';
import { resolveFile, type StreamTarget } from '../stream/resolve';
import { lastLine, runBounded } from '../util/executable';
import { streamUrl } from '../views/urls';
import { audioPlan } from './audio-copy';
import { segmentCommand } from './commands';
import { BROWSER_PROFILE, decide, type ClientProfile, type Reason } from './decide';
import { probeTiming } from './keyframes';
import { playlist, remuxPlan, transcodePlan, type Segment, type VideoTiming } from './plan';
import { SessionEnded, type SegmentCache } from './segment-cache';
import { parseSessionId, type ConversionKind } from './session-id';
import { LivePlans } from './plans';
import type { Session, SessionStore } from './sessions';
import type { TimingStore } from './timing-store';

export interface PlaybackSettings {
  /** ffmpeg's path, or null where there is none (or conversions are off). */
  ffmpeg: string | null;
  ffprobe: string;
  /** Conversions of each kind at once: the slots sessions claim. */
  capacity: Record<ConversionKind, number>;
  idleMs: number;
  /** Transcodes: the tallest picture sent unless the client asks for less. */
  maxHeight: number;
  preset: string;
  /** One segment's ffmpeg run is stopped after this long. */
  segmentTimeoutMs: number;
  /** Added to ffmpeg's nice value: conversions yield the CPU to requests. */
  niceness: number;
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

export const HLS_TYPE = 'application/vnd.apple.mpegurl';
const SEGMENT_TYPE = 'video/mp2t';

/**
 * Segments made ahead of the one asked for: a player asks for them one after another. At the
 * start Chromium's own HLS player wants two whole before its first frame, so `beside` start with
 * the session's first one: a remux segment is one thread's work (the audio encoder's), so on
 * two cores the second costs the first nothing. A transcode already takes every core. After a
 * seek Chromium plays once its one segment is whole (measured), so there the segment asked for
 * runs alone, and `after` follow once it is made.
 */
const LOOK_AHEAD: Record<ConversionKind, { beside: number; after: number }> = { remux: { beside: 1, after: 2 }, transcode: { beside: 0, after: 1 } };

/** The segment that holds `seconds` (the last one past the end). */
const segmentAt = (segments: readonly Segment[], seconds: number) => {
  const found = segments.findIndex((s) => seconds < s.end);
  return found === -1 ? segments.length - 1 : found;
};

const sessionBase = (origin: string, id: string) => `${origin}/api/v1/playback/sessions/${id}`;
const versionOf = (target: StreamTarget) => target.etag.replaceAll('"', '');
/** The version a stat gives, as versionOf reads it from the stream's etag (lib/stream/resolve.ts). */
const fileVersion = (size: number, mtimeMs: number) => `${size.toString(16)}-${Math.trunc(mtimeMs).toString(16)}`;
const ended = (id: string) => notFoundBecause(`Playback session ${id} was not found: it ended (closed, or nothing asked for it for a minute). Ask POST /api/v1/playback/{mediaId} again`);

/** Waiting room for segment runs: at most `limit` ffmpeg at once of a kind in this process. */
class Gate {
  private running = 0;
  private readonly queue: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await work();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}

/** A segment made ahead that a seek made useless: stopped, quietly. */
class Dropped extends Error {}

export class PlaybackService {
  private readonly gates: Record<ConversionKind, Gate>;
  /** Segments being made ahead, per session, each stoppable: after a seek they only take the cores the seek's segment needs. */
  private readonly ahead = new Map<string, Map<number, AbortController>>();
  /** Players waiting for a segment, by `session/index`: what a player waits for is never stopped. */
  private readonly waiting = new Map<string, number>();
  /** The plans of the sessions this process serves, so a segment request does not read them (plans.ts). */
  private readonly plans = new LivePlans();

  constructor(private readonly deps: PlaybackDeps) {
    const { capacity } = deps.settings;
    this.gates = { remux: new Gate(Math.max(1, capacity.remux)), transcode: new Gate(Math.max(1, capacity.transcode)) };
  }

  /** POST /api/v1/playback/{mediaId}: direct when the client plays the file as it is, else a conversion session. */
  async start(request: PlaybackRequest, origin: string): Promise<PlaybackAnswer> {
    const { deps } = this;
    const what = `Media ${request.mediaId}`;
    const { file, target } = await resolveFile(deps, request.mediaId);
    const decision = decide(file.tech ?? null, request.client ?? BROWSER_PROFILE, request.audioTrack);
    const durationSeconds = file.tech?.durationSeconds ?? null;
    if (decision.method === 'direct') {
      return { method: 'direct', url: streamUrl(origin, request.mediaId), mimeType: target.contentType, reasons: [], sessionId: null, durationSeconds, audioTrack: decision.audioTrack };
    }
    const kind: ConversionKind = decision.method;
    const { settings } = deps;
    if (!target.path || !deps.segments) throw conversionUnavailable('this deployment converts nothing: its media are in a bucket, and conversions run on a home server only');
    if (!settings.ffmpeg) throw conversionUnavailable('ffmpeg is not installed on the server (or FFMPEG_PATH=off)');
    if (settings.capacity[kind] === 0) throw conversionUnavailable(kind === 'transcode' ? 'transcoding is off on this server (PLAYBACK_MAX_TRANSCODES=0)' : 'remuxing is off on this server (PLAYBACK_MAX_REMUXES=0)');

    const timing = await this.timing(request.mediaId, target, kind === 'remux', what);
    const segments = kind === 'remux' ? remuxPlan(timing) : transcodePlan(timing);
    const maxHeight = Math.min(request.client?.maxHeight ?? settings.maxHeight, settings.maxHeight);
    // A file the scan could not read has no track list: ffprobe's count stands in for it.
    const audioTrack = decision.audioTrack ?? (!file.tech && (timing.audioTracks ?? 0) > 0 ? Math.min(request.audioTrack ?? 0, timing.audioTracks! - 1) : null);
    // The decision says what the client plays; whether the segments can carry it copied is audio-copy.ts's.
    const audio = audioPlan(decision.audio, kind, timing, audioTrack);
    const plan = { mediaId: request.mediaId, part: 1, version: versionOf(target), audioTrack, video: decision.video, ...audio, maxHeight, prerollS: timing.prerollS ?? 0, segments, input: target.path };
    const session = await deps.sessions.start(kind, settings.capacity[kind], plan, settings.idleMs);
    if (!session) throw playbackBusy(kind, settings.capacity[kind]);
    this.plans.keep(session.id, plan);
    await deps.segments.seen(session.id);
    // The player asks for the playlist and then this segment: it is on its way by then.
    void this.prepare(session, target.path, segmentAt(segments, request.startSeconds ?? 0), what);
    deps.log.info({ sessionId: session.id, mediaId: request.mediaId, method: kind, audio: audio.audio, segments: segments.length, reasons: decision.reasons.map((r) => r.code) }, 'playback session started');
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

  /** The session's HLS playlist: every segment of the film, listed before any is made. */
  async playlist(sessionId: string): Promise<string> {
    const session = await this.touch(sessionId);
    return playlist(session.segments, (i) => `segments/${i}.ts`);
  }

  /** One segment, made now when it is not kept: the file to send. */
  async segment(sessionId: string, index: number): Promise<StreamTarget> {
    const session = await this.touch(sessionId);
    const segment = session.segments[index];
    if (!segment) throw notFound(`Segment ${index} of playback session ${sessionId}`);
    const what = `Media ${session.mediaId}`;
    const input = await this.source(session, what);
    const key = `${sessionId}/${index}`;
    this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
    this.dropAhead(session, index);
    // One stopped a moment ago (a seek away and back) is made again.
    const path = await this.make(session, input, index, what)
      .catch((err: unknown) => (err instanceof Dropped ? this.make(session, input, index, what) : Promise.reject(err)))
      .catch((err: unknown) => {
        throw err instanceof SessionEnded ? ended(sessionId) : err;
      })
      .finally(() => {
        const left = (this.waiting.get(key) ?? 1) - 1;
        if (left > 0) this.waiting.set(key, left);
        else this.waiting.delete(key);
      });
    this.lookAhead(session, input, index, what, LOOK_AHEAD[session.kind].after);
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
    this.plans.forget(sessionId);
    const existed = await this.deps.sessions.end(sessionId);
    for (const run of this.ahead.get(sessionId)?.values() ?? []) run.abort();
    await this.deps.segments?.remove(sessionId);
    return existed;
  }

  /** The segment's file, made now (one ffmpeg at a time of a kind per slot) unless kept or being made. */
  private make(session: Session, input: string, index: number, what: string, signal?: AbortSignal): Promise<string> {
    return this.deps.segments!.segment(session.id, index, (output) => this.gates[session.kind].run(() => this.convert(session, input, index, output, what, signal)));
  }

  /** A segment and those after it, made before the player asks; a failure is met again when it does. */
  private async prepare(session: Session, input: string, index: number, what: string) {
    try {
      const made = this.make(session, input, index, what);
      this.lookAhead(session, input, index, what, LOOK_AHEAD[session.kind].beside);
      await made;
      this.lookAhead(session, input, index, what, LOOK_AHEAD[session.kind].after);
    } catch (err) {
      this.deps.log.debug({ err, sessionId: session.id, segment: index }, 'a segment made before it was asked for failed');
    }
  }

  /**
   * The next `count` segments, made before the player asks: making them only when asked puts
   * every ffmpeg start on the player's path. A few at most (LOOK_AHEAD), so nothing runs far
   * ahead of the player; those kept or being made are not made again.
   */
  private lookAhead(session: Session, input: string, index: number, what: string, count: number) {
    const runs = this.ahead.get(session.id) ?? new Map<number, AbortController>();
    this.ahead.set(session.id, runs);
    for (let next = index + 1; next <= index + count && next < session.segments.length; next++) {
      if (runs.has(next)) continue;
      const run = new AbortController();
      runs.set(next, run);
      this.make(session, input, next, what, run.signal)
        .catch((err: unknown) => {
          if (!(err instanceof Dropped)) this.deps.log.debug({ err, sessionId: session.id, segment: next }, 'a segment made ahead failed');
        })
        .finally(() => {
          if (runs.get(next) === run) runs.delete(next);
          if (runs.size === 0 && this.ahead.get(session.id) === runs) this.ahead.delete(session.id);
        });
    }
  }

  /**
   * A player asks for `index`: the segments being made ahead that it will not want next (a seek
   * went elsewhere) are stopped, unless a player waits for one. Measured: a seek's segment took
   * 0.9 s beside two of them on 2 cores, 0.5 s alone.
   */
  private dropAhead(session: Session, index: number) {
    const after = LOOK_AHEAD[session.kind].after;
    for (const [next, run] of this.ahead.get(session.id) ?? []) {
      if (next >= index && next <= index + after) continue;
      if (this.waiting.has(`${session.id}/${next}`)) continue;
      run.abort();
    }
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
      this.plans.forget(sessionId);
      throw ended(sessionId);
    }
    this.plans.keep(sessionId, plan);
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

  private async convert(session: Session, input: string, index: number, output: string, what: string, signal?: AbortSignal): Promise<void> {
    const { settings, log } = this.deps;
    // Made ahead and queued at the gate while the session ended: nothing to make it for.
    if (!existsSync(dirname(output))) throw new SessionEnded(session.id);
    if (signal?.aborted) throw new Dropped();
    const args = segmentCommand({
      input, segment: session.segments[index]!, audioTrack: session.audioTrack, video: session.video, audio: session.audio, audioFrameS: session.audioFrameS,
      maxHeight: session.maxHeight, prerollS: session.prerollS, preset: settings.preset, output,
    });
    const startedAt = Date.now();
    const run = await runBounded(settings.ffmpeg!, args, { timeoutMs: settings.segmentTimeoutMs, niceness: settings.niceness, signal });
    if (run.startError) throw new Error(`ffmpeg could not be started: ${run.startError}`);
    if (signal?.aborted) {
      log.debug({ sessionId: session.id, segment: index }, 'a segment made ahead was stopped: the player went elsewhere');
      throw new Dropped();
    }
    if (run.code !== 0) {
      log.warn({ sessionId: session.id, segment: index, code: run.code, timedOut: run.timedOut, stderr: lastLine(run.stderr, input) }, 'a segment could not be made');
      // Too slow is the box's fault, not the file's: the player may ask again.
      if (run.timedOut) throw gatewayTimeout();
      throw unplayable(what, lastLine(run.stderr, input) || `ffmpeg exited with ${run.code}`);
    }
    log.debug({ sessionId: session.id, segment: index, ms: Date.now() - startedAt }, 'segment made');
  }
}
