// What the door's playing handlers share (playback.ts, conversion.ts, subtitle-streams.ts): their
// dependencies, the items that play, the play sessions and their conversions, and the numbers
// and flags the apps send as numbers or as strings.
import type { EpisodeItem, MovieItem } from '../catalog/model';
import type { ClientProfile } from '../playback/decide';
import type { PlaybackRequest, PlaybackService } from '../playback/service';
import { parseSessionId } from '../playback/session-id';
import type { StreamReply } from '../stream/deliver';
import type { SubtitleAnswer } from '../subtitles/service';
import type { TrackOptions } from '../subtitles/tracks';
import type { DoorCatalogue } from './catalogue';
import { notFound, type DoorReply, type DoorRequest } from './door';
import { streamOfKind } from './media-sources';
import type { Log } from '../log';
import type { DoorStore } from './store';
import { secondsOf, textField } from './wire';

export interface PlaybackDoorDeps {
  store: DoorStore;
  catalogue: DoorCatalogue;
  engine: () => PlaybackService;
  /** A film's or an episode's file, as the stream endpoint sends it (ranges, HEAD, conditionals). */
  stream: (mediaId: string, method: 'GET' | 'HEAD', headers: DoorRequest['headers']) => Promise<StreamReply>;
  /** A conversion's segment, made when it is not kept. */
  segment: (sessionId: string, index: number, method: 'GET' | 'HEAD', headers: DoorRequest['headers']) => Promise<StreamReply>;
  /** A subtitle track as WebVTT (lib/subtitles/service.ts). */
  subtitle: (mediaId: string, trackId: string, ifNoneMatch: string | undefined) => Promise<SubtitleAnswer>;
  subtitles: TrackOptions;
  progress: (profileId: string, mediaId: string, positionSeconds: number, durationSeconds: number | undefined) => Promise<unknown>;
  log: Log;
}

export type Playable = MovieItem | EpisodeItem;

/** The door's play sessions are 32 hex digits (Jellyfin's own are GUIDs, which the apps send back as they got them). */
const PLAY_SESSION = /^[0-9a-f]{32}$/iu;

/** A number the app sent, as a number or a string; undefined when it sent none or nonsense. */
export const numberOf = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};
export const boolOf = (value: unknown): boolean | undefined =>
  value === true || value === 'true' || value === 'True'
    ? true
    : value === false || value === 'false' || value === 'False'
      ? false
      : undefined;

/** A limit the app sent: a positive whole number, else none. */
export const positive = (n: number | undefined) => (n !== undefined && n > 0 ? Math.trunc(n) : undefined);

export const asReply = (reply: StreamReply): DoorReply => ({ status: reply.status, body: reply.body, headers: reply.headers });

export type PlayContext = ReturnType<typeof playContext>;

export const playContext = (deps: PlaybackDoorDeps) => {
  const playable = async (raw: string | undefined): Promise<Playable> => {
    const found = raw ? await deps.catalogue.find(raw) : undefined;
    if (found?.kind === 'episode') return found.item;
    if (found?.kind === 'title' && found.item.entity === 'movie') return found.item;
    throw notFound('Item');
  };
  const nameOf = (item: Playable) => (item.entity === 'movie' ? item.title : (item.title ?? `Episode ${item.episodeNumber}`));
  const playSessionOf = (req: DoorRequest) => {
    const id = req.query.str('PlaySessionId') ?? textField(req.body, 'PlaySessionId');
    return id && PLAY_SESSION.test(id) ? id : undefined;
  };
  /** The conversion a play session started, if it started one. */
  const conversionOf = async (req: DoorRequest) => {
    const id = playSessionOf(req);
    return id ? deps.store.conversionOf(id) : undefined;
  };
  const endConversion = async (id: string | undefined) => {
    if (id && parseSessionId(id)) await deps.engine().end(id);
  };

  /** What the request asks of the file: the track, the start, the app's limits; the engine's decision follows from it. */
  const playRequest = (item: Playable, client: ClientProfile, value: (name: string) => unknown): PlaybackRequest => {
    const audioIndex = numberOf(value('AudioStreamIndex'));
    const audioTrack = audioIndex === undefined ? undefined : streamOfKind(item.files[0]?.tech, audioIndex, 'Audio');
    const startTicks = numberOf(value('StartTimeTicks'));
    return {
      mediaId: item.id,
      client,
      ...(audioTrack !== undefined ? { audioTrack } : {}),
      ...(startTicks && startTicks > 0 ? { startSeconds: secondsOf(startTicks) } : {}),
    };
  };

  return { playable, nameOf, playSessionOf, conversionOf, endConversion, playRequest };
};
