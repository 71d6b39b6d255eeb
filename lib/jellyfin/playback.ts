// The door's playing: PlaybackInfo decided by our playback engine (device-profile.ts turns the
// app's profile into the engine's), the file's bytes, the conversion as Jellyfin's HLS
// addresses (master.m3u8, main.m3u8, hls1/main/<n>.ts: the same session and segments as
// /api/v1/playback), subtitles as WebVTT, SubRip or Jellyfin's JSON track events, and the
// reports that feed each person's place (the rules of PUT /api/v1/progress).
//
// One conversion per device: a PlaybackInfo from a device ends the conversion it had, and so do
// a stop report and DELETE /Videos/ActiveEncodings. The PlaySessionId of a conversion is its
// session's id, so any of its requests names it; a direct play gets a fresh id of its own.
import { randomBytes } from 'node:crypto';
import { filesDuration, type EpisodeItem, type MovieItem } from '../catalog/model';
import type { PlaybackService } from '../playback/service';
import { HLS_TYPE } from '../playback/service';
import { parseSessionId } from '../playback/session-id';
import type { StreamReply } from '../stream/deliver';
import type { SubtitleAnswer } from '../subtitles/service';
import type { TrackOptions } from '../subtitles/tracks';
import { parseVtt, type Cue } from '../subtitles/webvtt';
import type { DoorCatalogue } from './catalogue';
import { badRequest, json, noContent, notFound, type DoorHandler, type DoorReply, type DoorRequest } from './door';
import { readDeviceProfile } from './device-profile';
import { judgeFile } from './play-verdict';
import { itemGuid } from './guid';
import { itemSubtitles, mediaSource, streamOfKind } from './media-sources';
import type { DoorStore } from './store';
import { field, secondsOf, textField, TICKS_PER_SECOND } from './wire';

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
}

type Playable = MovieItem | EpisodeItem;

/** A number the app sent, as a number or a string; undefined when it sent none or nonsense. */
const numberOf = (value: unknown): number | undefined => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  return Number.isFinite(n) ? n : undefined;
};
const boolOf = (value: unknown): boolean | undefined =>
  value === true || value === 'true' || value === 'True'
    ? true
    : value === false || value === 'false' || value === 'False'
      ? false
      : undefined;

const queryOf = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** The request's own query again, for the addresses a playlist names (the session and the token travel with them). */
const sameQuery = (req: DoorRequest) => {
  const kept = [...req.query.map].filter(([k]) => k === 'playsessionid' || k === 'apikey' || k === 'api_key' || k === 'deviceid');
  return kept
    .map(([k, v]) => `${k === 'playsessionid' ? 'PlaySessionId' : k === 'deviceid' ? 'DeviceId' : 'ApiKey'}=${encodeURIComponent(v)}`)
    .join('&');
};

const asReply = (reply: StreamReply): DoorReply => ({ status: reply.status, body: reply.body, headers: reply.headers });

/** SubRip, for the apps that ask for a track in the format it was (Kodi's add-ons). */
const toSrt = (cues: readonly Cue[]) => {
  const stamp = (ms: number) => {
    const t = Math.max(0, Math.round(ms));
    const pad = (n: number, w = 2) => String(n).padStart(w, '0');
    return `${pad(Math.floor(t / 3_600_000))}:${pad(Math.floor(t / 60_000) % 60)}:${pad(Math.floor(t / 1000) % 60)},${pad(t % 1000, 3)}`;
  };
  return cues.map((c, i) => `${i + 1}\n${stamp(c.startMs)} --> ${stamp(c.endMs)}\n${c.text}\n`).join('\n');
};

