// The door's playing: PlaybackInfo decided by our playback engine (device-profile.ts turns the
// app's profile into the engine's), the file's bytes, the conversion as Jellyfin's HLS
// addresses (master.m3u8, main.m3u8, hls1/main/<n>.ts: the same session and segments as
// /api/v1/playback), subtitles as WebVTT, SubRip or Jellyfin's JSON track events, and the
// reports that feed each person's place (the rules of PUT /api/v1/progress).
//
// A PlaybackInfo decides, and starts nothing unless it says it is for playing (IsPlayback); else
// a conversion starts at its first playlist request, from what its address says. Either way its
// play session (the PlaySessionId the app sends with every request and report) is bound to it in
// the table. One conversion per device: starting one ends
// the device's previous one, and a stop report and DELETE /Videos/ActiveEncodings end it.
import { randomBytes } from 'node:crypto';
import { filesDuration } from '../catalog/model';
import { conversionHandlers, startEarly } from './conversion';
import { json, noContent, notFound, type DoorHandler, type DoorRequest } from './door';
import { readDeviceProfile } from './device-profile';
import { judgeFile } from './play-verdict';
import { itemGuid } from './guid';
import { itemSubtitles, mediaSource, streamOfKind } from './media-sources';
import { asReply, boolOf, numberOf, playContext, positive, type PlaybackDoorDeps } from './play-common';
import { subtitleHandler } from './subtitle-streams';
import { field, secondsOf, textField, TICKS_PER_SECOND } from './wire';

export type { PlaybackDoorDeps } from './play-common';

const queryOf = (params: Record<string, string | number | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== '')
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** The request's own query again, for the addresses a playlist names (the session and the token travel with them). */
export const playbackHandlers = (deps: PlaybackDoorDeps): Record<string, DoorHandler> => {
  const ctx = playContext(deps);
  const { playable, nameOf, conversionOf, endConversion, playRequest } = ctx;

  /**
   * What plays how, decided now; a conversion starts only when its playlist is first asked for
   * (masterPlaylist), as in Jellyfin: the apps ask PlaybackInfo on detail pages and to change a
   * track, and a conversion's slot is the box's to give to whoever plays.
   */
  const playbackInfo: DoorHandler = async (req) => {
    const item = await playable(req.params.itemId);
    const file = item.files[0];
    if (!file) throw notFound('Media source');
    const session = req.session!;
    // The POST body, or the query (Infuse's GET form): each field by its name in either.
    const value = (name: string) => field(req.body, name) ?? req.query.str(name);
    const tech = file.tech ?? null;
    const maxBitrate = positive(numberOf(value('MaxStreamingBitrate')));
    const maxAudioChannels = positive(numberOf(value('MaxAudioChannels')));
    const audioIndex = numberOf(value('AudioStreamIndex'));
    const verdict = judgeFile(readDeviceProfile(field(req.body, 'DeviceProfile')), tech, {
      audioTrack: (audioIndex === undefined ? undefined : streamOfKind(tech, audioIndex, 'Audio')) ?? null,
      maxStreamingBitrate: maxBitrate,
      maxAudioChannels,
    });
    // An app that asks for no direct play (a user's "always convert") gets a conversion.
    const client = boolOf(value('EnableDirectPlay')) === false ? { ...verdict.client, containers: ['hls'] } : verdict.client;
    const request = playRequest(item, client, value);
    const { decision } = await deps.engine().choose(request);
    const direct = decision.method === 'direct';
    const playSessionId = randomBytes(16).toString('hex');

    const guid = itemGuid(item.id);
    const tracks = itemSubtitles(item, deps.subtitles);
    const source = mediaSource(guid, nameOf(item), item, filesDuration(item.files), tracks);
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
    const audioStream = decision.audioTrack === null ? undefined : firstAudio + decision.audioTrack;
    const subtitleIndex = numberOf(value('SubtitleStreamIndex'));
    const defaultSubtitle = streams.find((s) => s.Type === 'Subtitle' && s.IsDefault)?.Index as number | undefined;
    // Everything the first playlist request needs to start the conversion travels in its address.
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
            AudioStreamIndex: audioStream,
            MaxAudioChannels: maxAudioChannels,
            MaxStreamingBitrate: maxBitrate,
            StartTimeTicks: request.startSeconds === undefined ? undefined : Math.round(request.startSeconds * TICKS_PER_SECOND),
            TranscodeReasons: verdict.reasons.join(',') || 'DirectPlayError',
          })}`,
          TranscodingSubProtocol: 'hls',
          TranscodingContainer: 'ts',
        };
    // The web client says when it asks in order to play (IsPlayback); a detail page does not.
    if (!direct && boolOf(value('IsPlayback')) === true) await startEarly(deps, ctx, req, transcoding.TranscodingUrl!);
    return json({
      MediaSources: [
        {
          ...source,
          MediaStreams: streams,
          SupportsDirectPlay: direct,
          SupportsDirectStream: direct,
          SupportsTranscoding: true,
          ...transcoding,
          DefaultAudioStreamIndex: audioStream,
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

  /**
   * A report's position, read leniently: external players stop with odd values. Nothing is
   * written for a report without a position, or a stop at 0 (a player that lost its place must
   * not erase the household's); a position past the end is the end.
   */
  const report = async (req: DoorRequest, kind: 'progress' | 'stopped') => {
    const body = req.body;
    const item = await playable(textField(body, 'ItemId') ?? req.query.str('ItemId'));
    const positionTicks = numberOf(field(body, 'PositionTicks') ?? req.query.str('PositionTicks'));
    const duration = filesDuration(item.files) ?? undefined;
    // A stop ends its conversion (the device's record of it names an ended session then, which ending again does nothing to).
    const conversion = await conversionOf(req);
    if (kind === 'stopped') await endConversion(conversion);
    else if (conversion) await deps.engine().keepAlive(conversion);
    if (positionTicks === undefined || positionTicks < 0 || (kind === 'stopped' && positionTicks === 0)) return noContent();
    const seconds = secondsOf(positionTicks);
    await deps.progress(req.session!.profileId, item.id, duration !== undefined ? Math.min(seconds, duration) : seconds, duration);
    return noContent();
  };

  /** A player that is paused keeps its conversion. */
  const keep = async (req: DoorRequest) => {
    const conversion = await conversionOf(req);
    if (conversion) await deps.engine().keepAlive(conversion);
  };

  return {
    ...conversionHandlers(deps, ctx),
    playbackInfo,
    stream,
    subtitle: subtitleHandler(deps, ctx),
    // A start says where it starts, which is where the person already is: only the conversion is kept.
    playing: async (req) => {
      await playable(textField(req.body, 'ItemId') ?? req.query.str('ItemId'));
      await keep(req);
      return noContent();
    },
    progress: (req) => report(req, 'progress'),
    stopped: (req) => report(req, 'stopped'),
    pingPlayback: async (req) => {
      await keep(req);
      return noContent();
    },
  };
};
