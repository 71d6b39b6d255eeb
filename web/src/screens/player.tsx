// Playing a film or an episode. The service is asked how this browser is to play it (what it
// plays is probed, ui/playback.ts): as the file is, or converted while it plays (HLS); a line
// says what is converted and why, a menu picks the audio track when there are several, the
// subtitle tracks come as WebVTT, and the conversion ends when the player closes. Starts at
// ?t= seconds. Where the viewer is goes to the service as they watch (useProgressReports), so
// any device can resume there; at an episode's end the next one is offered.
import type { RefObject } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, currentProfileId, profileApi, unwrap, type SubtitleTrack } from '../api/client';
import { ProblemView, Show, useLoad } from '../ui/load';
import { attach, endSession, keepAlive, problemAt, startEarly, startPlayback, type EarlyPlayback, type PlaybackInfo } from '../ui/playback';
import { navigate } from '../ui/router';
import { playFrom, reportProgress, resumeAt } from '../ui/watching';

interface AudioChoice {
  codec: string;
  channels: number | null;
  language: string | null;
}

interface Playable {
  id: string;
  title: string;
  subtitles: SubtitleTrack[];
  audio: AudioChoice[];
}

const languageName = (tag: string | null) => {
  if (!tag) return null;
  try {
    return new Intl.DisplayNames([navigator.language], { type: 'language' }).of(tag) ?? tag;
  } catch {
    return tag;
  }
};
const channelsName = (n: number | null) => (n === 1 ? 'mono' : n === 2 ? 'stereo' : n === 6 ? '5.1' : n === 8 ? '7.1' : n ? `${n} ch` : '');
const audioLabel = (a: AudioChoice, i: number) =>
  [languageName(a.language) ?? `Track ${i + 1}`, `(${[a.codec.toUpperCase(), channelsName(a.channels)].filter(Boolean).join(' ')})`].join(
    ' ',
  );

/** What the player shows under the title: the conversion, in the service's words. */
const ConversionLine = ({ info }: { info: PlaybackInfo }) =>
  info.method === 'direct' ? null : (
    <p class="conversion" data-method={info.method}>
      {info.reasons.map((r) => r.detail).join(' · ')}
    </p>
  );

/** Reports every this often while playing; a pause, a seek, the tab hidden and the player closing report at once. */
const REPORT_EVERY_MS = 10_000;

/**
 * Tells the service where the viewer is in `mediaId`, as the profile the player opened as (a
 * switch of profile closes the player, whose last report is still the one it played as).
 * Nothing before the picture first plays: until then the element's position (0 while the
 * start at ?t= is applied, or while another audio track is attached) is not the viewer's, and
 * reporting it would wipe the place they resume from. The same position is not said twice.
 */
const useProgressReports = (video: RefObject<HTMLVideoElement>, mediaId: string) => {
  useEffect(() => {
    const element = video.current!;
    const profileId = currentProfileId();
    let playing = false;
    let said = -1;
    const report = () => {
      const position = element.currentTime;
      if (!playing || !Number.isFinite(position) || Math.abs(position - said) < 0.5) return;
      said = position;
      reportProgress(profileId, mediaId, position, element.duration);
    };
    const listeners: Array<[EventTarget, string, () => void]> = [
      [element, 'playing', () => (playing = true)],
      // A new source (another audio track, a session started again): wait for it to play.
      [element, 'emptied', () => (playing = false)],
      [element, 'pause', report],
      [element, 'seeked', report],
      [element, 'ended', report],
      [document, 'visibilitychange', () => document.visibilityState === 'hidden' && report()],
      [window, 'pagehide', report],
    ];
    for (const [target, type, listener] of listeners) target.addEventListener(type, listener);
    const timer = setInterval(() => !element.paused && report(), REPORT_EVERY_MS);
    return () => {
      report();
      clearInterval(timer);
      for (const [target, type, listener] of listeners) target.removeEventListener(type, listener);
    };
  }, [mediaId]);
};

