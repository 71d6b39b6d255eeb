// Conversion sessions in the one table. The capacity is a fixed set of slots per kind (remux,
// transcode), and a session *is* its slot: starting one claims a free slot with a conditional
// write, so two players asking at once can never both get the last one, in one process or
// many (the cloud). A slot whose session nobody asked anything of for the idle time is free
// again; no sweeper is needed for the table (the runner removes the files, segment-cache.ts).
//
// What a session converts (its plan, with every segment's bounds: a two-hour film's is about
// 170 KB on the wire) is an item of its own, written once and read once per process: the slot
// item, rewritten at every request of a player, stays a few hundred bytes, so a request costs
// one small write (a write is billed by the whole item's size) however long the film.
import { randomBytes } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { guarded, isConditionFailed, queryItems, type Db } from '../db/client';
import { keys, TTL_ATTRIBUTE, ttlIn } from '../db/table';
import type { Segment } from './plan';
import { KIND_LETTER, parseSessionId, type ConversionKind } from './session-id';

/** What a session converts and how; fixed when it starts. */
export interface SessionPlan {
  mediaId: string;
  part: number;
  /** The source's version when planned (size-mtime): a replaced file ends the session. */
  version: string;
  audioTrack: number | null;
  video: 'copy' | 'convert' | 'none';
  audio: 'copy' | 'convert' | 'none';
  /** A copied track's frame, seconds (audio-copy.ts). */
  audioFrameS?: number;
  maxHeight: number;
  /** Seconds a transcode decodes before each cut (plan.ts). */
  prerollS: number;
  segments: Segment[];
  /** The source's path on this machine, found when the session started: a segment does not look it up again. */
  input: string;
}

/** The slot a live session holds: what every request of its player rewrites. */
export interface SessionSlot {
  id: string;
  kind: ConversionKind;
  slot: number;
  createdAt: number;
  lastSeenAt: number;
}

export interface Session extends SessionPlan, SessionSlot {}

/** Segments stored compactly: [start, end] or [start, end, videoEnd] (a two-hour film is about 1,200). */
type StoredSegment = [number, number] | [number, number, number];
const packSegments = (segments: readonly Segment[]): StoredSegment[] =>
  segments.map((s) => (s.videoEnd === undefined ? [s.start, s.end] : [s.start, s.end, s.videoEnd]));
const unpackSegments = (stored: StoredSegment[]): Segment[] =>
  stored.map(([start, end, videoEnd]) => (videoEnd === undefined ? { start, end } : { start, end, videoEnd }));

export interface SessionStore {
  /** Claims a free slot of the kind (one of `capacity`); undefined when all are taken by live sessions. */
  start(kind: ConversionKind, capacity: number, plan: SessionPlan, idleMs: number): Promise<Session | undefined>;
  /** The live session's slot, its idle clock reset; undefined when it ended (or never was). */
  touch(id: string, idleMs: number): Promise<SessionSlot | undefined>;
  /** What the session converts, as it started; undefined when it is gone. */
  plan(id: string): Promise<SessionPlan | undefined>;
  /** Ends it now; false when it had already ended. */
  end(id: string): Promise<boolean>;
  /** How many live sessions of the kind there are. */
  live(kind: ConversionKind, idleMs: number): Promise<number>;
}

/** The table keeps a slot item a day past its last request at most; a live one is rewritten at every request. */
const TTL_SECONDS = 24 * 3600;
/**
 * A plan goes with its session (DELETE, or the claim of its slot by the next one); the TTL only
 * catches those no one ended: two days, longer than any film is watched in one go.
 */
const PLAN_TTL_SECONDS = 2 * 24 * 3600;

/** A session's plan, beside the slots (a sort key no slot query's prefix matches), by the session's id. */
type StoredPlan = Omit<SessionPlan, 'segments'> & { segments: StoredSegment[] };

export class DynamoSessionStore implements SessionStore {
  constructor(
    private readonly db: () => Db,
    /** The time a slot's idle clock reads (tests move it instead of waiting). */
    private readonly clock: () => number = Date.now,
  ) {}

