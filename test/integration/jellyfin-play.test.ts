// Playing through the Jellyfin door as Jellyfin for Android TV does, with `@jellyfin/sdk`: a
// PlaybackInfo with a TV's device profile for each of a small library's files decides what the
// box's own playback engine decides (an H.264/AAC MP4 plays directly, from a stream URL that
// answers ranges without a token; an MKV with AC-3 has its audio converted, through HLS under
// the door that ffprobe reads; HEVC 10-bit converted for a TV without HEVC, direct for one with
// it), a sidecar SubRip arrives as WebVTT and as track events, and the conversion ends when the
// app says so. Then the watch state: a place reported through the door is our API's resume
// point, and one reported through our API the door's. Every JSON answer the SDK gets is checked
// against Jellyfin 10.11.0's OpenAPI document.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { Jellyfin, type Api } from '@jellyfin/sdk';
import type { DeviceProfile, MediaSourceInfo } from '@jellyfin/sdk/lib/generated-client/models/index.js';
import { getItemsApi, getMediaInfoApi, getPlaystateApi, getUserApi } from '@jellyfin/sdk/lib/utils/api/index.js';
import { probeStreams } from '../support/ffmpeg';
import { tempDir, waitFor } from '../support/instance';
import { assertJellyfinAnswer, jellyfinSchemaAvailable } from '../support/jellyfin-openapi';
import { scan } from '../support/media';
import { hasFfmpeg, hasHevcEncoder, makePlaybackLibrary } from '../support/playback-media';
import { processesMentioning } from '../support/processes';
import { call, jsonBody, stack } from '../support/stack';
import { makeMp4, SUBRIP_CUES } from '../support/videos';
import { WsClient } from '../support/ws';

const skip = hasFfmpeg() || process.env.MLS_REQUIRE_BROWSER ? false : 'needs ffmpeg (apt-get install ffmpeg)';
const DEVICE = 'android-tv-play-test';

const jellyfin = new Jellyfin({
  clientInfo: { name: 'Jellyfin Android TV', version: '0.19.0' },
  deviceInfo: { name: 'Living Room TV', id: DEVICE },
});

const checkedApi = (token?: string): Api => {
  const api = jellyfin.createApi(stack.jellyfin, token);
  api.axiosInstance.interceptors.response.use((res) => {
    const type = String(res.headers['content-type'] ?? '');
    if (!jellyfinSchemaAvailable() && type.includes('json')) {
      const url = new URL(res.config.url ?? '', stack.jellyfin);
      assertJellyfinAnswer(res.config.method ?? 'get', url.pathname, res.status, res.data);
    }
    return res;
  });
  return api;
};

/** A TV's profile, in the shape Jellyfin for Android TV sends: H.264 (8-bit) and AAC directly, HLS of H.264 and AAC, subtitles as files. */
const tvProfile = (hevc: boolean): DeviceProfile => ({
  Name: 'Android TV',
  MaxStreamingBitrate: 120_000_000,
  DirectPlayProfiles: [
    { Type: 'Video', Container: 'mp4,m4v,mkv,webm,ts', VideoCodec: hevc ? 'h264,hevc' : 'h264', AudioCodec: 'aac,mp3,opus' },
    { Type: 'Audio', Container: 'mp3,aac,flac' },
  ],
  TranscodingProfiles: [
    {
      Type: 'Video',
      Container: 'ts',
      VideoCodec: hevc ? 'h264,hevc' : 'h264',
      AudioCodec: 'aac,mp3',
      Protocol: 'hls',
      Context: 'Streaming',
      CopyTimestamps: false,
      EnableSubtitlesInManifest: false,
    },
  ],
  CodecProfiles: [
    {
      Type: 'Video',
      Codec: 'h264',
      Conditions: [{ Condition: 'LessThanEqual', Property: 'VideoBitDepth', Value: '8', IsRequired: false }],
    },
    {
      Type: 'Video',
      Codec: 'hevc',
      Conditions: [
        { Condition: 'LessThanEqual', Property: 'VideoBitDepth', Value: '10', IsRequired: false },
        { Condition: 'EqualsAny', Property: 'VideoRangeType', Value: 'SDR|HDR10|HLG', IsRequired: false },
      ],
    },
    { Type: 'VideoAudio', Conditions: [{ Condition: 'LessThanEqual', Property: 'AudioChannels', Value: '6', IsRequired: false }] },
  ],
  SubtitleProfiles: [
    { Format: 'srt', Method: 'External' },
    { Format: 'vtt', Method: 'External' },
  ],
});

