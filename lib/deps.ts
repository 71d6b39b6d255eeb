// The default adapters, built once per process from config (warm Lambdas and in-process
// handlers reuse them). Tests build their own with other settings.
import { config, LOCAL_CREDENTIALS } from './config';
import { db } from './db/client';
import { DynamoSettingsStore } from './settings/store';
import { DynamoConnectionStore } from './events/connections';
import { Publisher } from './events/publisher';
import { publisherSink } from './events/sink';
import { DynamoCatalogStore } from './catalog/store';
import { DynamoManifestStore } from './catalog/manifest';
import { DynamoLibraryStore } from './library/store';
import { DynamoScanJobStore } from './scan/job-store';
import { lambdaInvoker } from './scan/invoker';
import type { ScanDeps } from './scan/service';
import { rootLogger } from './log';
import { configuredStorage } from './storage';

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
  }));
};

export const catalogStore = new DynamoCatalogStore(db);
export const manifestStore = new DynamoManifestStore(db);
export const libraryStore = new DynamoLibraryStore(db);
export const jobStore = new DynamoScanJobStore(db);

/** Everything the library, scan and catalogue services need. */
export const services: ScanDeps = {
  catalog: catalogStore,
  manifests: manifestStore,
  libraries: libraryStore,
  jobs: jobStore,
  events: publisherSink(eventPublisher, rootLogger),
  storage: configuredStorage(),
  invoker: lambdaInvoker({
    endpoint: config.scan.lambdaEndpoint,
    region: config.db.region,
    credentials: config.scan.lambdaEndpoint ? LOCAL_CREDENTIALS : undefined,
    functionName: config.scan.workerFunction,
  }),
  log: rootLogger,
};
