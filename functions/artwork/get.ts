// The artwork domain: an item's poster, backdrop or still (or a film collection's poster or
// backdrop) from the artwork cache, resized and encoded per request (lib/artwork/service.ts
// decides everything). Images go out base64 in the function's response: a 1280-wide variant
// is a few hundred KB, far below Lambda's 6 MB.
// With the cache in the bucket, a picture too large for that is a 302 to a presigned URL instead.
import { operations } from '../../lib/api/operations';
import { artworkRedirect, artworkStore } from '../../lib/artwork';
import { serveArtwork } from '../../lib/artwork/service';
import { picturedIn } from '../../lib/catalog/collections';
import { catalogStore, collectionStore } from '../../lib/deps';
import { http } from '../../lib/http/stack';
import { raw } from '../../lib/http/reply';

// Film collections' pictures are in the same cache, under ids of their own (co_<id>).
const pictures = picturedIn(catalogStore, collectionStore);

export const handler = http(operations.artwork, async ({ params, query, event }, ctx) => {
  const h = event.headers ?? {};
  const answer = await serveArtwork(
    { catalog: pictures, store: artworkStore(), log: ctx.log, redirect: artworkRedirect() },
    { mediaId: params.mediaId, kind: params.kind, width: query.w, version: query.v, accept: h.accept, ifNoneMatch: h['if-none-match'] },
  );
  return raw(answer.status, answer.body ?? '', answer.headers);
});
