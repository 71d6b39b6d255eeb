// Making a conversion session's segments: one short ffmpeg run each, at most so many at once of
// a kind in this process (lib/util/pool.ts's Limiter), a few made ahead of the player, and those
// a seek made useless stopped so that the seek's own segment has the cores.
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { gatewayTimeout, unplayable } from '../errors';
import type { Log } from '../log';
import { lastLine, runBounded } from '../util/executable';
import { Limiter } from '../util/pool';
import { segmentCommand } from './commands';
import { SessionEnded, type SegmentCache } from './segment-cache';
import type { ConversionKind } from './session-id';
import type { Session } from './sessions';

/** What the segments' ffmpeg runs are given. */
export interface SegmentSettings {
  /** ffmpeg's path, or null where there is none (or conversions are off). */
  ffmpeg: string | null;
  /** Conversions of each kind at once: the slots sessions claim. */
  capacity: Record<ConversionKind, number>;
  preset: string;
  /** One segment's ffmpeg run is stopped after this long. */
  segmentTimeoutMs: number;
  /** Added to ffmpeg's nice value: conversions yield the CPU to requests. */
  niceness: number;
}

/**
 * Segments made ahead of the one asked for: a player asks for them one after another. At the
 * start Chromium's own HLS player wants two whole before its first frame, so `beside` start with
 * the session's first one: a remux segment is one thread's work (the audio encoder's), so on
 * two cores the second costs the first nothing. A transcode already takes every core. After a
 * seek Chromium plays once its one segment is whole (measured), so there the segment asked for
 * runs alone, and `after` follow once it is made.
 */
const LOOK_AHEAD: Record<ConversionKind, { beside: number; after: number }> = {
  remux: { beside: 1, after: 2 },
  transcode: { beside: 0, after: 1 },
};

/** A segment made ahead that a seek made useless: stopped, quietly. */
class Dropped extends Error {}

export class SegmentRuns {
  private readonly limiters: Record<ConversionKind, Limiter>;
  /** Segments being made ahead, per session, each stoppable: after a seek they only take the cores the seek's segment needs. */
  private readonly ahead = new Map<string, Map<number, AbortController>>();
  /** Players waiting for a segment, by `session/index`: what a player waits for is never stopped. */
  private readonly waiting = new Map<string, number>();

  constructor(private readonly deps: { segments: SegmentCache | null; settings: SegmentSettings; log: Log }) {
    const { capacity } = deps.settings;
    this.limiters = { remux: new Limiter(Math.max(1, capacity.remux)), transcode: new Limiter(Math.max(1, capacity.transcode)) };
  }

  /**
   * The segment a player asks for, made now unless kept or being made: its file's path. The
   * segments made ahead that it will not want next are stopped; those after it follow.
   */
  async asked(session: Session, input: string, index: number, what: string): Promise<string> {
    const key = `${session.id}/${index}`;
    this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
    this.dropAhead(session, index);
    // One stopped a moment ago (a seek away and back) is made again.
    const path = await this.make(session, input, index, what)
      .catch((err: unknown) => (err instanceof Dropped ? this.make(session, input, index, what) : Promise.reject(err)))
      .finally(() => {
        const left = (this.waiting.get(key) ?? 1) - 1;
        if (left > 0) this.waiting.set(key, left);
        else this.waiting.delete(key);
      });
    this.lookAhead(session, input, index, what, LOOK_AHEAD[session.kind].after);
    return path;
  }

  /** A segment and those after it, made before the player asks; a failure is met again when it does. */
  async prepare(session: Session, input: string, index: number, what: string) {
    try {
      const made = this.make(session, input, index, what);
      this.lookAhead(session, input, index, what, LOOK_AHEAD[session.kind].beside);
      await made;
      this.lookAhead(session, input, index, what, LOOK_AHEAD[session.kind].after);
    } catch (err) {
      this.deps.log.debug({ err, sessionId: session.id, segment: index }, 'a segment made before it was asked for failed');
    }
  }

  /** The session ended: what is made ahead for it stops. */
  stop(sessionId: string) {
    for (const run of this.ahead.get(sessionId)?.values() ?? []) run.abort();
  }

  /** The segment's file, made now (one ffmpeg at a time of a kind per slot) unless kept or being made. */
  private make(session: Session, input: string, index: number, what: string, signal?: AbortSignal): Promise<string> {
    return this.deps.segments!.segment(session.id, index, (output) =>
      this.limiters[session.kind].run(() => this.convert(session, input, index, output, what, signal)),
    );
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

  private async convert(session: Session, input: string, index: number, output: string, what: string, signal?: AbortSignal): Promise<void> {
    const { settings, log } = this.deps;
    // Made ahead and queued at the limiter while the session ended: nothing to make it for.
    if (!existsSync(dirname(output))) throw new SessionEnded(session.id);
    if (signal?.aborted) throw new Dropped();
    const args = segmentCommand({
      input,
      segment: session.segments[index]!,
      audioTrack: session.audioTrack,
      video: session.video,
      audio: session.audio,
      audioFrameS: session.audioFrameS,
      maxHeight: session.maxHeight,
      prerollS: session.prerollS,
      preset: settings.preset,
      output,
    });
    const startedAt = Date.now();
    const run = await runBounded(settings.ffmpeg!, args, { timeoutMs: settings.segmentTimeoutMs, niceness: settings.niceness, signal });
    if (run.startError) throw new Error(`ffmpeg could not be started: ${run.startError}`);
    if (signal?.aborted) {
      log.debug({ sessionId: session.id, segment: index }, 'a segment made ahead was stopped: the player went elsewhere');
      throw new Dropped();
    }
    if (run.code !== 0) {
      log.warn(
        { sessionId: session.id, segment: index, code: run.code, timedOut: run.timedOut, stderr: lastLine(run.stderr, input) },
        'a segment could not be made',
      );
      // Too slow is the box's fault, not the file's: the player may ask again.
      if (run.timedOut) throw gatewayTimeout();
      throw unplayable(what, lastLine(run.stderr, input) || `ffmpeg exited with ${run.code}`);
    }
    log.debug({ sessionId: session.id, segment: index, ms: Date.now() - startedAt }, 'segment made');
  }
}