/** What follows an episode: its address (from where the profile stopped in it) and its name. */
interface Next {
  href: string;
  label: string;
}

/** Offered once the episode has ended, focused so a remote's OK plays it; playing on (a seek back) takes it away. */
const NextEpisode = ({ next }: { next: Next }) => {
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => button.current?.focus(), []);
  return (
    <div class="next-episode" role="status">
      <span>Up next: {next.label}</span>
      <button type="button" class="play" ref={button} onClick={() => navigate(next.href)}>
        ▶ Next episode
      </button>
    </div>
  );
};

/**
 * The playback asked for at once, beside the details: a conversion's first segments are being
 * made while the page loads. Ended when the page goes before a player took it.
 */
const useEarlyPlayback = (mediaId: string, at: number): EarlyPlayback => {
  const early = useMemo(() => startEarly(mediaId, at), [mediaId, at]);
  useEffect(() => {
    window.addEventListener('pagehide', early.release);
    return () => {
      window.removeEventListener('pagehide', early.release);
      early.release();
    };
  }, [early]);
  return early;
};

const Video = ({ item, at, next, early }: { item: Playable; at: number; next?: Next | null; early?: EarlyPlayback }) => {
  const video = useRef<HTMLVideoElement>(null);
  const [ended, setEnded] = useState(false);
  useProgressReports(video, item.id);
  const [audioTrack, setAudioTrack] = useState<number | undefined>(undefined);
  const [info, setInfo] = useState<PlaybackInfo | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  const [attempt, setAttempt] = useState(0);
  // Where to start: ?t= at first, then where the viewer was when the audio track changed.
  const startAt = useRef(at);
  const restarted = useRef(false);

  useEffect(() => {
    const element = video.current!;
    let live = true;
    let stop = () => undefined as void;
    let info: PlaybackInfo | undefined;
    const fail = (error: ApiError) => live && setFailure(error);
    setFailure(null);
    // The first attempt takes the playback asked for as the page opened; a retry or another track asks anew.
    const asked =
      (attempt === 0 && audioTrack === undefined ? early?.take() : undefined) ?? startPlayback(item.id, audioTrack, startAt.current);
    asked
      .then(async (answer) => {
        if (!live) {
          if (answer.sessionId) endSession(answer.sessionId);
          return;
        }
        info = answer;
        setInfo(answer);
        const onError = async (url: string | undefined) => {
          const problem = url ? await problemAt(url) : undefined;
          // The session ended while the page was away (nothing asked for a minute): a new one, where it was.
          if (problem?.status === 404 && answer.sessionId && !restarted.current) {
            restarted.current = true;
            startAt.current = element.currentTime;
            return live && setAttempt((a) => a + 1);
          }
          const detail =
            problem?.detail ??
            (element.error
              ? `The browser could not play it (${element.error.message || `media error ${element.error.code}`}).`
              : undefined);
          fail(
            new ApiError(problem?.status ?? 422, 'This cannot be played', detail ?? 'The player stopped: the file may be damaged.', null),
          );
        };
        element.onerror = () => void onError(answer.url);
        element.onloadedmetadata = () => {
          if (startAt.current > 0) element.currentTime = startAt.current;
        };
        const attached = await attach(element, answer, (url) => void onError(url));
        const stopKeepAlive = keepAlive(answer);
        stop = () => {
          stopKeepAlive();
          attached.detach();
          if (answer.sessionId) endSession(answer.sessionId);
        };
        if (!live) stop();
      })
      .catch((error: unknown) => fail(error instanceof ApiError ? error : new ApiError(0, 'Something went wrong', String(error), null)));
    const leave = () => info?.sessionId && endSession(info.sessionId);
    window.addEventListener('pagehide', leave);
    return () => {
      live = false;
      window.removeEventListener('pagehide', leave);
      element.onerror = null;
      stop();
    };
  }, [item.id, audioTrack, attempt]);

  const chooseTrack = (index: number) => {
    startAt.current = video.current?.currentTime ?? 0;
    setAudioTrack(index);
  };

  return (
    <main class="player">
      <h1 class="screen-title">{item.title}</h1>
      {info && <ConversionLine info={info} />}
      {failure ? <ProblemView error={failure} retry={() => setAttempt((a) => a + 1)} /> : null}
      <video
        ref={video}
        controls
        autoplay
        preload="metadata"
        hidden={failure !== null}
        onEnded={() => setEnded(true)}
        onPlay={() => setEnded(false)}
      >
        {item.subtitles
          .filter((track) => track.url)
          .map((track) => (
            <track
              key={track.id}
              kind="subtitles"
              src={track.url!}
              srclang={track.language ?? undefined}
              label={track.label}
              default={track.default}
            />
          ))}
      </video>
      {ended && next && <NextEpisode next={next} />}
      {item.audio.length > 1 && (
        <label class="audio-track">
          Audio{' '}
          <select value={info?.audioTrack ?? ''} onChange={(event) => chooseTrack(Number(event.currentTarget.value))}>
            {item.audio.map((a, i) => (
              <option key={i} value={i}>
                {audioLabel(a, i)}
              </option>
            ))}
          </select>
        </label>
      )}
    </main>
  );
};

