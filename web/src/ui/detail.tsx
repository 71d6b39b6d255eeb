// A film's, a show's or a collection's page: its backdrop over its colours, its poster, title,
// year and genres, then what is its own (children).
import type { ComponentChildren } from 'preact';
import type { Media } from '../api/client';
import { atWidth, meshGradient } from './gradient';

/** The page's frame; without a picture the backdrop and poster show `background` (a plain block when none). */
export const DetailFrame = ({
  background,
  backdropUrl,
  posterUrl,
  posterAlt,
  children,
}: {
  background: string | undefined;
  backdropUrl: string | null;
  posterUrl: string | null;
  posterAlt: string;
  children: ComponentChildren;
}) => (
  <main class="detail">
    <div class="backdrop" style={background ? { backgroundImage: background } : undefined}>
      {backdropUrl && <img src={atWidth(backdropUrl, 1280)} alt="" />}
    </div>
    <div class="detail-body">
      <div class="detail-poster" style={background ? { backgroundImage: background } : undefined}>
        {posterUrl && <img src={atWidth(posterUrl, 480)} alt={posterAlt} />}
      </div>
      <div class="detail-text">{children}</div>
    </div>
  </main>
);

export const Detail = ({ media, children }: { media: Media; children: ComponentChildren }) => (
  <DetailFrame
    background={meshGradient(media.meshGradientColors)}
    backdropUrl={media.backdropUrl}
    posterUrl={media.posterUrl}
    posterAlt={`Poster of ${media.title}`}
  >
    <h1>
      {media.title} {media.year !== null && <span class="year">({media.year})</span>}
    </h1>
    {media.genres.length > 0 && <p class="genres">{media.genres.join(', ')}</p>}
    {children}
  </DetailFrame>
);
