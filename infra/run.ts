// `npm start` / `npm run dev`: starts the service, prints where it answers, and stops
// everything it started on Ctrl-C (SIGINT) or SIGTERM.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { config } from '../lib/config';
import { startService } from './service';

const lanAddresses = () =>
  Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a!.address);

const banner = (port: number, database: string) => {
  const hosts = config.host === '0.0.0.0' || config.host === '::' ? ['localhost', ...lanAddresses()] : [config.host];
  const [first, ...rest] = hosts.map((h) => `http://${h}:${port}`);
  return [
    `Media library ${config.version} (${config.mode}) is up`,
    `  Local:     ${first}/api/v1`,
    ...rest.map((u) => `  Network:   ${u}/api/v1`),
    `  API docs:  ${first}/api/docs`,
    `  WebSocket: ${first!.replace('http', 'ws')}/ws`,
    `  Data:      ${config.dataDir} (${database})`,
    `  Logs:      ${config.logDir ?? join(config.dataDir, 'logs')}`,
    '  Ctrl-C to stop.',
  ].join('\n');
};

const main = async () => {
  const service = await startService();
  const database = config.db.endpoint ? `DynamoDB at ${config.db.endpoint}` : 'embedded DynamoDB Local';
  process.stdout.write(`${banner(service.port, database)}\n`);

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    service.log.info({ signal }, 'stopping');
    await service.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGHUP', () => void shutdown('SIGHUP'));
};

main().catch((err: Error) => {
  process.stderr.write(`Could not start: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}\n`);
  process.exit(1);
});
