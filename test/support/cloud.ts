// The cloud-shaped run: the artifact of `npm run package` run as Lambda and API Gateway run it,
// on this machine. Each function's zip is unpacked into a code folder of its own that the
// function cannot write (it runs as an unprivileged user, or the folder is read-only), the
// runtime layer beside it (on NODE_PATH, as Lambda's /opt), and each execution environment gets
// a /tmp of its own, the only place it may write. The environment is the template's variables
// with its references resolved, Lambda's own variables, and the addresses of the local
// stand-ins for AWS (DynamoDB Local, s3rver, offline's WebSocket management API, the Lambda
// invoke API this module serves). HTTP requests become API Gateway HTTP API events (payload
// 2.0) routed by the template's routes; asynchronous invocations (the scan worker) arrive
// through the Lambda API the SDK speaks. Logs are what a function writes to stdout, one event
// per line, with Lambda's START/END/REPORT lines around each invocation.
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import { basename, join } from 'node:path';
import { createInterface } from 'node:readline';
import { asyncListener } from './async-listener';
import { extractZip } from './zip';

type Template = { Resources: Record<string, { Type: string; Properties: Record<string, any> }> };

export interface CloudFunction {
  /** The template's logical id, e.g. HealthLambdaFunction. */
  logicalId: string;
  /** The deployed name, e.g. media-library-prod-health. */
  name: string;
  handler: string;
  timeoutSeconds: number;
  memoryMb: number;
  environment: Record<string, string>;
  codeDir: string;
}

export interface LogLine {
  functionName: string;
  stream: string;
  time: number;
  line: string;
}

export interface CloudOptions {
  /** The folder `npm run package -- --package <dir>` wrote. */
  packageDir: string;
  /** Where code folders, the layer and each environment's /tmp go. */
  root: string;
  /** What a deploy would have created for the template's resources (MediaTable -> a table name ...). */
  resources: Record<string, string>;
  /** The local stand-ins' addresses, as the project's own variables (DYNAMODB_ENDPOINT, S3_ENDPOINT ...). */
  endpoints: Record<string, string>;
  /** What Lambda's execution role would give: the stand-ins accept these. */
  credentials: { accessKeyId: string; secretAccessKey: string };
  region?: string;
  onLog?: (line: LogLine) => void;
}

export interface InvokeResult {
  /** The handler's value, or Lambda's error object when it threw or timed out. */
  payload: any;
  failed: boolean;
}

export interface Cloud {
  url: string;
  lambdaEndpoint: string;
  functions: CloudFunction[];
  invoke(functionName: string, event: unknown): Promise<InvokeResult>;
  /** Starts an execution environment (a cold start: the handler's module loaded), invoking nothing. */
  coldStart(functionName: string): Promise<void>;
  /** Every line every function wrote, in order. */
  logs: LogLine[];
  /** Each execution environment's /tmp. */
  tmpDirs(): string[];
  /** Resolves once no invocation is running or queued. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** Lambda's unprivileged user: when the tests run as root, the functions run as this one. */
const SANDBOX_USER = 65534;
const RUNTIME = join(import.meta.dirname, 'lambda-runtime.cjs');

const resolveValue = (value: unknown, resources: Record<string, string>, region: string): string => {
  if (typeof value === 'string') return value;
  const v = value as Record<string, any>;
  if ('Ref' in v) {
    if (v.Ref === 'AWS::Region') return region;
    const physical = resources[v.Ref];
    if (physical === undefined) throw new Error(`the cloud-shaped run has no value for the resource ${v.Ref}`);
    return physical;
  }
  if ('Fn::Join' in v) return (v['Fn::Join'][1] as unknown[]).map((p) => resolveValue(p, resources, region)).join(v['Fn::Join'][0]);
  throw new Error(`cannot resolve ${JSON.stringify(value)}`);
};

/** Code the function must not be able to change: root-owned when it runs as another user, read-only otherwise. */
const protect = (dir: string, sandboxed: boolean) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) protect(path, sandboxed);
    else chmodSync(path, sandboxed ? 0o644 : 0o444);
  }
  chmodSync(dir, sandboxed ? 0o755 : 0o555);
};

