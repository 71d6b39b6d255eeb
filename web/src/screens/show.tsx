// A show: its page (ui/detail.tsx), how much of it the current profile has seen (and marking it
// all played or not), its favourite's heart, overview, its match (fixed by hand when wrong), and
// each season's episodes in order, each one a link that plays it (from where the profile
// stopped), with its bar or ✓, "Resume from …" and "Play from the start", its own mark and heart.
// Marks, favourites and reports from here or anywhere else come back on /ws and change the page.
import { useMemo } from 'preact/hooks';
import { profileApi, unwrap, type ShowDetail, type UserData } from '../api/client';
import { Detail } from '../ui/detail';
import { Show as Load, useLoad } from '../ui/load';
import { MatchControls, showMatching } from '../ui/match';
import { FavoriteButton, MarkButton, PlayLinks } from '../ui/play-actions';
import { playFrom, PlayedMark, resumeAt, useUserDataChanges, WatchedBar } from '../ui/watching';
import { duration } from './movie';

type Episode = ShowDetail['seasons'][number]['episodes'][number];

/** The show with each episode's state as `change` says (undefined: as it was), and its count of played episodes to match. */
const withEpisodes = (show: ShowDetail, change: (episode: Episode) => UserData | undefined): ShowDetail => {
  const seasons = show.seasons.map((s) => ({ ...s, episodes: s.episodes.map((e) => ({ ...e, userData: change(e) ?? e.userData })) }));
  const all = seasons.flatMap((s) => s.episodes);
  const playedEpisodes = all.filter((e) => e.userData?.played).length;
  return {
    ...show,
    seasons,
    userData: {
      playedEpisodes,
      totalEpisodes: all.length,
      played: all.length > 0 && playedEpisodes === all.length,
      favorite: show.userData?.favorite ?? false,
    },
  };
};

/** A whole show marked: every episode played or not, no position (as the service does). */
const markedAll = (show: ShowDetail, played: boolean) =>
  withEpisodes(show, (e) => ({
    positionSeconds: 0,
    progress: 0,
    played,
    playCount: e.userData?.playCount ?? 0,
    lastPlayedAt: e.userData?.lastPlayedAt ?? null,
    favorite: e.userData?.favorite ?? false,
  }));

const EpisodeRow = ({ show, episode, onChange }: { show: ShowDetail; episode: Episode; onChange: (userData: UserData) => void }) => {
  const play = `/shows/${show.id}/play/${episode.id}`;
  return (
    <li class="episode">
      <a class="episode-link" href={playFrom(play, resumeAt(episode.userData))}>
        <span class="episode-number">{episode.episodeNumber}</span>
        <span class="episode-title">{episode.title ?? `Episode ${episode.episodeNumber}`}</span>
        <PlayedMark userData={episode.userData} />
        <span class="episode-length">{duration(episode.file.durationSeconds)}</span>
        <WatchedBar userData={episode.userData} />
      </a>
      <div class="episode-actions">
        <PlayLinks href={play} userData={episode.userData} />
        <MarkButton mediaId={episode.id} played={episode.userData?.played ?? false} onMarked={onChange} />
        <FavoriteButton mediaId={episode.id} favorite={episode.userData?.favorite ?? false} onChanged={onChange} small />
      </div>
    </li>
  );
};

export const ShowScreen = ({ id }: { id: string }) => {
  const [loaded, retry, replace] = useLoad(
    async () => (await unwrap(profileApi.GET('/api/v1/tvshows/{showId}', { params: { path: { showId: id } } }))).data,
    [id],
  );
  const matching = useMemo(() => showMatching(id), [id]);
  useUserDataChanges((mediaId, userData) => {
    if (loaded.state !== 'done') return;
    const show = loaded.value;
    if (mediaId === show.id) {
      // A show's own change is its every episode marked, or its favourite: the event does not say
      // which, so a favourite alone is shown as it is, and anything else is asked for again.
      const seen = show.userData;
      if (seen && userData.favorite !== seen.favorite && userData.played === seen.played)
        replace({ ...show, userData: { ...seen, favorite: userData.favorite } });
      else retry();
    } else if (show.seasons.some((s) => s.episodes.some((e) => e.id === mediaId)))
      replace(withEpisodes(show, (e) => (e.id === mediaId ? userData : undefined)));
  });
  return (
    <Load loaded={loaded} retry={retry} label="Loading the show">
      {(show) => {
        const { media } = show;
        const seen = show.userData;
        return (
          <Detail media={media}>
            <div class="play-actions">
              {seen && seen.totalEpisodes > 0 && (
                <>
                  <span class="seen">
                    {seen.playedEpisodes} of {seen.totalEpisodes} episodes played
                  </span>
                  <MarkButton
                    mediaId={show.id}
                    played={seen.played}
                    noun="all "
                    onMarked={(userData) => replace(markedAll(show, userData.played))}
                  />
                </>
              )}
              {seen && (
                <FavoriteButton
                  mediaId={show.id}
                  favorite={seen.favorite}
                  onChanged={(userData) => replace({ ...show, userData: { ...seen, favorite: userData.favorite } })}
                />
              )}
            </div>
            {media.overview && <p class="overview">{media.overview}</p>}
            {/* A match's answer describes the show anew, without anyone's state: the page keeps its own. */}
            <MatchControls
              key={show.id}
              item={show}
              matching={matching}
              onDescribed={(described) => {
                const before = new Map(show.seasons.flatMap((s) => s.episodes.map((e) => [e.id, e.userData] as const)));
                replace(withEpisodes(described, (e) => before.get(e.id)));
              }}
            />
            {show.seasons.map((season) => (
              <section class="season" key={season.seasonNumber}>
                <h2>{season.name}</h2>
                <ol class="episodes">
                  {season.episodes.map((episode) => (
                    <EpisodeRow
                      key={episode.id}
                      show={show}
                      episode={episode}
                      onChange={(userData) => replace(withEpisodes(show, (e) => (e.id === episode.id ? userData : undefined)))}
                    />
                  ))}
                </ol>
              </section>
            ))}
          </Detail>
        );
      }}
    </Load>
  );
};