describe('playing through the Jellyfin door, as Android TV does', { skip }, () => {
  let api: Api;
  let token: string;
  let userId: string;
  const ids = new Map<string, string>();
  const door = (method: string, path: string, headers: Record<string, string> = {}) =>
    call(method, path, { base: stack.jellyfin, headers });

  before(async () => {
    const dir = tempDir('door-play');
    makePlaybackLibrary(dir, { only: ['Pb Mkv Ac3', 'Pb Hevc Main10'], seconds: 12 });
    makeMp4(join(dir, 'Door Direct (2011).mp4'), { seconds: 10 });
    writeFileSync(join(dir, 'Door Direct (2011).en.srt'), SUBRIP_CUES);
    const done = await scan({ path: dir, mediaType: 'movie' });
    assert.equal(done.status, 'completed');
    const auth = (await getUserApi(checkedApi()).authenticateUserByName({ authenticateUserByName: { Username: 'Household', Pw: '' } }))
      .data;
    token = auth.AccessToken!;
    userId = auth.User!.Id!;
    api = checkedApi(token);
    const films = (await getItemsApi(api).getItems({ userId, parentId: done.libraryId, includeItemTypes: ['Movie'], recursive: true })).data
      .Items!;
    for (const film of films) ids.set(film.Name!, film.Id!);
    assert.ok(ids.has('Door Direct'), [...ids.keys()].join(', '));
  });

  /** `isPlayback`: asked in order to play, as the web client says when it starts a film (not in the SDK's type). */
  const playbackInfo = async (title: string, profile: DeviceProfile, isPlayback = false) => {
    const itemId = ids.get(title);
    assert.ok(itemId, `${title} is in the library`);
    const info = (
      await getMediaInfoApi(api).getPostedPlaybackInfo({
        itemId,
        playbackInfoDto: {
          UserId: userId,
          DeviceProfile: profile,
          MaxStreamingBitrate: 120_000_000,
          StartTimeTicks: 0,
          AutoOpenLiveStream: true,
          ...(isPlayback ? { IsPlayback: true } : {}),
        },
      })
    ).data;
    assert.ok(info.PlaySessionId);
    assert.equal(info.MediaSources?.length, 1);
    return { itemId, info, source: info.MediaSources[0]! };
  };

  /** The conversion's playlist and its first segment, as a player loads them; the segment's streams as ffprobe reads them. */
  const loadConversion = async (source: MediaSourceInfo) => {
    const url = new URL(source.TranscodingUrl!, stack.jellyfin);
    // Jellyfin for Kodi adds parameters of its own: they are ignored.
    url.searchParams.set('VideoBitrate', '20000000');
    url.searchParams.set('SubtitleCodec', 'srt');
    const master = await door('GET', `${url.pathname}${url.search}`);
    assert.equal(master.status, 200, master.text);
    assert.match(String(master.headers['content-type']), /mpegurl/u);
    const variant = master.text.split('\n').find((l) => l && !l.startsWith('#'))!;
    const main = await door('GET', new URL(variant, url).pathname + new URL(variant, url).search);
    assert.equal(main.status, 200, main.text);
    assert.match(main.text, /#EXT-X-ENDLIST/u);
    const first = main.text.split('\n').find((l) => l && !l.startsWith('#'))!;
    const segmentUrl = new URL(first, new URL(variant, url));
    const bytes = await fetch(segmentUrl);
    assert.equal(bytes.status, 200);
    const file = join(tempDir('door-segment'), 'first.ts');
    writeFileSync(file, Buffer.from(await bytes.arrayBuffer()));
    return probeStreams(file);
  };

  /** The variant playlist of a conversion, as Kodi's add-on asks for it (`master` swapped in the path). */
  const url = (s: MediaSourceInfo) => {
    const u = new URL(s.TranscodingUrl!, stack.jellyfin);
    return `${u.pathname.replace('master', 'main')}${u.search}`;
  };

  it('plays an H.264/AAC MP4 directly: the stream URL the app builds answers ranges without a token', async () => {
    const { itemId, source } = await playbackInfo('Door Direct', tvProfile(false));
    assert.equal(source.SupportsDirectPlay, true);
    assert.equal(source.TranscodingUrl, undefined);
    assert.equal(source.Container, 'mp4');
    const path = `/Videos/${itemId}/stream.${source.Container}?static=true&mediaSourceId=${source.Id}&tag=${source.ETag}`;
    const whole = await fetch(new URL(path, stack.jellyfin));
    const file = Buffer.from(await whole.arrayBuffer());
    assert.equal(whole.status, 200);
    assert.equal(file.length, source.Size);
    const ranged = await fetch(new URL(path, stack.jellyfin), { headers: { Range: 'bytes=100-299' } });
    assert.equal(ranged.status, 206);
    assert.deepEqual(Buffer.from(await ranged.arrayBuffer()), file.subarray(100, 300));
    const head = await door('HEAD', path);
    assert.equal(head.status, 200);
    assert.equal(Number(head.headers['content-length']), source.Size);
  });

  it("sends a sidecar SubRip at its DeliveryUrl as WebVTT, and as the web client's track events", async () => {
    const { source } = await playbackInfo('Door Direct', tvProfile(false));
    const subtitle = source.MediaStreams!.find((s) => s.Type === 'Subtitle')!;
    assert.equal(subtitle.IsExternal, true);
    assert.equal(subtitle.DeliveryMethod, 'External');
    assert.match(subtitle.DeliveryUrl ?? '', /\/Subtitles\/\d+\/0\/Stream\.vtt/u);
    const vtt = await door('GET', subtitle.DeliveryUrl!);
    assert.equal(vtt.status, 200);
    assert.match(String(vtt.headers['content-type']), /text\/vtt/u);
    assert.match(vtt.text, /^WEBVTT/u);
    assert.match(vtt.text, /00:00:00\.500 --> 00:00:01\.500\nHallo/u);
    const events = await door('GET', subtitle.DeliveryUrl!.replace('Stream.vtt', 'Stream.js'));
    assert.equal(events.status, 200);
    assert.deepEqual(
      events.json.TrackEvents.map((e: any) => [e.Text, e.StartPositionTicks, e.EndPositionTicks]),
      [
        ['Hallo', 5_000_000, 15_000_000],
        ['Welt', 18_000_000, 28_000_000],
      ],
    );
  });

  it('converts the audio of an MKV with AC-3 and copies its video, through HLS under the door', async () => {
    const { source } = await playbackInfo('Pb Mkv Ac3', tvProfile(false));
    assert.equal(source.SupportsDirectPlay, false);
    assert.equal(source.SupportsTranscoding, true);
    assert.equal(source.TranscodingSubProtocol, 'hls');
    assert.match(source.TranscodingUrl ?? '', /\/master\.m3u8\?/u);
    assert.match(source.TranscodingUrl!, new RegExp(`ApiKey=${token}`, 'u'));
    assert.match(source.TranscodingUrl!, /TranscodeReasons=[^&]*AudioCodecNotSupported/u);
    assert.equal(source.DefaultAudioStreamIndex, 1);
    const probed = await loadConversion(source);
    assert.deepEqual(probed.streams.map((s) => `${s.codec_type}:${s.codec_name}`).sort(), ['audio:aac', 'video:h264']);
  });

  it(
    'converts HEVC 10-bit for a TV without HEVC, and plays it directly on one with it',
    { skip: !hasHevcEncoder() && 'needs libx265' },
    async () => {
      const without = (await playbackInfo('Pb Hevc Main10', tvProfile(false))).source;
      assert.equal(without.SupportsDirectPlay, false);
      assert.match(without.TranscodingUrl ?? '', /TranscodeReasons=[^&]*VideoCodecNotSupported/u);
      const video = without.MediaStreams!.find((s) => s.Type === 'Video')!;
      assert.equal(video.Codec, 'hevc');
      assert.equal(video.BitDepth, 10);
      assert.equal(video.VideoRangeType, 'SDR');
      const probed = await loadConversion(without);
      assert.ok(probed.streams.some((s) => s.codec_type === 'video' && s.codec_name === 'h264'));
      const withHevc = (await playbackInfo('Pb Hevc Main10', tvProfile(true))).source;
      assert.equal(withHevc.SupportsDirectPlay, true);
      assert.equal(withHevc.TranscodingUrl, undefined);
    },
  );

  it('ends a conversion on DELETE /Videos/ActiveEncodings, and no ffmpeg is left a minute later', async () => {
    const { info, source } = await playbackInfo('Pb Mkv Ac3', tvProfile(false));
    await loadConversion(source);
    const stop = await door('DELETE', `/Videos/ActiveEncodings?deviceId=${DEVICE}&playSessionId=${info.PlaySessionId}`, {
      'X-Emby-Token': token,
    });
    assert.equal(stop.status, 204);
    const after = await door('GET', url(source));
    assert.equal(after.status, 404);
    await waitFor('no ffmpeg converting the film', async () => processesMentioning('Pb Mkv Ac3').length === 0 || undefined, 60_000, 500);
  });

  it('keeps one conversion per device: the next one started ends the previous one', async () => {
    const first = await playbackInfo('Pb Mkv Ac3', tvProfile(false));
    await loadConversion(first.source);
    const second = await playbackInfo('Pb Mkv Ac3', tvProfile(false));
    assert.notEqual(first.info.PlaySessionId, second.info.PlaySessionId);
    // A PlaybackInfo alone starts nothing: the first one plays on.
    assert.equal((await door('GET', url(first.source))).status, 200);
    await loadConversion(second.source);
    assert.equal((await door('GET', url(first.source))).status, 404);
    assert.equal((await door('GET', url(second.source))).status, 200);
    assert.equal(
      (await door('POST', `/Sessions/Playing/Ping?playSessionId=${second.info.PlaySessionId}`, { 'X-Emby-Token': token })).status,
      204,
    );
    await getPlaystateApi(api).reportPlaybackStopped({
      playbackStopInfo: { ItemId: second.source.Id!, PlaySessionId: second.info.PlaySessionId!, PositionTicks: 0 },
    });
    assert.equal((await door('GET', url(second.source))).status, 404);
  });

  it(
    'starts the conversion at a PlaybackInfo asked in order to play, and its playlists play that one',
    { skip: !hasHevcEncoder() && 'needs libx265' },
    async () => {
      // HEVC 10-bit for a TV without HEVC: a transcode, seconds of work, so its ffmpeg is seen.
      const converting = () => processesMentioning('Pb Hevc Main10').length;
      await waitFor('no conversion of the film left', async () => converting() === 0 || undefined, 60_000, 200);
      const { source } = await playbackInfo('Pb Hevc Main10', tvProfile(false), true);
      await waitFor(
        'an ffmpeg converting the film before any playlist is asked for',
        async () => converting() > 0 || undefined,
        10_000,
        50,
      );
      const probed = await loadConversion(source);
      assert.deepEqual(probed.streams.map((st) => `${st.codec_type}:${st.codec_name}`).sort(), ['audio:aac', 'video:h264']);
      // The device's next film to play ends this one, as one started by its playlist would be.
      const next = await playbackInfo('Pb Mkv Ac3', tvProfile(false), true);
      assert.equal((await door('GET', url(source))).status, 404);
      assert.equal((await door('GET', url(next.source))).status, 200);
      const stop = await door('DELETE', `/Videos/ActiveEncodings?deviceId=${DEVICE}&playSessionId=${next.info.PlaySessionId}`, {
        'X-Emby-Token': token,
      });
      assert.equal(stop.status, 204);
      await waitFor('no ffmpeg left', async () => converting() === 0 || undefined, 60_000, 200);
    },
  );

  it('feeds the watch state: a place reported through the door is our API’s resume point, and the other way round', async () => {
    const directId = ids.get('Door Direct')!;
    const films = (await call('GET', '/api/v1/movies?limit=100')).json.data as { id: string; media: { title: string } }[];
    const direct = films.find((f) => f.media.title === 'Door Direct')!;
    const remux = films.find((f) => f.media.title === 'Pb Mkv Ac3')!;
    const playstate = getPlaystateApi(api);
    await playstate.reportPlaybackStart({ playbackStartInfo: { ItemId: directId, PositionTicks: 0, PlayMethod: 'DirectPlay' } });
    await playstate.reportPlaybackProgress({ playbackProgressInfo: { ItemId: directId, PositionTicks: 40_000_000, IsPaused: false } });
    const continuing = (await call('GET', '/api/v1/continue')).json.data as any[];
    const entry = continuing.find((c) => c.id === direct.id);
    assert.ok(entry, JSON.stringify(continuing));
    assert.equal(entry.userData.positionSeconds, 4);
    // An odd stop (no position) keeps the place.
    await playstate.reportPlaybackStopped({ playbackStopInfo: { ItemId: directId } });
    assert.equal((await call('GET', `/api/v1/movies/${direct.id}`)).json.data.userData.positionSeconds, 4);

    const put = await call('PUT', `/api/v1/progress/${remux.id}`, jsonBody({ positionSeconds: 6, durationSeconds: 12 }));
    assert.equal(put.status, 200, put.text);
    const resume = (await getItemsApi(api).getResumeItems({ userId })).data.Items ?? [];
    const resumed = resume.find((i) => i.Id === ids.get('Pb Mkv Ac3'));
    assert.equal(resumed?.UserData?.PlaybackPositionTicks, 60_000_000);
    assert.equal(resume[0]?.Id, ids.get('Pb Mkv Ac3'));
  });

  it('keeps the apps in step on /socket: keep-alives, UserDataChanged for a mark made through our API, LibraryChanged after a scan; /ws hears the door', async () => {
    const socket = await WsClient.open(`${stack.jellyfin.replace(/^http/u, 'ws')}/socket?api_key=${token}&deviceId=${DEVICE}`);
    const ours = await WsClient.open(stack.ws);
    try {
      const force = await socket.next((m) => m.MessageType === 'ForceKeepAlive');
      assert.equal(force.Data, 60);
      socket.send({ MessageType: 'KeepAlive' });
      await socket.next((m) => m.MessageType === 'KeepAlive');

      const films = (await call('GET', '/api/v1/movies?limit=100')).json.data as { id: string; media: { title: string } }[];
      const played = films.find((f) => f.media.title === 'Door Direct')!;
      assert.equal((await call('POST', `/api/v1/played/${played.id}`)).status, 200);
      const changed = await socket.next((m) => m.MessageType === 'UserDataChanged');
      assert.equal(changed.Data.UserId, userId);
      assert.deepEqual(
        changed.Data.UserDataList.map((d: any) => [d.ItemId, d.Played, d.PlaybackPositionTicks]),
        [[ids.get('Door Direct'), true, 0]],
      );

      // A place reported through the door: our own socket is told.
      await getPlaystateApi(api).reportPlaybackProgress({
        playbackProgressInfo: { ItemId: ids.get('Pb Mkv Ac3')!, PositionTicks: 50_000_000 },
      });
      const ourChange = await ours.next(
        (m) => m.type === 'userdata:changed' && m.mediaId === films.find((f) => f.media.title === 'Pb Mkv Ac3')!.id,
      );
      assert.equal(ourChange.userData.positionSeconds, 5);
      assert.equal(
        ours.messages.some((m) => m.MessageType),
        false,
      );

      const more = tempDir('door-play-more');
      makeMp4(join(more, 'Door Late (2012).mp4'), { seconds: 2 });
      const done = await scan({ path: more, mediaType: 'movie' });
      const library = await socket.next((m) => m.MessageType === 'LibraryChanged' && m.Data.CollectionFolders.includes(done.libraryId));
      assert.equal(library.Data.ItemsAdded.length, 1);
      // The door's sockets get the door's messages only.
      assert.equal(
        socket.messages.some((m) => m.type),
        false,
      );
    } finally {
      await Promise.all([socket.close(), ours.close()]);
    }
  });

  it('refuses a socket with a made-up token', async () => {
    await assert.rejects(WsClient.open(`${stack.jellyfin.replace(/^http/u, 'ws')}/socket?api_key=madeup&deviceId=x`), /refused/u);
  });

  it('refuses bad playing input with Jellyfin status codes, never a 5xx', async () => {
    const auth = { 'X-Emby-Token': token };
    const cases: [string, string, number, Record<string, string>?, string?][] = [
      ['POST', '/Items/00000000000000000000000000000000/PlaybackInfo', 404, auth],
      ['POST', `/Items/${ids.get('Door Direct')}/PlaybackInfo`, 401],
      ['GET', `/Videos/nothing/stream.mp4?static=true`, 404],
      ['GET', `/Videos/${ids.get('Door Direct')}/master.m3u8`, 400],
      ['GET', `/Videos/${ids.get('Door Direct')}/master.m3u8?PlaySessionId=nope`, 400],
      ['GET', `/Videos/${ids.get('Door Direct')}/main.m3u8?PlaySessionId=${'0'.repeat(32)}`, 404],
      ['GET', `/Videos/${ids.get('Door Direct')}/hls1/main/x.ts?PlaySessionId=${'0'.repeat(32)}`, 404],
      ['GET', `/Videos/${ids.get('Door Direct')}/hls1/main/0.ts?ConversionId=r0-0000000000000000`, 404],
      ['GET', `/Videos/${ids.get('Door Direct')}/${ids.get('Door Direct')}/Subtitles/99/0/Stream.vtt`, 404],
      ['GET', `/Videos/${ids.get('Door Direct')}/${ids.get('Door Direct')}/Subtitles/0/0/Stream.exe`, 404],
      ['POST', '/Sessions/Playing/Progress', 400, { ...auth, 'Content-Type': 'application/json' }, '{"ItemId": 12'],
      ['POST', '/Sessions/Playing/Progress', 404, { ...auth, 'Content-Type': 'application/json' }, '{"ItemId": "nope"}'],
      ['POST', '/Sessions/Playing/Stopped', 401, { 'Content-Type': 'application/json' }, '{}'],
    ];
    for (const [method, path, status, headers, body] of cases) {
      const reply = await call(method, path, { base: stack.jellyfin, ...(headers ? { headers } : {}), ...(body ? { body } : {}) });
      assert.equal(reply.status, status, `${method} ${path}: ${reply.status} ${reply.text}`);
    }
  });
});
