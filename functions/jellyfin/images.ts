// The Jellyfin door's pictures (lib/jellyfin/images.ts), through the same artwork variants as
// our own artwork endpoint (functions/artwork/get.ts).
import { artworkRedirect, artworkStore } from '../../lib/artwork';
import { serveArtwork } from '../../lib/artwork/service';
import { catalogStore, doorCatalogue, doorStore } from '../../lib/deps';
import { doorHttp } from '../../lib/http/door';
import { rootLogger } from '../../lib/log';
import { imageHandlers } from '../../lib/jellyfin/images';

export const handler = doorHttp(
  'images',
  () => doorStore,
  imageHandlers({
    catalogue: doorCatalogue,
    serve: ({ mediaId, kind, width, version, accept, ifNoneMatch }) =>
      serveArtwork(
        { catalog: catalogStore, store: artworkStore(), log: rootLogger, redirect: artworkRedirect() },
        {
          mediaId,
          kind,
          ...(width !== undefined ? { width } : {}),
          ...(version !== undefined ? { version } : {}),
          ...(accept !== undefined ? { accept } : {}),
          ...(ifNoneMatch !== undefined ? { ifNoneMatch } : {}),
        },
      ),
  }),
);
