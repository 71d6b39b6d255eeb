// A film's or a show's page: its backdrop over its colours, its poster, title, year and genres,
// then what is its own (children).
import type { ComponentChildren } from 'preact';
import type { Media } from '../api/client';
import { atWidth, meshGradient } from './gradient';

export const Detail = ({ media, children }: { media: Media; children: ComponentChildren }) => (
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
        {children}
      </div>
    </div>
  </main>
);
