// The default adapters, built once per process from config (warm Lambdas and in-process
// handlers reuse them). Tests build their own with other settings.
import { config } from './config';
import { db } from './db/client';
import { DynamoSettingsStore } from './settings/store';
import { DynamoConnectionStore } from './events/connections';
import { Publisher } from './events/publisher';
import { rootLogger } from './log';

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
