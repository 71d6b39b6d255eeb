// The Jellyfin door's "who is it" and "who are you" (lib/jellyfin/system.ts): server info,
// users (the profiles), logging in by name, tokens, display preferences, the empty answers.
import { config } from '../../lib/config';
import { doorStore, watchingService } from '../../lib/deps';
import { doorHttp } from '../../lib/http/door';
import { systemHandlers } from '../../lib/jellyfin/system';

export const handler = doorHttp(
  'system',
  () => doorStore,
  systemHandlers({
    store: doorStore,
    profiles: () => watchingService().profiles(),
    profile: (id) =>
      watchingService()
        .profile(id)
        .catch(() => undefined),
    serverName: config.jellyfin.serverName,
    version: config.jellyfin.version,
  }),
);
