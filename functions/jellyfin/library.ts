// The Jellyfin door's browsing and played marks (lib/jellyfin/library.ts), over the same
// catalogue and watch state as our own API.
import { doorCatalogue, doorStore, services, subtitleExtractor, watchingService } from '../../lib/deps';
import { doorHttp } from '../../lib/http/door';
import { libraryHandlers } from '../../lib/jellyfin/library';
import { searchCatalog } from '../../lib/search/service';
import { trackOptions } from '../../lib/subtitles/service';

export const handler = doorHttp(
  'library',
  () => doorStore,
  libraryHandlers({
    store: doorStore,
    catalogue: doorCatalogue,
    subtitles: trackOptions({ storage: services.storage, extractor: subtitleExtractor() }),
    userData: (profileId, ids) => watchingService().userData(profileId, ids),
    watched: (profileId) => watchingService().watchedTitles(profileId),
    inProgress: async (profileId, limit) => (await watchingService().continueWatching(profileId, limit, '')).map((row) => row.id),
    nextUp: async (profileId, limit) => (await watchingService().nextUp(profileId, limit, '')).map((row) => row.id),
    search: async (term, limit) => (await searchCatalog(services.catalog, term, { limit, origin: '' })).map((hit) => hit.id),
    markFavorite: async (profileId, id, favorite) => {
      await watchingService().markFavorite(profileId, id, favorite);
    },
    markPlayed: async (profileId, id, played) => {
      await (played ? watchingService().markPlayed(profileId, id) : watchingService().markUnplayed(profileId, id));
    },
  }),
);
