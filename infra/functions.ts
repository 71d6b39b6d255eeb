// serverless.yml's functions, computed from the operation registry (lib/api/operations.ts):
// each operation a function of its own, named by its id, with its handler and its route; then
// the catch-all, the WebSocket routes and the functions no route reaches. serverless.yml reads
// them through infra/serverless-functions.cjs, so a new operation is deployed by adding it to
// the registry.
import { allOperations, type OperationId } from '../lib/api/operations';
import { DOOR_AREAS } from '../lib/jellyfin/routes';

type FunctionEvent = { httpApi: { method: string; path: string } | '*' } | { websocket: { route: string } } | { schedule: string };

/** A function as serverless.yml declares one. */
export interface ServerlessFunction {
  handler: string;
  events?: FunctionEvent[];
  /** Seconds; the provider's default (serverless.yml) otherwise. */
  timeout?: number;
  maximumRetryAttempts?: number;
  package?: { patterns: string[] };
}

type Settings = Omit<ServerlessFunction, 'handler' | 'events'>;

/** What some operations' functions need besides the provider's defaults. */
const OPERATION_SETTINGS: Partial<Record<OperationId, Settings>> = {
  // A library of many thousands of films is removed item by item, at the database's write rate
  // (about 350-900 items/s on an SD card or a small disk): let it finish rather than stop it
  // half way at 29 s. (Behind API Gateway the answer still ends at 30 s; deleting again then
  // finishes what is left.)
  deleteLibrary: { timeout: 120 },
  // The docs page's assets are read from swagger-ui-dist as files, which no bundle holds.
  docsAsset: {
    package: {
      patterns: [
        'node_modules/swagger-ui-dist/package.json',
        'node_modules/swagger-ui-dist/*.css',
        'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
        'node_modules/swagger-ui-dist/swagger-ui-standalone-preset.js',
        'node_modules/swagger-ui-dist/favicon-*.png',
      ],
    },
  },
};

/** The functions that serve no operation of the registry. */
const otherFunctions = (stage: string): Record<string, ServerlessFunction> => ({
  // Every request no operation's route takes: CORS preflight, 404 and 405 (functions/http/fallback.ts).
  fallback: { handler: 'functions/http/fallback.handler', events: [{ httpApi: '*' }] },
  wsConnect: { handler: 'functions/ws/connect.handler', events: [{ websocket: { route: '$connect' } }] },
  wsDisconnect: { handler: 'functions/ws/disconnect.handler', events: [{ websocket: { route: '$disconnect' } }] },
  wsMessage: { handler: 'functions/ws/message.handler', events: [{ websocket: { route: '$default' } }] },
  scanWorker: {
    handler: 'functions/scan/worker.handler',
    // Lambda's longest run; the worker hands over to a fresh invocation a minute before it.
    timeout: 900,
    // An async invocation that fails is not retried blindly: the job records the failure and
    // can be resumed from its checkpoint.
    maximumRetryAttempts: 0,
  },
  scanRecover: { handler: 'functions/scan/maintenance.recover' },
  // At home only: the runner invokes it when the free space of DATA_DIR turns low or has room again.
  diskSpace: { handler: 'functions/scan/maintenance.disk' },
  libraryUpkeep: {
    handler: 'functions/scan/maintenance.upkeep',
    // In the cloud a schedule runs each library's rescans; at home the runner invokes it every
    // few seconds with what its watchers saw, so offline runs no schedule of its own.
    events: stage === 'local' ? [] : [{ schedule: 'rate(15 minutes)' }],
  },
});

/**
 * The Jellyfin door's functions, one per area: the front door sends a request of the door's port
 * to `/jellyfin/<area>/<its path>` once it has found its route (lib/jellyfin/routes.ts), and the
 * function finds it again, case-insensitively.
 */
const doorFunctions = (): Record<string, ServerlessFunction> =>
  Object.fromEntries(
    DOOR_AREAS.map((area) => [
      `jellyfin${area[0]!.toUpperCase()}${area.slice(1)}`,
      { handler: `functions/jellyfin/${area}.handler`, events: [{ httpApi: { method: '*', path: `/jellyfin/${area}/{proxy+}` } }] },
    ]),
  );

/** serverless.yml's `functions:` for a stage. */
export const serverlessFunctions = (stage: string): Record<string, ServerlessFunction> => ({
  ...Object.fromEntries(
    allOperations.map((op) => [
      op.id,
      { handler: op.handler, ...OPERATION_SETTINGS[op.id as OperationId], events: [{ httpApi: { method: op.method, path: op.path } }] },
    ]),
  ),
  ...doorFunctions(),
  ...otherFunctions(stage),
});