/** Gives the code back to its owner, so the test run can delete it. */
const unprotect = (dir: string) => {
  chmodSync(dir, 0o755);
  for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) unprotect(join(dir, entry.name));
};

interface Route {
  key: string;
  method: string | null;
  pattern: RegExp | null;
  names: string[];
  staticSegments: number;
  /** Ends in a greedy variable (`{proxy+}`): tried after every route without one, as API Gateway does. */
  greedy: boolean;
  functionName: string;
}

const compileRoute = (key: string, functionName: string): Route => {
  if (key === '$default') return { key, method: null, pattern: null, names: [], staticSegments: -1, greedy: false, functionName };
  const [method, path] = key.split(' ') as [string, string];
  const names: string[] = [];
  let greedy = false;
  const segments = path.split('/').map((s) => {
    const param = /^\{(\w+)(\+?)\}$/.exec(s);
    if (!param) return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(param[1]!);
    // A greedy variable (the last segment) takes the rest of the path, one segment or more.
    if (param[2]) greedy = true;
    return param[2] ? '(.+)' : '([^/]+)';
  });
  return {
    key,
    // ANY takes every method.
    method: method === 'ANY' ? null : method,
    pattern: new RegExp(`^${segments.join('/')}$`),
    names,
    staticSegments: segments.filter((s) => s !== '([^/]+)' && s !== '(.+)').length,
    greedy,
    functionName,
  };
};

const TEXT = /^(text\/|application\/(json|[\w.+-]*\+json|xml|x-www-form-urlencoded|javascript))/i;

