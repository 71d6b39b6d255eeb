// The door's pictures: `/Items/{id}/Images/{type}` answered from the artwork store, resized
// as the app asks (`fillWidth`, `maxWidth`, `width`, or a height turned into a width by the
// picture's own shape) through the same variants as our own artwork endpoint. With a `tag`
// that is the picture's current one, the answer may be kept for a year.
import type { ArtworkKind, StoredArtwork } from '../artwork/model';
import type { ArtworkAnswer } from '../artwork/service';
import type { DoorCatalogue } from './catalogue';
import { notFound, type DoorHandler } from './door';
import { imageTag } from './items';

export interface ImageDeps {
  catalogue: DoorCatalogue;
  serve: (req: {
    mediaId: string;
    kind: ArtworkKind;
    width: number | undefined;
    version: string | undefined;
    accept: string | undefined;
    ifNoneMatch: string | undefined;
  }) => Promise<ArtworkAnswer>;
}

/** Which of our pictures a Jellyfin image type of an item is. */
const pictureOf = async (
  deps: ImageDeps,
  guid: string,
  type: string,
): Promise<{ id: string; kind: ArtworkKind; art: StoredArtwork | undefined } | undefined> => {
  const hit = await deps.catalogue.find(guid);
  const primary = type === 'primary';
  const backdrop = type === 'backdrop' || type === 'thumb' || type === 'art';
  if (!hit || (!primary && !backdrop)) return undefined;
  switch (hit.kind) {
    case 'title':
      return primary
        ? { id: hit.item.id, kind: 'poster', art: hit.item.artwork?.poster }
        : { id: hit.item.id, kind: 'backdrop', art: hit.item.artwork?.backdrop };
    case 'episode':
      if (primary || type === 'thumb') return { id: hit.item.id, kind: 'still', art: hit.item.artwork?.still };
      return { id: hit.show.id, kind: 'backdrop', art: hit.show.artwork?.backdrop };
    case 'season':
      return primary
        ? { id: hit.show.id, kind: 'poster', art: hit.show.artwork?.poster }
        : { id: hit.show.id, kind: 'backdrop', art: hit.show.artwork?.backdrop };
    default:
      return undefined;
  }
};

export const imageHandlers = (deps: ImageDeps): Record<string, DoorHandler> => ({
  image: async ({ params, query, headers }) => {
    const picture = await pictureOf(deps, params.itemId!, params.imageType!.toLowerCase());
    if (!picture?.art) throw notFound('Image');
    const { art } = picture;
    const height = query.int('fillHeight', 1) ?? query.int('maxHeight', 1) ?? query.int('height', 1);
    const width =
      query.int('fillWidth', 1) ??
      query.int('maxWidth', 1) ??
      query.int('width', 1) ??
      (height ? Math.round((height * art.width) / art.height) : undefined);
    const tag = query.str('tag');
    const answer = await deps.serve({
      mediaId: picture.id,
      kind: picture.kind,
      width,
      version: tag && tag === imageTag(art) ? art.etag : undefined,
      accept: query.str('format') ? `image/${query.str('format')!.toLowerCase()}` : headers.accept,
      ifNoneMatch: headers['if-none-match'],
    });
    return { status: answer.status, body: answer.body ?? '', headers: answer.headers };
  },
});
