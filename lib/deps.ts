// The default adapters, built once per process from config (warm Lambdas and in-process
// handlers reuse them). Tests build their own with other settings.
import { join } from 'node:path';
import { config, LOCAL_CREDENTIALS } from './config';
import { db } from './db/client';
import { DynamoSettingsStore } from './settings/store';
import { DynamoConnectionStore } from './events/connections';
import { Publisher } from './events/publisher';
import { publisherSink } from './events/sink';
import { DynamoCatalogStore } from './catalog/store';
import { DynamoManifestStore } from './catalog/manifest';
import { DynamoMatchLockStore } from './catalog/match-lock';
import { DynamoCollectionStore } from './catalog/collections';
import { DynamoLibraryStore } from './library/store';
import { DynamoScanJobStore } from './scan/job-store';
import { lambdaInvoker } from './scan/invoker';
import { rootLogger } from './log';
import { configuredStorage } from './storage';
import { artworkStore } from './artwork';
import { SubtitleExtractor } from './subtitles/extract';
import { trackOptions } from './subtitles/service';
import { PlaybackService } from './playback/service';
import { SegmentCache } from './playback/segment-cache';
import { DynamoSessionStore } from './playback/sessions';
import { DynamoTimingStore } from './playback/timing-store';
import { ffprobeBeside, findExecutable } from './util/executable';
import { DynamoProviderCache } from './metadata/provider-cache';
import type { ProviderCache } from './metadata/provider';
import type { ProviderChoice } from './matching/service';
import { DynamoProfileStore } from './watching/profile-store';
import { DynamoWatchStore } from './watching/store';
import { WatchingService } from './watching/service';
import { createTmdbClient } from './metadata/tmdb/client';
import { effectiveKey } from './settings/model';
import type { Enrichment } from './scan/context';
import type { WorkerDeps } from './scan/worker';
import type { RemovalDeps } from './scan/library-removal';
import { DoorStore } from './jellyfin/store';
import { DoorCatalogue } from './jellyfin/catalogue';
import { doorMessageOf } from './jellyfin/socket';

export const settingsStore = new DynamoSettingsStore(db);
export const connectionStore = new DynamoConnectionStore(db);

let publisher: Publisher | undefined;
export const eventPublisher = (): Publisher => {
  if (!config.wsManagementEndpoint) throw new Error('WS_MANAGEMENT_ENDPOINT is not set');
  return (publisher ??= new Publisher({
    endpoint: config.wsManagementEndpoint,
    region: config.db.region,
    credentials: config.db.localCredentials,
    connections: connectionStore,
    log: rootLogger,
    doorMessage: doorMessageOf,
  }));
};

export const catalogStore = new DynamoCatalogStore(db);
export const manifestStore = new DynamoManifestStore(db);
export const matchLockStore = new DynamoMatchLockStore(db);
export const collectionStore = new DynamoCollectionStore(db);
export const profileStore = new DynamoProfileStore(db);
export const watchStore = new DynamoWatchStore(db);
export const libraryStore = new DynamoLibraryStore(db);
export const jobStore = new DynamoScanJobStore(db);
/** The Jellyfin door's server id, tokens and display preferences; and the catalogue as its GUIDs name it. */
export const doorStore = new DoorStore(db, config.hosting === 'shared-process');
export const doorCatalogue = new DoorCatalogue(catalogStore, () => libraryStore.list());

const providerCache = new DynamoProviderCache(db);

/** The provider cache read and written (`fresh`: written only, so answers are asked for again and kept). */
const writeOnly: ProviderCache = { get: async () => undefined, put: (key, value, ttl) => providerCache.put(key, value, ttl) };

/**
 * The provider and what may be done with it, from the settings as they are now: the saved key
 * wins over the deployment's (`deploymentKey`); with fetching off or no key there is none, and
 * `why` says so. Only the functions that ask the provider build it, with
 * lib/settings/deployment-key.ts, so the SSM client that may hold the cloud's key is in no
 * other function's bundle.
 */
