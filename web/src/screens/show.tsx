// A show: its page (ui/detail.tsx), overview, its match (fixed by hand when wrong), and each
// season's episodes in order, each one a link that plays it.
import { useMemo } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { Detail } from '../ui/detail';
import { Show as Load, useLoad } from '../ui/load';
import { MatchControls, showMatching } from '../ui/match';
import { duration } from './movie';

export const ShowScreen = ({ id }: { id: string }) => {
  const [loaded, retry, replace] = useLoad(async () => (await unwrap(api.GET('/api/v1/tvshows/{showId}', { params: { path: { showId: id } } }))).data, [id]);
  const matching = useMemo(() => showMatching(id), [id]);
  return (
    <Load loaded={loaded} retry={retry} label="Loading the show">
      {(show) => {
        const { media } = show;
        return (
          <Detail media={media}>
            {media.overview && <p class="overview">{media.overview}</p>}
            <MatchControls key={show.id} item={show} matching={matching} onDescribed={replace} />
            {show.seasons.map((season) => (
              <section class="season" key={season.seasonNumber}>
                <h2>{season.name}</h2>
                <ol class="episodes">
                  {season.episodes.map((episode) => (
                    <li key={episode.id}>
                      <a href={`/shows/${show.id}/play/${episode.id}`}>
                        <span class="episode-number">{episode.episodeNumber}</span>
                        <span class="episode-title">{episode.title ?? `Episode ${episode.episodeNumber}`}</span>
                        <span class="episode-length">{duration(episode.file.durationSeconds)}</span>
                      </a>
                    </li>
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
