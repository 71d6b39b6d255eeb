// How the handlers run, in the words of whoever starts them. The local runner (infra/runner/)
// writes these variables into serverless-offline's environment with `writeRuntime`, and
// lib/config.ts reads them with `readRuntime`; nothing else reads or writes them. Where no
// runner stands in front (the cloud, `npm run invoke`, a test calling a handler) each is unset
// or set by the deployment, and takes its default. Each variable is declared once below: its
// meaning and type in `Runtime`, its name and text form in `VARIABLES`.
import { resolve } from 'node:path';

export type Mode = 'development' | 'production';
export const MODES = ['development', 'production'] as const satisfies readonly Mode[];

/**
 * How stream bytes leave: `inline` in the function's response (Lambda alone: 4 MiB at most
 * per answer), or `front-door`, where the handler names the file and byte range and the
 * gateway in front (the runner's front door) sends them itself.
 */
export type StreamDelivery = 'inline' | 'front-door';
export const STREAM_DELIVERIES = ['inline', 'front-door'] as const satisfies readonly StreamDelivery[];

/**
 * Where requests are counted for the rate limit: `table` (shared by every process and
 * instance) or `edge`, where the gateway in front counts them and the handlers do not.
 */
export type RateLimitPlace = 'table' | 'edge';
export const RATE_LIMIT_PLACES = ['table', 'edge'] as const satisfies readonly RateLimitPlace[];

/**
 * How the handlers are hosted: `shared-process`, every handler in one long-lived process and
 * module graph (the home runner), where work may follow an answer and what one handler keeps in
 * memory every other one sees; or `lambda`, each function in environments of its own that are
 * frozen once they have answered, so every write lands before its answer.
 */
export type Hosting = 'shared-process' | 'lambda';
export const HOSTINGS = ['shared-process', 'lambda'] as const satisfies readonly Hosting[];

export interface Runtime {
  /** HANDLER_HOSTING: see `Hosting` (default `lambda`; the home runner sets `shared-process`). */
  hosting: Hosting;
  /** NODE_ENV: `production` (the default) or `development` (permissive CORS, pretty logs). */
  mode: Mode;
  /** DATA_DIR: the service's data folder, absolute (default: `data` in the working folder). */
  dataDir: string;
  /** LOG_DIR: where the runner collects JSON log lines; unset in the cloud, where logs go to CloudWatch. */
  logDir: string | undefined;
  /** DYNAMODB_ENDPOINT: the DynamoDB to use (the runner's embedded one); unset for AWS. */
  dynamodbEndpoint: string | undefined;
  /** DATABASE_DIR: where the embedded database keeps its files (DATA_DIR/db); unset when the database is not on this box's disk. */
  databaseDir: string | undefined;
  /** TABLE_NAME: the one table (default `media`). */
  tableName: string;
  /** WS_MANAGEMENT_ENDPOINT: where WebSocket messages are posted (API Gateway's management API, or offline's WebSocket port). */
  wsManagementEndpoint: string | undefined;
  /** LAMBDA_ENDPOINT: offline's Lambda port, where the scan worker is invoked; unset in the cloud (the SDK's own endpoint). */
  lambdaEndpoint: string | undefined;
  /** STREAM_DELIVERY: see `StreamDelivery` (default `inline`; the runner sets `front-door`). */
  streamDelivery: StreamDelivery;
  /** RATE_LIMIT_AT: see `RateLimitPlace` (default `table`; the runner sets `edge` when its instance owns the embedded database). */
  rateLimitAt: RateLimitPlace;
  /** SERVICE_STARTED_AT: when the service (not this process) started, in ms since the epoch; unset: when this process did. */
  serviceStartedAt: number | undefined;
}

type Parsed<T> = { value: T } | { issue: string };

interface Variable<T> {
  name: string;
  /** The value when the variable is unset or blank. */
  fallback: () => T;
  parse: (raw: string) => Parsed<T>;
  /** The text form, or undefined to leave the variable unset. */
  write: (value: T) => string | undefined;
}

