// Film collections: every one with a film here (its poster, name, and how many of its films
// are here), and a collection's page: its overview and its parts in release order, the films
// here as posters that open them, the others named and marked missing.
import { api, unwrap, type MediaEntry } from '../api/client';
import type { components } from '../api/schema';
import { DetailFrame } from '../ui/detail';
import { atWidth, meshGradient, posterSrcSet } from '../ui/gradient';
import { Show, useLoad } from '../ui/load';
import { counted } from '../ui/plural';
import { onArrow, Poster } from '../ui/posters';

type CollectionSummary = components['schemas']['CollectionSummary'];
type CollectionPart = components['schemas']['CollectionPart'];

const CollectionCard = ({ collection }: { collection: CollectionSummary }) => (
  <a class="poster" href={`/collections/${collection.id}`} data-id={String(collection.id)}>
    <div class="poster-art">
      {collection.posterUrl && (
        <img
          src={atWidth(collection.posterUrl, 320)}
          srcset={posterSrcSet(collection.posterUrl)}
          sizes="(max-width: 600px) 30vw, 180px"
          alt=""
          loading="lazy"
          decoding="async"
        />
      )}
    </div>
    <span class="poster-title">{collection.name}</span>
    <span class="poster-year">
      {collection.owned} of {collection.total}
    </span>
  </a>
);

export const Collections = () => {
  const [loaded, retry] = useLoad(async () => (await unwrap(api.GET('/api/v1/collections'))).data, []);
  return (
    <main>
      <h1 class="screen-title">Collections</h1>
      <Show loaded={loaded} retry={retry} label="Loading the collections">
        {(collections) =>
          collections.length ? (
            <div class="posters" role="list" aria-label="Collections" onKeyDown={onArrow}>
              {collections.map((c) => (
                <div role="listitem" key={c.id}>
                  <CollectionCard collection={c} />
                </div>
              ))}
            </div>
          ) : (
            <p class="empty">No collections: none of the films here belongs to one TMDB knows.</p>
          )
        }
      </Show>
    </main>
  );
};

/** A part here, as lists show it (a collection's page is the same for every profile: no watch state). */
const entryOf = (part: CollectionPart): MediaEntry | null =>
  part.owned && part.id && part.media ? { id: part.id, type: 'movie', media: part.media } : null;

const MissingPart = ({ part }: { part: CollectionPart }) => (
  <div class="part-missing">
    <div class="poster-art">
      <span class="missing-mark">Missing</span>
    </div>
    <span class="poster-title">{part.title}</span>
    {part.year !== null && <span class="poster-year">{part.year}</span>}
  </div>
);

export const CollectionScreen = ({ id }: { id: string }) => {
  const [loaded, retry] = useLoad(
    async () => (await unwrap(api.GET('/api/v1/collections/{collectionId}', { params: { path: { collectionId: Number(id) } } }))).data,
    [id],
  );
  return (
    <Show loaded={loaded} retry={retry} label="Loading the collection">
      {(collection) => {
        const owned = collection.parts.filter((p) => p.owned);
        // Without pictures of its own, the colours of its first film here.
        const colours = owned.find((p) => p.media)?.media?.meshGradientColors;
        return (
          <DetailFrame
            background={colours && meshGradient(colours)}
            backdropUrl={collection.backdropUrl}
            posterUrl={collection.posterUrl}
            posterAlt={`Poster of ${collection.name}`}
          >
            <h1>{collection.name}</h1>
            <p class="seen">
              {owned.length} of {counted(collection.parts.length, 'film', 'films')} here
            </p>
            {collection.overview && <p class="overview">{collection.overview}</p>}
            <div class="posters parts" role="list" aria-label="Films of the collection" onKeyDown={onArrow}>
              {collection.parts.map((part, i) => {
                const entry = entryOf(part);
                return (
                  <div role="listitem" key={part.id ?? `missing-${part.tmdbId ?? i}`}>
                    {entry ? <Poster entry={entry} /> : <MissingPart part={part} />}
                  </div>
                );
              })}
            </div>
          </DetailFrame>
        );
      }}
    </Show>
  );
};
