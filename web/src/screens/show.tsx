// A show: its backdrop over its colours, overview, and each season's episodes in order, each
// one a link that plays it.
import { api, unwrap } from '../api/client';
import { atWidth, meshGradient } from '../ui/gradient';
import { Show as Load, useLoad } from '../ui/load';
import { duration } from './movie';

export const ShowScreen = ({ id }: { id: string }) => {
  const [loaded, retry] = useLoad(async () => (await unwrap(api.GET('/api/v1/tvshows/{showId}', { params: { path: { showId: id } } }))).data, [id]);
  return (
    <Load loaded={loaded} retry={retry} label="Loading the show">
      {(show) => {
        const { media } = show;
        return (
          <main class="detail">
            <div class="backdrop" style={{ backgroundImage: meshGradient(media.meshGradientColors) }}>
              {media.backdropUrl && <img src={atWidth(media.backdropUrl, 1280)} alt="" />}
            </div>
            <div class="detail-body">
              <div class="detail-poster" style={{ backgroundImage: meshGradient(media.meshGradientColors) }}>
                {media.posterUrl && <img src={atWidth(media.posterUrl, 480)} alt={`Poster of ${media.title}`} />}
              </div>
              <div class="detail-text">
                <h1>
                  {media.title} {media.year !== null && <span class="year">({media.year})</span>}
                </h1>
                {media.genres.length > 0 && <p class="genres">{media.genres.join(', ')}</p>}
                {media.overview && <p class="overview">{media.overview}</p>}
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
              </div>
            </div>
          </main>
        );
      }}
    </Load>
  );
};