export const Player = ({ id, at }: { id: string; at: number }) => {
  const early = useEarlyPlayback(id, at);
  const [loaded, retry] = useLoad(async () => {
    const movie = (await unwrap(profileApi.GET('/api/v1/movies/{movieId}', { params: { path: { movieId: id } } }))).data;
    return { id, title: movie.media.title, subtitles: movie.subtitles, audio: movie.file?.audio ?? [] };
  }, [id]);
  return (
    <Show loaded={loaded} retry={retry} label="Loading the film">
      {(item) => <Video item={item} at={at} early={early} />}
    </Show>
  );
};

const episodeNumber = (e: { seasonNumber: number; episodeNumber: number }) =>
  `S${String(e.seasonNumber).padStart(2, '0')}E${String(e.episodeNumber).padStart(2, '0')}`;

export const EpisodePlayer = ({ showId, episodeId, at }: { showId: string; episodeId: string; at: number }) => {
  const early = useEarlyPlayback(episodeId, at);
  const [loaded, retry] = useLoad(async () => {
    const show = (await unwrap(profileApi.GET('/api/v1/tvshows/{showId}', { params: { path: { showId } } }))).data;
    const episodes = show.seasons.flatMap((s) => s.episodes);
    const index = episodes.findIndex((e) => e.id === episodeId);
    const episode = episodes[index];
    if (!episode) return null;
    // The one after it as the page lists them, into the next season (specials, season 0, only after a special):
    // what "next" means to someone watching in a row, whatever they skipped before.
    const following = episodes[index + 1];
    const special = (e: { seasonNumber: number }) => e.seasonNumber === 0;
    const next = following && special(following) === special(episode) ? following : undefined;
    return {
      item: {
        id: episode.id,
        title: `${show.media.title} ${episodeNumber(episode)}${episode.title ? ` · ${episode.title}` : ''}`,
        subtitles: episode.subtitles,
        audio: episode.file.audio,
      },
      next: next
        ? {
            href: playFrom(`/shows/${showId}/play/${next.id}`, resumeAt(next.userData)),
            label: `${episodeNumber(next)}${next.title ? ` · ${next.title}` : ''}`,
          }
        : null,
    };
  }, [showId, episodeId]);
  return (
    <Show loaded={loaded} retry={retry} label="Loading the episode">
      {(found) =>
        found ? (
          // Another episode is another player (its own reports, nothing offered yet).
          <Video key={found.item.id} item={found.item} at={at} next={found.next} early={early} />
        ) : (
          <main class="problem" role="alert">
            <h2>Not found</h2>
            <p>This show has no such episode (any more).</p>
          </main>
        )
      }
    </Show>
  );
};