export const playbackHandlers = (deps: PlaybackDoorDeps): Record<string, DoorHandler> => {
  const playable = async (raw: string | undefined): Promise<Playable> => {
    const found = raw ? await deps.catalogue.find(raw) : undefined;
    if (found?.kind === 'episode') return found.item;
    if (found?.kind === 'title' && found.item.entity === 'movie') return found.item;
    throw notFound('Item');
  };
  const nameOf = (item: Playable) => (item.entity === 'movie' ? item.title : (item.title ?? `Episode ${item.episodeNumber}`));
  const sessionOf = (req: DoorRequest) => req.query.str('PlaySessionId') ?? textField(req.body, 'PlaySessionId');
  const conversion = (id: string | undefined) => (id && parseSessionId(id) ? id : undefined);
  const endConversion = async (id: string | undefined) => {
    if (conversion(id)) await deps.engine().end(id!);
  };

  const playbackInfo: DoorHandler = async (req) => {
    const item = await playable(req.params.itemId);
    const file = item.files[0];
    if (!file) throw notFound('Media source');
    const session = req.session!;
    // The POST body, or the query (Infuse's GET form): each field by its name in either.
    const value = (name: string) => field(req.body, name) ?? req.query.str(name);
    const tech = file.tech ?? null;
    const audioIndex = numberOf(value('AudioStreamIndex'));
    const audioTrack = audioIndex === undefined ? null : (streamOfKind(tech, audioIndex, 'Audio') ?? null);
    const maxStreamingBitrate = numberOf(value('MaxStreamingBitrate'));
    const maxAudioChannels = numberOf(value('MaxAudioChannels'));
    const startTicks = numberOf(value('StartTimeTicks'));
    const verdict = judgeFile(readDeviceProfile(field(req.body, 'DeviceProfile')), tech, {
      audioTrack,
      maxStreamingBitrate: maxStreamingBitrate && maxStreamingBitrate > 0 ? maxStreamingBitrate : undefined,
      maxAudioChannels: maxAudioChannels && maxAudioChannels > 0 ? Math.trunc(maxAudioChannels) : undefined,
    });
    // An app that asks for no direct play (a user's "always convert") gets a conversion.
    const client = boolOf(value('EnableDirectPlay')) === false ? { ...verdict.client, containers: ['hls'] } : verdict.client;

    // The device's previous conversion ends before this one takes a slot.
    await endConversion(await deps.store.swapConversion(session.profileId, session.deviceId, null));
    const answer = await deps.engine().start(
      {
        mediaId: item.id,
        client,
        ...(audioTrack !== null ? { audioTrack } : {}),
        ...(startTicks && startTicks > 0 ? { startSeconds: secondsOf(startTicks) } : {}),
      },
      req.origin,
    );
    const playSessionId = answer.sessionId ?? randomBytes(16).toString('hex');
    if (answer.sessionId) await deps.store.swapConversion(session.profileId, session.deviceId, answer.sessionId);

    const guid = itemGuid(item.id);
    const tracks = itemSubtitles(item, deps.subtitles);
    const source = mediaSource(guid, nameOf(item), item, filesDuration(item.files), tracks);
    const direct = answer.method === 'direct';
    const streams = (source.MediaStreams as Record<string, unknown>[]).map((s) => {
      if (s.Type !== 'Subtitle') return s;
      if (s.IsTextSubtitleStream)
        return {
          ...s,
          DeliveryMethod: 'External',
          DeliveryUrl: `/Videos/${guid}/${guid}/Subtitles/${s.Index as number}/0/Stream.vtt?ApiKey=${session.token}`,
          IsExternalUrl: false,
        };
      // Pictures: a player that plays the file itself may show them; a conversion does not carry them.
      return direct ? { ...s, DeliveryMethod: 'Embed' } : s;
    });
    const firstAudio = tech?.video ? 1 : 0;
    const subtitleIndex = numberOf(value('SubtitleStreamIndex'));
    const defaultSubtitle = streams.find((s) => s.Type === 'Subtitle' && s.IsDefault)?.Index as number | undefined;
    const transcoding = direct
      ? {}
      : {
          TranscodingUrl: `/videos/${guid}/master.m3u8?${queryOf({
            DeviceId: session.deviceId,
            MediaSourceId: guid,
            PlaySessionId: playSessionId,
            ApiKey: session.token,
            VideoCodec: client.videoCodecs[0],
            AudioCodec: client.audioCodecs[0],
            AudioStreamIndex: answer.audioTrack === null ? undefined : firstAudio + answer.audioTrack,
            TranscodeReasons: verdict.reasons.join(',') || 'DirectPlayError',
          })}`,
          TranscodingSubProtocol: 'hls',
          TranscodingContainer: 'ts',
        };
    return json({
      MediaSources: [
        {
          ...source,
          MediaStreams: streams,
          SupportsDirectPlay: direct,
          SupportsDirectStream: direct,
          SupportsTranscoding: true,
          ...transcoding,
          DefaultAudioStreamIndex: answer.audioTrack === null ? undefined : firstAudio + answer.audioTrack,
          DefaultSubtitleStreamIndex: subtitleIndex !== undefined && subtitleIndex >= 0 ? subtitleIndex : (defaultSubtitle ?? -1),
        },
      ],
      PlaySessionId: playSessionId,
    });
  };

  const stream: DoorHandler = async (req) => {
    const item = await playable(req.params.itemId);
    return asReply(await deps.stream(item.id, req.method === 'HEAD' ? 'HEAD' : 'GET', req.headers));
  };

  /** The conversion a playlist or segment request names; 404 when it ended (the app asks PlaybackInfo again). */
  const liveConversion = (req: DoorRequest) => {
    const id = conversion(sessionOf(req));
    if (!id) throw badRequest('PlaySessionId names no conversion');
    return id;
  };

  const masterPlaylist: DoorHandler = async (req) => {
    const id = liveConversion(req);
    if (!(await deps.engine().keepAlive(id))) throw notFound('Playback session');
    // One variant: the conversion's own; players pick it and read its playlist.
    const text = `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=${12_000_000}\nmain.m3u8?${sameQuery(req)}\n`;
    return { status: 200, body: req.method === 'HEAD' ? '' : text, headers: { 'Content-Type': HLS_TYPE } };
  };

  const mainPlaylist: DoorHandler = async (req) => {
    const id = liveConversion(req);
    const query = sameQuery(req);
    const text = await deps.engine().playlist(id, (i) => `hls1/main/${i}.ts?${query}`);
    return { status: 200, body: req.method === 'HEAD' ? '' : text, headers: { 'Content-Type': HLS_TYPE } };
  };

  const segment: DoorHandler = async (req) => {
    const id = liveConversion(req);
    const index = Number(req.params.segmentId);
    if (!Number.isSafeInteger(index) || index < 0) throw notFound('Segment');
    return asReply(await deps.segment(id, index, req.method === 'HEAD' ? 'HEAD' : 'GET', req.headers));
  };

  const subtitle: DoorHandler = async (req) => {
    const item = await playable(req.params.itemId);
    const format = req.params.format!.toLowerCase();
    if (!['vtt', 'js', 'srt', 'subrip'].includes(format)) throw notFound(`Subtitles as ${format}`);
    const at = streamOfKind(item.files[0]?.tech, Number(req.params.index), 'Subtitle');
    const listed = at === undefined ? undefined : itemSubtitles(item, deps.subtitles)[at];
    if (!listed?.servable) throw notFound('Subtitle stream');
    const answer = await deps.subtitle(item.id, listed.track.id, format === 'vtt' ? req.headers['if-none-match'] : undefined);
    if (format === 'vtt') return { status: answer.status, body: answer.body ?? '', headers: answer.headers };
    const cues = parseVtt(answer.body ?? '');
    if (format === 'js') {
      return json({
        TrackEvents: cues.map((c, i) => ({
          Id: String(i + 1),
          Text: c.text,
          StartPositionTicks: Math.round(c.startMs * (TICKS_PER_SECOND / 1000)),
          EndPositionTicks: Math.round(c.endMs * (TICKS_PER_SECOND / 1000)),
        })),
      });
    }
    return { status: 200, body: toSrt(cues), headers: { 'Content-Type': 'application/x-subrip; charset=utf-8' } };
  };

  /**
   * A report's position, read leniently: external players stop with odd values. Nothing is
   * written for a report without a position, or a stop at 0 (a player that lost its place must
   * not erase the household's); a position past the end is the end.
   */
  const report = async (req: DoorRequest, kind: 'progress' | 'stopped') => {
    const body = req.body;
    const item = await playable(textField(body, 'ItemId') ?? req.query.str('ItemId'));
    const id = sessionOf(req);
    const positionTicks = numberOf(field(body, 'PositionTicks') ?? req.query.str('PositionTicks'));
    const duration = filesDuration(item.files) ?? undefined;
    // A stop ends its conversion (the device's record of it names an ended session then, which ending again does nothing to).
    if (kind === 'stopped') await endConversion(id);
    else if (conversion(id)) await deps.engine().keepAlive(id!);
    if (positionTicks === undefined || positionTicks < 0 || (kind === 'stopped' && positionTicks === 0)) return noContent();
    const seconds = secondsOf(positionTicks);
    await deps.progress(req.session!.profileId, item.id, duration !== undefined ? Math.min(seconds, duration) : seconds, duration);
    return noContent();
  };

  return {
    playbackInfo,
    stream,
    masterPlaylist,
    mainPlaylist,
    segment,
    subtitle,
    // A start says where it starts, which is where the person already is: only the conversion is kept.
    playing: async (req) => {
      const id = conversion(sessionOf(req));
      if (id) await deps.engine().keepAlive(id);
      await playable(textField(req.body, 'ItemId') ?? req.query.str('ItemId'));
      return noContent();
    },
    progress: (req) => report(req, 'progress'),
    stopped: (req) => report(req, 'stopped'),
    pingPlayback: async (req) => {
      const id = conversion(sessionOf(req));
      if (id) await deps.engine().keepAlive(id);
      return noContent();
    },
    stopEncodings: async (req) => {
      const session = req.session!;
      const named = conversion(sessionOf(req));
      await endConversion(
        named ?? (await deps.store.swapConversion(session.profileId, req.query.str('DeviceId') ?? session.deviceId, null)),
      );
      return noContent();
    },
  };
};
