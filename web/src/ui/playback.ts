// What this browser plays, asked of the browser itself, and how a playback answer is attached
// to a <video>: a file it plays as it is goes in `src`; a conversion is HLS, which Safari and
// recent Chromium play natively and every other browser through hls.js (Media Source
// Extensions), loaded only where it is needed.
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';

export type ClientProfile = NonNullable<components['schemas']['PlaybackRequest']['client']>;
export type PlaybackInfo = components['schemas']['PlaybackInfo'];

export const HLS_TYPE = 'application/vnd.apple.mpegurl';

// A test (or a person debugging) can force the hls.js path with ?hls=js in the page's address.
const forceHlsJs = () => new URLSearchParams(location.search).get('hls') === 'js';

const probe = document.createElement('video');
const plays = (type: string) => probe.canPlayType(type) !== '';
const mse = (type: string) => typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(type);

export const nativeHls = () => !forceHlsJs() && plays(HLS_TYPE);

/** The contract's names of what this browser plays as a file (canPlayType), and HLS where it has it natively or through MSE. */
export const clientProfile = (): ClientProfile => {
  const listed = (candidates: Record<string, string[]>) =>
    Object.entries(candidates)
      .filter(([, types]) => types.some(plays))
      .map(([name]) => name);
  const containers = listed({ mp4: ['video/mp4'], webm: ['video/webm'] });
  if (nativeHls() || mse('video/mp4; codecs="avc1.42E01E,mp4a.40.2"')) containers.push('hls');
  return {
    containers,
    videoCodecs: listed({
      h264: ['video/mp4; codecs="avc1.640028"', 'video/mp4; codecs="avc1.42E01E"'],
      hevc: ['video/mp4; codecs="hvc1.1.6.L120.90"', 'video/mp4; codecs="hev1.1.6.L120.90"'],
      vp9: ['video/webm; codecs="vp9"', 'video/mp4; codecs="vp09.00.10.08"'],
      vp8: ['video/webm; codecs="vp8"'],
      av1: ['video/mp4; codecs="av01.0.08M.08"', 'video/webm; codecs="av01.0.08M.08"'],
    }),
    audioCodecs: listed({
      aac: ['audio/mp4; codecs="mp4a.40.2"'],
      mp3: ['audio/mpeg', 'audio/mp4; codecs="mp4a.69"'],
      opus: ['audio/webm; codecs="opus"', 'audio/mp4; codecs="opus"'],
      vorbis: ['audio/webm; codecs="vorbis"'],
      flac: ['audio/flac', 'audio/mp4; codecs="flac"'],
      ac3: ['audio/mp4; codecs="ac-3"'],
      eac3: ['audio/mp4; codecs="ec-3"'],
      dts: ['audio/mp4; codecs="dtsc"'],
    }),
    maxAudioChannels: 2,
  };
};

/** Asks how to play it; `startSeconds` lets the service make the segment there before it is asked for. */
export const startPlayback = (mediaId: string, audioTrack?: number, startSeconds = 0) =>
  unwrap(
    api.POST('/api/v1/playback/{mediaId}', {
      params: { path: { mediaId } },
      body: { client: clientProfile(), ...(audioTrack === undefined ? {} : { audioTrack }), ...(startSeconds > 0 ? { startSeconds } : {}) },
    }),
  ).then((answer) => answer.data);

/**
 * A playback asked for as the page opens, while what it plays (title, tracks) still loads: the
 * player takes it when it mounts. One nobody took (the page left, or the details failed) is
 * ended, so no conversion is left waiting for a player.
 */
export const startEarly = (mediaId: string, startSeconds: number) => {
  let settled = false;
  const answer = startPlayback(mediaId, undefined, startSeconds);
  answer.catch(() => undefined);
  return {
    take: (): Promise<PlaybackInfo> | undefined => {
      if (settled) return undefined;
      settled = true;
      return answer;
    },
    release: () => {
      if (settled) return;
      settled = true;
      void answer.then(
        (a) => a.sessionId && endSession(a.sessionId),
        () => undefined,
      );
    },
  };
};
export type EarlyPlayback = ReturnType<typeof startEarly>;

/** Ends a conversion; also while the page is going away (keepalive outlives it). */
export const endSession = (sessionId: string) => {
  void fetch(`/api/v1/playback/sessions/${encodeURIComponent(sessionId)}`, { method: 'DELETE', keepalive: true }).catch(() => undefined);
};

/**
 * Keeps a paused player's session alive (it ends after a minute nobody asks anything of it),
 * while its page is in view: a forgotten tab does not hold a conversion slot for good.
 */
export const keepAlive = (info: PlaybackInfo) => {
  if (!info.sessionId) return () => undefined;
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void fetch(info.url, { cache: 'no-store' }).catch(() => undefined);
  }, 30_000);
  return () => clearInterval(timer);
};

/** What a failed URL answers, in the service's words (a segment that could not be made, a session that ended). */
export const problemAt = async (url: string): Promise<{ status: number; detail: string } | undefined> => {
  try {
    const response = await fetch(url, { cache: 'no-store' });
    if (response.ok) return undefined;
    const problem = (await response.json().catch(() => ({}))) as { detail?: string; title?: string };
    return { status: response.status, detail: problem.detail || problem.title || response.statusText };
  } catch {
    return undefined;
  }
};

interface Attached {
  detach(): void;
}

/**
 * Plays the answer in the video element. `onFatal` hears of a failure the element cannot
 * recover from, with the URL that failed when hls.js knows it.
 */
export const attach = async (
  video: HTMLVideoElement,
  info: PlaybackInfo,
  onFatal: (url: string | undefined) => void,
): Promise<Attached> => {
  if (info.method === 'direct' || nativeHls()) {
    video.src = info.url;
    return { detach: () => video.removeAttribute('src') };
  }
  const { default: Hls } = await import('hls.js/light');
  const hls = new Hls({ maxBufferLength: 30, backBufferLength: 30 });
  hls.on(Hls.Events.ERROR, (_event, data) => {
    if (data.fatal) onFatal(data.frag?.url ?? data.url ?? info.url);
  });
  hls.loadSource(info.url);
  hls.attachMedia(video);
  return { detach: () => hls.destroy() };
};
