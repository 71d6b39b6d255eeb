// Playing a film or an episode: its stream URL in the browser's own player (it seeks by byte
// ranges), its subtitle tracks as WebVTT where the service can serve them, from ?t= seconds.
import { api, unwrap, type SubtitleTrack } from '../api/client';
import { Show, useLoad } from '../ui/load';

interface Playable {
  title: string;
  streamUrl: string;
  subtitles: SubtitleTrack[];
}

const Video = ({ item, at }: { item: Playable; at: number }) => (
  <main class="player">
    <h1 class="screen-title">{item.title}</h1>
    <video
      src={item.streamUrl}
      controls
      autoplay
      preload="metadata"
      onLoadedMetadata={(event) => {
        if (at > 0) (event.currentTarget as HTMLVideoElement).currentTime = at;
      }}
    >
      {item.subtitles
        .filter((track) => track.url)
        .map((track) => (
          <track key={track.id} kind="subtitles" src={track.url!} srclang={track.language ?? undefined} label={track.label} default={track.default} />
        ))}
    </video>
  </main>
);

export const Player = ({ id, at }: { id: string; at: number }) => {
  const [loaded, retry] = useLoad(async () => {
    const movie = (await unwrap(api.GET('/api/v1/movies/{movieId}', { params: { path: { movieId: id } } }))).data;
    return { title: movie.media.title, streamUrl: movie.streamUrl, subtitles: movie.subtitles };
  }, [id]);
  return (
    <Show loaded={loaded} retry={retry} label="Loading the film">
      {(item) => <Video item={item} at={at} />}
    </Show>
  );
};

export const EpisodePlayer = ({ showId, episodeId, at }: { showId: string; episodeId: string; at: number }) => {
  const [loaded, retry] = useLoad(async () => {
    const show = (await unwrap(api.GET('/api/v1/tvshows/{showId}', { params: { path: { showId } } }))).data;
    const episode = show.seasons.flatMap((s) => s.episodes).find((e) => e.id === episodeId);
    if (!episode) return null;
    const number = `S${String(episode.seasonNumber).padStart(2, '0')}E${String(episode.episodeNumber).padStart(2, '0')}`;
    return { title: `${show.media.title} ${number}${episode.title ? ` · ${episode.title}` : ''}`, streamUrl: episode.streamUrl, subtitles: episode.subtitles };
  }, [showId, episodeId]);
  return (
    <Show loaded={loaded} retry={retry} label="Loading the episode">
      {(item) =>
        item ? (
          <Video item={item} at={at} />
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
