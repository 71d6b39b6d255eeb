// Renders the OpenAPI 3.1 document from the operation registry and the schemas that
// validate requests, so the document describes what the handlers check.
import {
  OpenApiBuilder,
  type OperationObject,
  type ParameterObject,
  type ResponseObject,
  type ResponsesObject,
  type SchemaObject,
} from 'openapi3-ts/oas31';
import type { TSchema } from '@sinclair/typebox';
import { PROBLEMS, scopeOf, type ProblemCode } from '../errors';
import { allOperations, type OperationDef } from './operations';
import type { Success } from './operation-def';
import { NAMED_SCHEMAS, WsClientMessages, WsEvents, ListMeta } from './schemas';

const nameOf = new Map<unknown, string>(Object.entries(NAMED_SCHEMAS).map(([name, schema]) => [schema, name]));

/** A plain JSON copy of a TypeBox schema, with named sub-schemas replaced by $refs. */
const toSchema = (schema: unknown, root = true): SchemaObject => {
  const name = nameOf.get(schema);
  if (name && !root) return { $ref: `#/components/schemas/${name}` };
  if (Array.isArray(schema)) return schema.map((s) => toSchema(s, false)) as unknown as SchemaObject;
  if (schema === null || typeof schema !== 'object') return schema as SchemaObject;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = typeof v === 'object' && v !== null ? toSchema(v, false) : v;
  return out;
};
const ref = (schema: TSchema): SchemaObject => toSchema(schema, false);

const STATUS_TEXT: Record<number, string> = {
  302: 'Artwork in the bucket larger than a function answer carries: `Location` is a presigned URL of the stored image, cacheable a minute less than it lives',
  304: 'Not modified',
  307: 'Media in a bucket (MEDIA_STORAGE=s3): `Location` is a short-lived presigned URL of the object, which answers ranges and conditionals itself',
  400: 'Invalid input (query, path or body); `errors` lists each field',
  403: "Origin not allowed: a page on neither a private LAN address nor the box itself (same origin: Origin equal to the address the request was sent to, that address loopback, private or one of the box's names in ALLOWED_HOSTS)",
  404: 'Unknown id',
  405: 'Method not allowed on this path',
  409: 'Conflict',
  413: 'Body larger than 1 MiB',
  415: 'Body is not application/json',
  416: 'Range not satisfiable (Content-Range: bytes */SIZE)',
  422: 'Well-formed but impossible (path missing, not a directory or unreadable; a media file that cannot be played; a provider id the provider does not know)',
  424: 'The metadata provider (TMDB) did not answer: nothing was changed; see Retry-After',
  429: 'Rate limited; see Retry-After',
  500: 'Internal error (no details are exposed)',
  501: 'Not possible on this server: no ffmpeg to convert with, or media in a bucket (conversion-unavailable)',
  503: 'A dependency (the database) is unavailable, or the server is busy; see Retry-After',
  504: 'The function did not finish in time (a conversion took too long); ask again',
  507: "The disk holding the service's data (DATA_DIR) is full: nothing was written, reads go on working; see Retry-After",
};

const problemResponse = (status: number) => ({ $ref: `#/components/responses/Problem${status}` });

const parameters = (op: OperationDef): ParameterObject[] => {
  const list: ParameterObject[] = [];
  const add = (where: 'path' | 'query', schema: TSchema | undefined) => {
    const props = (schema as { properties?: Record<string, TSchema>; required?: string[] } | undefined)?.properties ?? {};
    const required = new Set((schema as { required?: string[] } | undefined)?.required ?? []);
    for (const [name, s] of Object.entries(props)) {
      list.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        schema: ref(s),
        ...(s.description ? { description: s.description } : {}),
      });
    }
  };
  add('path', op.params);
  add('query', op.query);
  return list;
};

const errorStatuses = (op: OperationDef) => {
  const set = new Set<number>([403, 500, 503, ...(op.errors ?? [])]);
  if (op.counted) set.add(429);
  if (op.params || op.query || op.body) set.add(400);
  if (op.body) [413, 415].forEach((s) => set.add(s));
  if (op.method !== 'GET') set.add(507);
  return [...set].sort();
};

const successResponse = (success: Success): ResponseObject => {
  if (!success.schema) {
    return success.contentType
      ? { description: success.description, content: { [success.contentType]: { schema: { type: 'string', format: 'binary' } } } }
      : { description: success.description };
  }
  const envelope: SchemaObject = {
    type: 'object',
    required: success.list ? ['data', 'meta'] : ['data'],
    properties: { data: ref(success.schema), ...(success.list ? { meta: ref(ListMeta) } : {}) },
  };
  return { description: success.description, content: { 'application/json': { schema: envelope } } };
};

const operationObject = (op: OperationDef): OperationObject => {
  const responses: ResponsesObject = { [String(op.success.status)]: successResponse(op.success) };
  if (op.alsoSuccess) responses[String(op.alsoSuccess.status)] = successResponse(op.alsoSuccess);
  for (const status of errorStatuses(op)) if (!responses[String(status)]) responses[String(status)] = problemResponse(status);
  return {
    operationId: op.id,
    summary: op.summary,
    description: op.description ?? op.summary,
    tags: [op.tag],
    parameters: parameters(op),
    ...(op.body ? { requestBody: { required: Boolean(op.bodyRequired), content: { 'application/json': { schema: ref(op.body) } } } } : {}),
    responses,
    'x-rate-limited': op.counted,
  };
};