const text = (name: string, fallback: string): Variable<string> => ({
  name,
  fallback: () => fallback,
  parse: (value) => ({ value }),
  write: (v) => v,
});

const optionalText = (name: string): Variable<string | undefined> => ({
  name,
  fallback: () => undefined,
  parse: (value) => ({ value }),
  write: (v) => v,
});

const folder = (name: string, fallback: string): Variable<string> => ({
  name,
  fallback: () => resolve(fallback),
  parse: (raw) => ({ value: resolve(raw) }),
  write: (v) => v,
});

const url = (name: string): Variable<string | undefined> => ({
  name,
  fallback: () => undefined,
  parse: (raw) => {
    try {
      return { value: new URL(raw).toString().replace(/\/$/, '') };
    } catch {
      return { issue: 'must be an absolute URL' };
    }
  },
  write: (v) => v,
});

const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): Variable<T> => ({
  name,
  fallback: () => fallback,
  parse: (raw) => ((allowed as readonly string[]).includes(raw) ? { value: raw as T } : { issue: `must be one of ${allowed.join(', ')}` }),
  write: (v) => v,
});

const epochMs = (name: string): Variable<number | undefined> => ({
  name,
  fallback: () => undefined,
  parse: (raw) => {
    const n = Number(raw);
    return Number.isFinite(n) && n >= 0 ? { value: n } : { issue: 'must be a time in milliseconds since the epoch' };
  },
  write: (v) => (v === undefined ? undefined : String(v)),
});

const VARIABLES: { [K in keyof Runtime]: Variable<Runtime[K]> } = {
  hosting: oneOf('HANDLER_HOSTING', HOSTINGS, 'lambda'),
  mode: oneOf('NODE_ENV', MODES, 'production'),
  dataDir: folder('DATA_DIR', 'data'),
  logDir: optionalText('LOG_DIR'),
  dynamodbEndpoint: url('DYNAMODB_ENDPOINT'),
  databaseDir: optionalText('DATABASE_DIR'),
  tableName: text('TABLE_NAME', 'media'),
  wsManagementEndpoint: url('WS_MANAGEMENT_ENDPOINT'),
  lambdaEndpoint: url('LAMBDA_ENDPOINT'),
  streamDelivery: oneOf('STREAM_DELIVERY', STREAM_DELIVERIES, 'inline'),
  rateLimitAt: oneOf('RATE_LIMIT_AT', RATE_LIMIT_PLACES, 'table'),
  serviceStartedAt: epochMs('SERVICE_STARTED_AT'),
};

const keys = Object.keys(VARIABLES) as Array<keyof Runtime>;

/**
 * The environment variables that tell a child process `values` (the runner's side): only the
 * values given, in their text form. A value left out keeps whatever the child inherits.
 */
export const writeRuntime = (values: Partial<Runtime>): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const key of keys) {
    if (!(key in values)) continue;
    const written = (VARIABLES[key] as Variable<unknown>).write(values[key]);
    if (written !== undefined) env[VARIABLES[key].name] = written;
  }
  return env;
};

/**
 * What `env` says (the handlers' side, through lib/config.ts): each variable trimmed, parsed,
 * or its default when unset; a malformed one gets its default and a line in `issues`.
 */
export const readRuntime = (env: Readonly<Record<string, string | undefined>>, issues: string[]): Runtime => {
  const read = <K extends keyof Runtime>(key: K): Runtime[K] => {
    const variable = VARIABLES[key];
    const raw = env[variable.name]?.trim();
    if (!raw) return variable.fallback();
    const parsed = variable.parse(raw);
    if ('value' in parsed) return parsed.value;
    issues.push(`${variable.name} ${parsed.issue} (got "${raw}")`);
    return variable.fallback();
  };
  return Object.fromEntries(keys.map((key) => [key, read(key)])) as unknown as Runtime;
};
