// A conversion under the door, as Jellyfin's HLS addresses: master.m3u8 (which starts it, unless a
// PlaybackInfo for playing did), main.m3u8 and hls1/main/<n>.ts, the same session and segments as
// /api/v1/playback's; and DELETE /Videos/ActiveEncodings, which ends it.
import type { ClientProfile } from '../playback/decide';
import { HLS_TYPE } from '../playback/service';
import { parseSessionId } from '../playback/session-id';
import { badRequest, noContent, notFound, type DoorHandler, type DoorRequest } from './door';
import { asReply, numberOf, positive, type PlaybackDoorDeps, type PlayContext } from './play-common';
import { DoorQuery } from './wire';

/** The request's own query again, for the addresses a playlist names (the session and the token travel with them). */
const sameQuery = (req: DoorRequest) => {
  const kept = [...req.query.map].filter(([k]) => k === 'playsessionid' || k === 'apikey' || k === 'api_key' || k === 'deviceid');
  return kept
    .map(([k, v]) => `${k === 'playsessionid' ? 'PlaySessionId' : k === 'deviceid' ? 'DeviceId' : 'ApiKey'}=${encodeURIComponent(v)}`)
    .join('&');
};

/** The engine's client profile a conversion's address describes: the codecs the app takes for this file, and its limits. */
const clientOf = (query: DoorQuery): ClientProfile => {
  // Jellyfin for Kodi drops MaxStreamingBitrate and says VideoBitrate instead.
  const maxBitrate = positive(numberOf(query.str('MaxStreamingBitrate') ?? query.str('VideoBitrate')));
  const maxAudioChannels = positive(numberOf(query.str('MaxAudioChannels')));
  const codec = (key: string, fallback: string) => (query.str(key)?.split(',')[0] ?? fallback).toLowerCase();
  return {
    containers: ['hls'],
    videoCodecs: [codec('VideoCodec', 'h264')],
    audioCodecs: [codec('AudioCodec', 'aac')],
    ...(maxBitrate !== undefined ? { maxBitrate } : {}),
    ...(maxAudioChannels !== undefined ? { maxAudioChannels } : {}),
  };
};

/**
 * A conversion started by a PlaybackInfo that says it is for playing (`IsPlayback`, which the web
 * client sends when it starts a film, never from a detail page), from the `TranscodingUrl` it
 * answers: the film is on its way while the app reads the answer and asks for the playlists, as
 * with POST /api/v1/playback. Its play session is bound to it, and it ends the device's previous
 * one. A start that fails here (no slot free until the previous one ends) is left to the master
 * playlist, which ends the previous one first and says what is wrong.
 */
export const startEarly = async (deps: PlaybackDoorDeps, ctx: PlayContext, req: DoorRequest, transcodingUrl: string): Promise<void> => {
  const query = new DoorQuery(Object.fromEntries(new URL(transcodingUrl, req.origin).searchParams));
  const playSessionId = query.str('PlaySessionId');
  const session = req.session;
  if (!playSessionId || !session) return;
  try {
    const item = await ctx.playable(req.params.itemId);
    const answer = await deps.engine().start(
      ctx.playRequest(item, clientOf(query), (name) => query.str(name)),
      req.origin,
    );
    if (!answer.sessionId) return;
    await deps.store.bindConversion(playSessionId, answer.sessionId, undefined);
    const previous = await deps.store.swapConversion(session.profileId, query.str('DeviceId') ?? session.deviceId, answer.sessionId);
    if (previous !== answer.sessionId) await ctx.endConversion(previous);
  } catch (err) {
    deps.log.info({ err, playSessionId }, 'a conversion asked for by PlaybackInfo waits for its master playlist');
  }
};

export const conversionHandlers = (deps: PlaybackDoorDeps, ctx: PlayContext): Record<string, DoorHandler> => {
  const { playable, playSessionOf, conversionOf, endConversion, playRequest } = ctx;

  /**
   * The play session's conversion: the one PlaybackInfo started (startEarly), else one started
   * at its first playlist request from what its address says, which ends the device's previous
   * one. A player asking again gets the same conversion while it lives.
   */
  const startedConversion = async (req: DoorRequest): Promise<string> => {
    const playSessionId = playSessionOf(req);
    if (!playSessionId) throw badRequest('PlaySessionId is missing or malformed');
    const bound = await deps.store.conversionOf(playSessionId);
    if (bound && (await deps.engine().keepAlive(bound))) return bound;
    const item = await playable(req.params.itemId);
    const device = req.session
      ? { profileId: req.session.profileId, deviceId: req.query.str('DeviceId') ?? req.session.deviceId }
      : undefined;
    if (device) await endConversion(await deps.store.swapConversion(device.profileId, device.deviceId, null));
    const answer = await deps.engine().start(
      playRequest(item, clientOf(req.query), (name) => req.query.str(name)),
      req.origin,
    );
    if (!answer.sessionId) throw badRequest('This file plays as it is: ask PlaybackInfo again');
    const kept = await deps.store.bindConversion(playSessionId, answer.sessionId, bound);
    // Another request of the play session started one first: that one is played, this one ends.
    if (kept !== answer.sessionId) {
      await endConversion(answer.sessionId);
      return kept;
    }
    if (device) await deps.store.swapConversion(device.profileId, device.deviceId, kept);
    return kept;
  };

  /** The conversion a variant playlist or a segment names (its address carries it); 404 when it ended. */
  const liveConversion = async (req: DoorRequest): Promise<string> => {
    const named = req.query.str('ConversionId');
    const id = named && parseSessionId(named) ? named : await conversionOf(req);
    if (!id) throw playSessionOf(req) ? notFound('Playback session') : badRequest('PlaySessionId is missing or malformed');
    return id;
  };

  const masterPlaylist: DoorHandler = async (req) => {
    const id = await startedConversion(req);
    // One variant: the conversion's own; players pick it and read its playlist.
    const text = `#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=${12_000_000}\nmain.m3u8?${sameQuery(req)}&ConversionId=${id}\n`;
    return { status: 200, body: req.method === 'HEAD' ? '' : text, headers: { 'Content-Type': HLS_TYPE } };
  };

  const mainPlaylist: DoorHandler = async (req) => {
    const id = await liveConversion(req);
    const query = `${sameQuery(req)}&ConversionId=${id}`;
    const text = await deps.engine().playlist(id, (i) => `hls1/main/${i}.ts?${query}`);
    return { status: 200, body: req.method === 'HEAD' ? '' : text, headers: { 'Content-Type': HLS_TYPE } };
  };

  const segment: DoorHandler = async (req) => {
    const id = await liveConversion(req);
    const index = Number(req.params.segmentId);
    if (!Number.isSafeInteger(index) || index < 0) throw notFound('Segment');
    return asReply(await deps.segment(id, index, req.method === 'HEAD' ? 'HEAD' : 'GET', req.headers));
  };

  return {
    masterPlaylist,
    mainPlaylist,
    segment,
    stopEncodings: async (req) => {
      const session = req.session!;
      const named = await conversionOf(req);
      await endConversion(
        named ?? (await deps.store.swapConversion(session.profileId, req.query.str('DeviceId') ?? session.deviceId, null)),
      );
      return noContent();
    },
  };
};
