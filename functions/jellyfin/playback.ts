// The Jellyfin door's playing (lib/jellyfin/playback.ts): the same playback engine, streams,
// segments, subtitles and watch state as our own API's.
import { config } from '../../lib/config';
import { doorCatalogue, doorStore, playbackService, services, subtitleExtractor, watchingService } from '../../lib/deps';
import { doorHttp } from '../../lib/http/door';
import { playbackHandlers } from '../../lib/jellyfin/playback';
import { rootLogger } from '../../lib/log';
import { deliverStream, streamRequestOf } from '../../lib/stream/deliver';
import { resolveStream } from '../../lib/stream/resolve';
import { serveSubtitle, trackOptions } from '../../lib/subtitles/service';

export const handler = doorHttp(
  'playback',
  () => doorStore,
  playbackHandlers({
    store: doorStore,
    catalogue: doorCatalogue,
    engine: playbackService,
    stream: async (mediaId, method, headers) =>
      deliverStream(services.storage, await resolveStream(services, mediaId), streamRequestOf(method, headers), config.stream),
    // A segment's every request reaches the handler: it keeps the session alive.
    segment: async (sessionId, index, method, headers) =>
      deliverStream(services.storage, await playbackService().segment(sessionId, index), streamRequestOf(method, headers), {
        ...config.stream,
        grants: false,
      }),
    subtitle: (mediaId, trackId, ifNoneMatch) =>
      serveSubtitle(
        { ...services, extractor: subtitleExtractor(), log: rootLogger, extractWaitMs: config.subtitles.extractWaitMs },
        { mediaId, trackId, ifNoneMatch },
      ),
    subtitles: trackOptions({ storage: services.storage, extractor: subtitleExtractor() }),
    progress: (profileId, mediaId, position, duration) => watchingService().progress(profileId, mediaId, position, duration),
    log: rootLogger,
  }),
);
