// `npm start` / `npm run dev`: starts the service, prints where it answers, and stops
// everything it started on Ctrl-C (SIGINT) or SIGTERM.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { config } from '../lib/config';
import { startService, type RunningService } from './runner/service';

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
    ...(config.jellyfin.port === null
      ? []
      : [`  Jellyfin apps: ${hosts.map((h) => `http://${h}:${config.jellyfin.port}`).slice(-1)[0]} (docs/jellyfin.md)`]),
    `  Data:      ${config.dataDir} (${database})`,
    `  Logs:      ${config.logDir ?? join(config.dataDir, 'logs')}`,
    '  Ctrl-C to stop.',
  ].join('\n');
};

const main = async () => {
  // Signals are handled from the first moment: Ctrl-C while starting stops what has started.
  const starting = new AbortController();
  let service: RunningService | undefined;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    if (!service) return starting.abort();
    service.log.info({ signal }, 'stopping');
    await service.stop();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void shutdown(signal));
  // The runner holds the front door and every child: an error nobody caught (a failed write, a
  // child's stream) is logged and lived with, never the end of the service.
  const survive = (kind: string) => (err: unknown) => {
    if (service) service.log.error({ err, kind }, 'unexpected error in the runner; it carries on');
    else process.stderr.write(`Unexpected error while starting (${kind}): ${err instanceof Error ? err.message : String(err)}\n`);
  };
  process.on('uncaughtException', survive('uncaught exception'));
  process.on('unhandledRejection', survive('unhandled rejection'));

  try {
    service = await startService(starting.signal);
  } catch (err) {
    if (starting.signal.aborted) process.exit(0);
    throw err;
  }
  const database = config.db.endpoint ? `DynamoDB at ${config.db.endpoint}` : 'embedded DynamoDB Local';
  process.stdout.write(`${banner(service.port, database)}\n`);
};

main().catch((err: Error) => {
  process.stderr.write(`Could not start: ${err.message}${err.cause instanceof Error ? ` (${err.cause.message})` : ''}\n`);
  process.exit(1);
});