/** An API Gateway HTTP API request event, payload format 2.0. */
const httpEvent = (req: IncomingMessage, body: Buffer, route: Route, pathParameters: Record<string, string> | undefined) => {
  const url = new URL(req.url ?? '/', 'http://api');
  const headers: Record<string, string> = {};
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    headers[name] = headers[name] === undefined ? req.rawHeaders[i + 1]! : `${headers[name]},${req.rawHeaders[i + 1]}`;
  }
  const cookies = headers.cookie?.split(/;\s*/).filter(Boolean);
  delete headers.cookie;
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  const text = !body.length || TEXT.test(headers['content-type'] ?? '');
  const now = Date.now();
  return {
    version: '2.0',
    routeKey: route.key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: 'cloudshaped',
      domainName: headers.host ?? 'localhost',
      domainPrefix: (headers.host ?? 'localhost').split('.')[0],
      http: {
        method: req.method,
        path: url.pathname,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: (req.socket.remoteAddress ?? '').replace(/^::ffff:/, ''),
        userAgent: headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey: route.key,
      stage: '$default',
      time: new Date(now).toUTCString(),
      timeEpoch: now,
    },
    ...(pathParameters ? { pathParameters } : {}),
    ...(body.length ? { body: text ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: !text,
  };
};

const readBody = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

/** How API Gateway turns a payload 2.0 result into the HTTP answer. */
const sendResult = (res: ServerResponse, { payload, failed }: InvokeResult) => {
  if (failed || payload === null || typeof payload !== 'object' || !('statusCode' in payload)) {
    if (failed) return res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"Internal Server Error"}');
    return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
  }
  const headers: Record<string, string | string[]> = { ...(payload.headers ?? {}) };
  if (payload.cookies?.length) headers['set-cookie'] = payload.cookies;
  const body = typeof payload.body === 'string' ? Buffer.from(payload.body, payload.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(payload.statusCode, headers).end(body);
};

interface Environment {
  child: ChildProcess;
  tmp: string;
  busy: boolean;
}

export const startCloud = async (options: CloudOptions): Promise<Cloud> => {
  const region = options.region ?? 'us-east-1';
  const sandboxed = process.getuid?.() === 0;
  const template = JSON.parse(readFileSync(join(options.packageDir, 'cloudformation-template-update-stack.json'), 'utf8')) as Template;
  const resources = Object.entries(template.Resources);

  // The layer, as Lambda mounts it at /opt; the runtime, as /var/runtime.
  const opt = join(options.root, 'opt');
  const layers = resources.filter(([, r]) => r.Type === 'AWS::Lambda::LayerVersion');
  for (const [, layer] of layers) extractZip(join(options.packageDir, basename(layer.Properties.Content.S3Key)), opt);
  const runtimeDir = join(options.root, 'runtime');
  mkdirSync(runtimeDir, { recursive: true });
  copyFileSync(RUNTIME, join(runtimeDir, 'bootstrap.cjs'));
  for (const dir of [opt, runtimeDir]) protect(dir, sandboxed);
  chmodSync(options.root, 0o755);

  const functions: CloudFunction[] = resources
    .filter(([, r]) => r.Type === 'AWS::Lambda::Function')
    .map(([logicalId, { Properties: p }]) => {
      const codeDir = join(options.root, 'task', p.FunctionName);
      extractZip(join(options.packageDir, basename(p.Code.S3Key)), codeDir);
      protect(codeDir, sandboxed);
      const environment = Object.fromEntries(
        Object.entries(p.Environment?.Variables ?? {}).map(([k, v]) => [k, resolveValue(v, options.resources, region)]),
      );
      return {
        logicalId,
        name: p.FunctionName,
        handler: p.Handler,
        timeoutSeconds: p.Timeout ?? 3,
        memoryMb: p.MemorySize ?? 128,
        environment,
        codeDir,
      };
    });
  const byName = new Map(functions.map((f) => [f.name, f]));
  const byLogicalId = new Map(functions.map((f) => [f.logicalId, f]));

  const logs: LogLine[] = [];
  const log = (fn: CloudFunction, stream: string, line: string) => {
    const entry = { functionName: fn.name, stream, time: Date.now(), line };
    logs.push(entry);
    options.onLog?.(entry);
  };

  const lambdaServer = createServer();
  lambdaServer.listen(0, '127.0.0.1');
  await once(lambdaServer, 'listening');
  const lambdaEndpoint = `http://127.0.0.1:${(lambdaServer.address() as { port: number }).port}`;

  const pools = new Map<string, Environment[]>();
  const tmpDirs: string[] = [];
  let running = 0;
  let idleWaiters: (() => void)[] = [];
  const settle = () => {
    if (running > 0) return;
    for (const wake of idleWaiters) wake();
    idleWaiters = [];
  };

  const environmentOf = (fn: CloudFunction, stream: string, tmp: string): NodeJS.ProcessEnv => ({
    ...fn.environment,
    // What Lambda itself sets.
    _HANDLER: fn.handler,
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    AWS_LAMBDA_FUNCTION_NAME: fn.name,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${fn.name}`,
    AWS_LAMBDA_LOG_STREAM_NAME: stream,
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: options.credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: options.credentials.secretAccessKey,
    LAMBDA_TASK_ROOT: fn.codeDir,
    LAMBDA_RUNTIME_DIR: runtimeDir,
    NODE_PATH: join(opt, 'nodejs', 'node_modules'),
    PATH: '/usr/local/bin:/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    TZ: ':UTC',
    TMPDIR: tmp,
    // The SDK warns about Node 20 (this machine's) on stderr; Lambda's nodejs22.x has nothing to warn about.
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    // Where the AWS services are: the local stand-ins.
    ...options.endpoints,
    LAMBDA_ENDPOINT: lambdaEndpoint,
  });

  const startEnvironment = async (fn: CloudFunction): Promise<Environment> => {
    const stream = `${new Date().toISOString().slice(0, 10).replaceAll('-', '/')}/[$LATEST]${randomUUID().replaceAll('-', '')}`;
    const tmp = join(options.root, 'tmp', `${fn.name}-${randomUUID().slice(0, 8)}`);
    mkdirSync(tmp, { recursive: true });
    if (sandboxed) chownSync(tmp, SANDBOX_USER, SANDBOX_USER);
    tmpDirs.push(tmp);
    const child = fork(join(runtimeDir, 'bootstrap.cjs'), [], {
      cwd: fn.codeDir,
      env: environmentOf(fn, stream, tmp),
      execArgv: [`--max-old-space-size=${Math.floor(fn.memoryMb * 0.85)}`],
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      ...(sandboxed ? { uid: SANDBOX_USER, gid: SANDBOX_USER } : {}),
    });
    for (const output of [child.stdout!, child.stderr!]) createInterface({ input: output }).on('line', (line) => log(fn, stream, line));
    const [message] = (await Promise.race([
      once(child, 'message'),
      once(child, 'exit').then(([code]) => [{ type: 'init-error', error: { errorMessage: `exited ${code}` } }]),
    ])) as [any];
    if (message.type !== 'ready')
      throw new Error(`${fn.name} could not start: ${message.error.errorMessage}\n${(message.error.stack ?? []).join('\n')}`);
    const environment = { child, tmp, busy: false };
    child.once('exit', () =>
      pools.set(
        fn.name,
        (pools.get(fn.name) ?? []).filter((e) => e !== environment),
      ),
    );
    return environment;
  };

  const invoke = async (functionName: string, event: unknown): Promise<InvokeResult> => {
    const fn = byName.get(functionName);
    if (!fn) throw new Error(`no function ${functionName} in the template`);
    running++;
    try {
      const pool = pools.get(fn.name) ?? [];
      pools.set(fn.name, pool);
      // A free environment, or a new one: Lambda scales out rather than queueing.
      let env = pool.find((e) => !e.busy);
      if (!env) {
        env = await startEnvironment(fn);
        pool.push(env);
      }
      env.busy = true;
      const requestId = randomUUID();
      const started = Date.now();
      const deadline = started + fn.timeoutSeconds * 1000;
      log(fn, '', `START RequestId: ${requestId} Version: $LATEST`);
      const child = env.child;
      const outcome = await new Promise<InvokeResult>((resolve) => {
        const onMessage = (m: any) => {
          if (m.requestId !== requestId) return;
          finish(m.type === 'result' ? { payload: m.result, failed: false } : { payload: m.error, failed: true });
        };
        const onExit = (code: number | null) =>
          finish({
            payload: { errorType: 'Runtime.ExitError', errorMessage: `RequestId: ${requestId} Error: Runtime exited with error: ${code}` },
            failed: true,
          });
        const timer = setTimeout(() => {
          child.kill('SIGKILL');
          finish({
            payload: { errorType: 'Sandbox.Timedout', errorMessage: `Task timed out after ${fn.timeoutSeconds.toFixed(2)} seconds` },
            failed: true,
          });
        }, deadline - started);
        const finish = (result: InvokeResult) => {
          clearTimeout(timer);
          child.off('message', onMessage);
          child.off('exit', onExit);
          resolve(result);
        };
        child.on('message', onMessage);
        child.once('exit', onExit);
        child.send({ type: 'invoke', requestId, event, deadline });
      });
      env.busy = false;
      log(fn, '', `END RequestId: ${requestId}`);
      log(fn, '', `REPORT RequestId: ${requestId}\tDuration: ${Date.now() - started} ms\tMemory Size: ${fn.memoryMb} MB`);
      return outcome;
    } finally {
      running--;
      settle();
    }
  };

  // The Lambda API's Invoke, as the SDK calls it: RequestResponse answers the payload; Event queues it (202).
  lambdaServer.on(
    'request',
    asyncListener('fake Lambda API', async (req, res) => {
      const match = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/.exec(req.url?.split('?')[0] ?? '');
      const body = await readBody(req);
      const name = match ? decodeURIComponent(match[1]!).split(':').pop()! : '';
      if (req.method !== 'POST' || !byName.has(name)) {
        return res
          .writeHead(404, { 'content-type': 'application/json', 'x-amzn-errortype': 'ResourceNotFoundException' })
          .end(JSON.stringify({ Type: 'User', Message: `Function not found: ${name}` }));
      }
      const event = body.length ? JSON.parse(body.toString('utf8')) : {};
      if (req.headers['x-amz-invocation-type'] === 'Event') {
        running++;
        setImmediate(() => void invoke(name, event).finally(() => (running--, settle())));
        return res.writeHead(202).end();
      }
      const result = await invoke(name, event);
      res
        .writeHead(200, { 'content-type': 'application/json', ...(result.failed ? { 'x-amz-function-error': 'Unhandled' } : {}) })
        .end(JSON.stringify(result.payload));
    }),
  );

  // The HTTP API: the template's routes, most specific first, $default last.
  const routes = resources
    .filter(([, r]) => r.Type === 'AWS::ApiGatewayV2::Route' && r.Properties.ApiId?.Ref === 'HttpApi')
    .map(([, r]) => {
      const integrationId = r.Properties.Target['Fn::Join'][1][1].Ref as string;
      const fnId = template.Resources[integrationId]!.Properties.IntegrationUri['Fn::GetAtt'][0] as string;
      return compileRoute(r.Properties.RouteKey, byLogicalId.get(fnId)!.name);
    })
    .sort((a, b) => Number(a.greedy) - Number(b.greedy) || b.staticSegments - a.staticSegments);
  const api: Server = createServer(
    asyncListener('fake HTTP API', async (req, res) => {
      const path = new URL(req.url ?? '/', 'http://api').pathname;
      let route: Route | undefined;
      let params: Record<string, string> | undefined;
      for (const r of routes) {
        if (!r.pattern) continue;
        const m = r.method === null || r.method === req.method ? r.pattern.exec(path) : null;
        if (!m) continue;
        route = r;
        params = r.names.length ? Object.fromEntries(r.names.map((n, i) => [n, decodeURIComponent(m[i + 1]!)])) : undefined;
        break;
      }
      route ??= routes.find((r) => r.key === '$default');
      if (!route) return res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}');
      const body = await readBody(req);
      sendResult(res, await invoke(route.functionName, httpEvent(req, body, route, params)));
    }),
  );
  api.listen(0, '127.0.0.1');
  await once(api, 'listening');

  return {
    url: `http://127.0.0.1:${(api.address() as { port: number }).port}`,
    lambdaEndpoint,
    functions,
    invoke,
    coldStart: async (functionName) => {
      const fn = byName.get(functionName);
      if (!fn) throw new Error(`no function ${functionName} in the template`);
      const env = await startEnvironment(fn);
      pools.set(fn.name, [...(pools.get(fn.name) ?? []), env]);
    },
    logs,
    tmpDirs: () => [...tmpDirs],
    idle: () => (running === 0 ? Promise.resolve() : new Promise<void>((wake) => idleWaiters.push(wake))),
    stop: async () => {
      for (const server of [api, lambdaServer]) {
        server.closeAllConnections();
        server.close();
      }
      const children = [...pools.values()]
        .flat()
        .map((e) => e.child)
        .filter((c) => c.exitCode === null && c.signalCode === null);
      await Promise.all(children.map((c) => (c.kill(), once(c, 'exit'))));
      if (!sandboxed) for (const dir of [opt, runtimeDir, ...functions.map((f) => f.codeDir)]) unprotect(dir);
    },
  };
};

/** Every file below a folder, however deep. */
export const filesBelow = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesBelow(join(dir, e.name)) : [join(dir, e.name)]));