const TAGS: Record<string, string> = {
  search: 'Find movies and shows by title',
  movies: 'Movies, newest first, and their details',
  tvshows: 'TV shows with seasons and episodes',
  stream: 'Video bytes with HTTP range support',
  playback: 'Playing any file on any client: direct, or converted while it plays (HLS)',
  scan: 'Scan jobs: start, follow, resume, clean up',
  library: 'Libraries (folders of movies or shows) and their totals',
  settings: 'Service settings (the TMDB key is write-only)',
  logs: 'Recent log records',
  health: 'Liveness and database reachability',
  artwork: 'Cached posters, backdrops and stills',
  docs: 'This documentation',
  websocket: 'Live events on /ws',
};

const wsSchemaName = (type: string) => `WsEvent_${type.replace(/[^A-Za-z0-9]/g, '_')}`;

/** /ws as an operation, so its message schemas are part of the document proper. */
const websocketOperation = (): OperationObject => ({
  operationId: 'websocket',
  summary: 'Open the WebSocket for live events',
  description:
    'Upgrade this request to a WebSocket (same host and port as REST). Send `{"type":"ping"}` to get `{"type":"pong"}`; the server pushes the events below as JSON text frames. Foreign origins are refused as for REST.',
  tags: ['websocket'],
  responses: {
    '101': {
      description: 'Switching protocols; every frame the server sends is one of these',
      content: {
        'application/json': { schema: { oneOf: Object.keys(WsEvents).map((t) => ({ $ref: `#/components/schemas/${wsSchemaName(t)}` })) } },
      },
    },
    '403': { $ref: '#/components/responses/Problem403' },
    '426': { description: 'The request was not a WebSocket upgrade' },
  },
});

/** The events as the contract lists them: each type with its payload's fields (nested objects one level deep) and what it is for. */
const eventTable = () => {
  const fields = (schema: TSchema): string =>
    Object.entries((schema.properties ?? {}) as Record<string, TSchema>)
      .map(([name, field]) => (field.type === 'object' && field.properties ? `"${name}": { ${fields(field)} }` : `"${name}"`))
      .join(', ');
  const rows = Object.entries(WsEvents)
    .filter(([type]) => type !== 'pong' && type !== 'error')
    .map(
      ([type, schema]) => `| \`${type}\` | \`{ ${fields(schema)} }\` | ${((schema as TSchema).description ?? '').replaceAll('|', '\\|')} |`,
    );
  return ['| type | payload | when |', '|---|---|---|', ...rows].join('\n');
};

const WS_DESCRIPTION = `
## WebSocket: \`ws://HOST:PORT/ws\`
Same host and port as REST. Every message is a JSON text frame with a \`type\`.
A client may send \`{"type":"ping"}\` and gets \`{"type":"pong"}\`; an unknown or malformed message gets
\`{"type":"error","error":{"code","message"}}\`. The server sends the events documented under \`GET /ws\`.

Progress events are throttled (a few per second per job) but the first and last of a job are always sent.

\${EVENTS}

## Errors
Every error is RFC 9457 \`application/problem+json\` with \`type\` = \`/problems/<code>\`. \`x-problem-types\` lists every code the service sends,
with \`sentIn\`: \`http\` (a problem body) and/or \`job\` (a failed scan job's \`error.code\`, also in \`scan:error\`).
Every response carries \`X-Request-Id\`. Counted requests carry the IETF \`RateLimit-Policy\` and \`RateLimit\` headers.
`;

export const buildOpenApi = (version: string) => {
  const builder = OpenApiBuilder.create()
    .addOpenApiVersion('3.1.0')
    .addInfo({
      title: 'Media library service',
      version,
      description: `A self-hosted media library: libraries, scans, movies, TV shows, search, streaming and artwork.\n${WS_DESCRIPTION.replace('${EVENTS}', eventTable())}`,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    })
    .addServer({ url: '/', description: 'This server' });

  for (const [name, schema] of Object.entries(NAMED_SCHEMAS)) builder.addSchema(name, toSchema(schema));
  for (const [type, schema] of Object.entries(WsEvents)) builder.addSchema(wsSchemaName(type), toSchema(schema));
  const documented = allOperations.filter((o) => !o.undocumented);
  const used = new Set(documented.flatMap(errorStatuses));
  for (const status of [...used].sort()) {
    builder.addResponse(
      `Problem${status}`,
      status < 400
        ? { description: STATUS_TEXT[status]! }
        : {
            description: STATUS_TEXT[status]!,
            content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          },
    );
  }

  // Methods that share a path go into one path item.
  const doc = builder.getSpec();
  doc.paths = {};
  for (const op of documented) doc.paths[op.path] = { ...doc.paths[op.path], [op.method.toLowerCase()]: operationObject(op) };
  doc.paths['/ws'] = { get: websocketOperation() };
  // Sections with nothing in them would still show up (an empty "Authorize" dialog, say).
  const components = doc.components as Record<string, unknown> | undefined;
  for (const [section, value] of Object.entries(components ?? {})) {
    if (value && typeof value === 'object' && Object.keys(value).length === 0) delete components![section];
  }
  doc.tags = Object.entries(TAGS).map(([name, description]) => ({ name, description }));
  Object.assign(doc, {
    'x-websocket': { path: '/ws', clientMessages: Object.keys(WsClientMessages), serverEvents: Object.keys(WsEvents) },
    'x-problem-types': Object.fromEntries(
      (Object.keys(PROBLEMS) as ProblemCode[]).map((code) => {
        const [status, title] = PROBLEMS[code];
        const scope = scopeOf(code);
        return [`/problems/${code}`, { status, title, sentIn: scope === 'both' ? ['http', 'job'] : [scope] }];
      }),
    ),
  });
  return doc;
};