  async start(kind: ConversionKind, capacity: number, plan: SessionPlan, idleMs: number): Promise<Session | undefined> {
    const { doc, tableName } = this.db();
    // Two tries: a slot seen free may be claimed by another player between the query and the write.
    for (let attempt = 0; attempt < 2; attempt++) {
      const now = this.clock();
      const taken = await this.liveSlots(kind, idleMs, now);
      const free = Array.from({ length: capacity }, (_, i) => i).filter((i) => !taken.has(i));
      if (free.length === 0) return undefined;
      for (const slot of free) {
        const held: SessionSlot = {
          id: `${KIND_LETTER[kind]}${slot}-${randomBytes(8).toString('hex')}`,
          kind,
          slot,
          createdAt: now,
          lastSeenAt: now,
        };
        let previous: string | undefined;
        try {
          const out = await guarded(() =>
            doc.send(
              new PutCommand({
                TableName: tableName,
                Item: { ...keys.playbackSlot(kind, slot), ...held, sessionId: held.id, [TTL_ATTRIBUTE]: ttlIn(TTL_SECONDS, now) },
                ConditionExpression: 'attribute_not_exists(pk) OR lastSeenAt < :expired',
                ExpressionAttributeValues: { ':expired': now - idleMs },
                ReturnValues: 'ALL_OLD',
              }),
            ),
          );
          previous = out.Attributes?.sessionId as string | undefined;
        } catch (err) {
          if (!isConditionFailed(err)) throw err;
          continue;
        }
        // The session that held the slot before ended idle: its plan goes now rather than at its TTL.
        const ended = previous;
        if (ended)
          await guarded(() => doc.send(new DeleteCommand({ TableName: tableName, Key: keys.playbackPlan(ended) }))).catch(() => undefined);
        // After the claim, so a start refused for want of a slot writes no plan; a plan that
        // cannot be written gives the slot back at once.
        try {
          const stored: StoredPlan = { ...plan, segments: packSegments(plan.segments) };
          await guarded(() =>
            doc.send(
              new PutCommand({
                TableName: tableName,
                Item: { ...keys.playbackPlan(held.id), ...stored, [TTL_ATTRIBUTE]: ttlIn(PLAN_TTL_SECONDS, now) },
              }),
            ),
          );
        } catch (err) {
          await this.end(held.id).catch(() => undefined);
          throw err;
        }
        return { ...plan, ...held };
      }
    }
    return undefined;
  }

  async touch(id: string, idleMs: number): Promise<SessionSlot | undefined> {
    const at = parseSessionId(id);
    if (!at) return undefined;
    const { doc, tableName } = this.db();
    const now = this.clock();
    try {
      const out = await guarded(() =>
        doc.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.playbackSlot(at.kind, at.slot),
            UpdateExpression: 'SET lastSeenAt = :now, #ttl = :ttl',
            ConditionExpression: 'sessionId = :id AND lastSeenAt >= :expired',
            ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
            ExpressionAttributeValues: { ':now': now, ':ttl': ttlIn(TTL_SECONDS, now), ':id': id, ':expired': now - idleMs },
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      const item = out.Attributes as (SessionSlot & { sessionId: string }) | undefined;
      return item
        ? { id, kind: at.kind, slot: at.slot, createdAt: Number(item.createdAt), lastSeenAt: Number(item.lastSeenAt) }
        : undefined;
    } catch (err) {
      if (isConditionFailed(err)) return undefined;
      throw err;
    }
  }

  async plan(id: string): Promise<SessionPlan | undefined> {
    if (!parseSessionId(id)) return undefined;
    const { doc, tableName } = this.db();
    const out = await guarded(() => doc.send(new GetCommand({ TableName: tableName, Key: keys.playbackPlan(id) })));
    const item = out.Item as (StoredPlan & Record<string, unknown>) | undefined;
    if (!item) return undefined;
    const { mediaId, part, version, audioTrack, video, audio, audioFrameS, maxHeight, prerollS, input } = item;
    return {
      mediaId,
      part,
      version,
      audioTrack,
      video,
      audio,
      ...(audioFrameS === undefined ? {} : { audioFrameS }),
      maxHeight,
      prerollS,
      input,
      segments: unpackSegments(item.segments),
    };
  }

  async end(id: string): Promise<boolean> {
    const at = parseSessionId(id);
    if (!at) return false;
    const { doc, tableName } = this.db();
    try {
      await guarded(() =>
        doc.send(
          new DeleteCommand({
            TableName: tableName,
            Key: keys.playbackSlot(at.kind, at.slot),
            ConditionExpression: 'sessionId = :id',
            ExpressionAttributeValues: { ':id': id },
          }),
        ),
      );
      await guarded(() => doc.send(new DeleteCommand({ TableName: tableName, Key: keys.playbackPlan(id) })));
      return true;
    } catch (err) {
      if (isConditionFailed(err)) return false;
      throw err;
    }
  }

  async live(kind: ConversionKind, idleMs: number): Promise<number> {
    return (await this.liveSlots(kind, idleMs, this.clock())).size;
  }

  /** The slots of the kind whose session was asked for within the idle time. */
  private async liveSlots(kind: ConversionKind, idleMs: number, now: number): Promise<Set<number>> {
    const { pk, skPrefix } = keys.playbackSlots(kind);
    const live = new Set<number>();
    for await (const item of queryItems(this.db(), {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix },
      ProjectionExpression: 'slot, lastSeenAt',
    })) {
      if (Number(item.lastSeenAt) >= now - idleMs) live.add(Number(item.slot));
    }
    return live;
  }
}