export const currentProvider =
  (deploymentKey: () => Promise<string | undefined>) =>
  async ({ fresh }: { fresh: boolean }): Promise<ProviderChoice> => {
    const { value } = await settingsStore.read();
    const key = effectiveKey(value, await deploymentKey());
    const { artwork, meshGradients } = value.features;
    if (!value.features.metadataFetching)
      return { provider: null, why: 'fetching metadata is switched off in settings', artwork, meshGradients };
    if (!key) return { provider: null, why: 'no TMDB API key is set', artwork, meshGradients };
    const provider = createTmdbClient({
      apiKey: key,
      baseUrl: config.tmdb.apiBaseUrl,
      imageBaseUrl: config.tmdb.imageBaseUrl,
      language: value.language,
      requestsPerSecond: config.tmdb.requestsPerSecond,
      timeoutMs: config.tmdb.timeoutMs,
      cache: fresh ? writeOnly : providerCache,
      log: rootLogger,
    });
    return { provider, why: '', artwork, meshGradients };
  };

/** What a scan may use to enrich items: the provider and the features as the settings have them when it runs. */
export const scanEnrichment = (deploymentKey: () => Promise<string | undefined>) => async (): Promise<Enrichment> => {
  const { provider, artwork, meshGradients } = await currentProvider(deploymentKey)({ fresh: false });
  return { provider, artwork, meshGradients };
};

// Embedded subtitles taken out by ffmpeg, kept in DATA_DIR/subtitles; none in the cloud (home-only for now).
const extractor =
  config.mediaStorage === 'local'
    ? new SubtitleExtractor({
        ffmpeg: config.subtitles.ffmpeg,
        cacheDir: join(config.dataDir, 'subtitles'),
        timeoutMs: config.subtitles.extractTimeoutMs,
      })
    : null;
export const subtitleExtractor = (): SubtitleExtractor | null => extractor;

// Conversions while a file is watched: segments kept in DATA_DIR/playback on a home box; none in the cloud.
const segmentCache =
  config.mediaStorage === 'local'
    ? new SegmentCache({
        dir: join(config.dataDir, 'playback'),
        perSession: config.playback.sessionSegments,
        maxBytes: config.playback.cacheBytes,
      })
    : null;
export const playbackSegments = (): SegmentCache | null => segmentCache;

let playback: PlaybackService | undefined;
export const playbackService = (): PlaybackService => {
  if (playback) return playback;
  const { ffmpeg, maxTranscodes, maxRemuxes, idleSeconds, maxHeight, preset, segmentTimeoutMs } = config.playback;
  const executable = findExecutable(ffmpeg);
  return (playback = new PlaybackService({
    catalog: catalogStore,
    libraries: libraryStore,
    storage: services.storage,
    sessions: new DynamoSessionStore(db),
    timings: new DynamoTimingStore(db),
    segments: segmentCache,
    settings: {
      ffmpeg: executable,
      ffprobe: ffprobeBeside(executable ?? ffmpeg),
      capacity: { remux: maxRemuxes, transcode: maxTranscodes },
      idleMs: idleSeconds * 1000,
      maxHeight,
      preset,
      segmentTimeoutMs,
      niceness: 10,
    },
    log: rootLogger,
  }));
};

/** Handlers that live on after they answer, all in one process (a Lambda is frozen once it has): work may follow the answer. */
const sharedProcess = config.hosting === 'shared-process';

let watching: WatchingService | undefined;
/** Watch state: profiles, positions, played marks, Continue watching and Next up. */
export const watchingService = (): WatchingService =>
  (watching ??= new WatchingService({
    profiles: profileStore,
    store: watchStore,
    catalog: catalogStore,
    thresholds: async () => (await settingsStore.read()).value.preferences.playback,
    events: services.events,
    sharedProcess,
    log: rootLogger,
  }));

/** What a movie's or a show's details need: the services, and whether subtitle streams inside videos can be served here. */
export const detailServices = () => ({
  ...services,
  subtitles: trackOptions({ storage: services.storage, extractor: subtitleExtractor() }),
});

/** Everything the services need: each takes the part it uses. */
export type Services = WorkerDeps & RemovalDeps;

export const services: Services = {
  catalog: catalogStore,
  locks: matchLockStore,
  collections: collectionStore,
  manifests: manifestStore,
  libraries: libraryStore,
  jobs: jobStore,
  events: publisherSink(eventPublisher, rootLogger, { background: sharedProcess }),
  storage: configuredStorage(),
  artworks: artworkStore(),
  subtitleCache: subtitleExtractor() ?? undefined,
  // Lazily: the watch service takes the event sink from here.
  watchState: { forget: (ids) => watchingService().forget(ids) },
  invoker: lambdaInvoker({
    endpoint: config.scan.lambdaEndpoint,
    region: config.db.region,
    credentials: config.scan.lambdaEndpoint ? LOCAL_CREDENTIALS : undefined,
    functionName: config.scan.workerFunction,
  }),
  log: rootLogger,
};
