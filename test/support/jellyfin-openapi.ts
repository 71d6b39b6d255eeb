// Checks an answer of the Jellyfin door against Jellyfin 10.11.0's own OpenAPI document, by the
// rule the Kotlin apps (Android TV, Findroid) live by: their generated classes throw when a
// property the document does not mark `nullable` is missing, so every such property must be
// present; a nullable one may be absent. A small walker rather than ajv: its messages name the
// JSON path and the rule broken, and the document's OpenAPI 3.0 habits (`nullable` beside an
// `allOf` of one `$ref`, an enum both inline and by reference) need no rewriting first.
// The document is Jellyfin's, not ours to ship: it is read from JELLYFIN_OPENAPI or the shared
// folder beside the project, once and only when first needed; tests skip when it is absent.
import { AssertionError } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_DIR } from '../../infra/project';

interface Schema {
  $ref?: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object';
  format?: string;
  nullable?: boolean;
  enum?: unknown[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  items?: Schema;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}
interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}
interface OpenApi {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

/** Adds the problems of `value` (found at the JSON path `at`) to `out`. */
type Check = (value: unknown, at: string, out: string[]) => void;

const documentPath = () => process.env.JELLYFIN_OPENAPI ?? join(PROJECT_DIR, '../shared/jellyfin/openapi-10.11.0.json');

/** undefined when the document can be read, else why not: a reason for node:test's skip. */
export const jellyfinSchemaAvailable = (): string | undefined =>
  existsSync(documentPath())
    ? undefined
    : `Jellyfin 10.11.0's OpenAPI document is not at ${documentPath()} (set JELLYFIN_OPENAPI to its path)`;

let openApi: OpenApi | undefined;
const load = (): OpenApi => {
  if (openApi) return openApi;
  const missing = jellyfinSchemaAvailable();
  // A check without its document must not pass: the caller should have skipped.
  if (missing) throw new Error(missing);
  return (openApi = JSON.parse(readFileSync(documentPath(), 'utf8')) as OpenApi);
};

const resolve = (ref: string): Schema => {
  const name = ref.replace('#/components/schemas/', '');
  const schema = load().components.schemas[name];
  if (!schema) throw new Error(`Jellyfin's document has no schema ${ref}`);
  return schema;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const typeOf = (s: Schema) => s.type ?? (s.properties ? 'object' : s.items ? 'array' : undefined);

/** Whether null (or absence) is allowed. OpenAPI 3.0: a schema that names no type allows null. */
const acceptsNull = (s: Schema): boolean =>
  s.nullable === true ||
  (s.$ref !== undefined
    ? acceptsNull(resolve(s.$ref))
    : s.allOf
      ? s.allOf.every(acceptsNull)
      : s.oneOf || s.anyOf
        ? (s.oneOf ?? s.anyOf ?? []).some(acceptsNull)
        : typeOf(s) === undefined && s.enum === undefined);

const child = (at: string, key: string) => (/^[A-Za-z_]\w*$/.test(key) ? `${at}.${key}` : `${at}[${JSON.stringify(key)}]`);
const show = (v: unknown) => {
  const json = JSON.stringify(v) ?? String(v);
  return `${Array.isArray(v) ? 'array' : typeof v} ${json.length > 40 ? `${json.slice(0, 37)}...` : json}`;
};

const TYPES: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  array: Array.isArray,
  object: isObject,
};
// Jellyfin writes 32 hex digits; the Kotlin apps parse either form as a UUID.
const UUID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;
// RFC 3339, as JSON Schema's date-time: the apps read the zone, so it must be there.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;
const FORMATS: Record<string, (v: unknown) => boolean> = {
  uuid: (v) => typeof v === 'string' && UUID.test(v),
  'date-time': (v) => typeof v === 'string' && DATE_TIME.test(v) && !Number.isNaN(Date.parse(v)),
  int32: (v) => typeof v === 'number' && v >= -(2 ** 31) && v < 2 ** 31,
};

const typeCheck =
  (type: string, format: string | undefined): Check =>
  (v, at, out) => {
    const expected = `${type}${format ? ` (${format})` : ''}`;
    if (!TYPES[type]?.(v)) out.push(`${at}: expected ${expected}, got ${show(v)}`);
    else if (format && FORMATS[format] && !FORMATS[format](v)) out.push(`${at}: not a valid ${format}: ${show(v)}`);
  };

const listOf = (values: unknown[]) =>
  values.length > 12 ? `${values.slice(0, 12).join(', ')}, ... (${values.length} in all)` : values.join(', ');

const enumCheck = (values: unknown[]): Check => {
  const allowed = new Set(values);
  const list = listOf(values);
  // No schema name here: the same enum inline and by reference then gives one line, not two.
  return (v, at, out) => {
    if (!allowed.has(v)) out.push(`${at}: ${show(v)} is not one of ${list}`);
  };
};

const objectCheck = (s: Schema, name: string | undefined): Check => {
  const required = new Set(s.required);
  const props = Object.entries(s.properties ?? {}).map(([key, p]) => ({
    key,
    must: required.has(key) || !acceptsNull(p),
    check: compile(p),
  }));
  const extra = s.additionalProperties;
  const extraCheck = isObject(extra) ? compile(extra) : undefined;
  return (v, at, out) => {
    if (!isObject(v)) return;
    for (const { key, must, check } of props) {
      if (v[key] !== undefined) check(v[key], child(at, key), out);
      else if (must) out.push(`${at}: missing non-nullable property ${key}`);
    }
    if (extra === false || extraCheck) {
      for (const key of Object.keys(v)) {
        if (s.properties && key in s.properties) continue;
        if (extraCheck) extraCheck(v[key], child(at, key), out);
        else out.push(`${at}: unexpected property ${key} (${name ?? 'the schema'} declares no such property)`);
      }
    }
  };
};

// Jellyfin's oneOfs are not exclusive (KeepAlive is both an inbound and an outbound message), so
// a value passes when it fits one of them; a discriminator picks the one to report on.
const choiceCheck = (s: Schema): Check => {
  const options = s.oneOf ?? s.anyOf ?? [];
  const tag = s.discriminator;
  return (v, at, out) => {
    if (tag?.mapping && isObject(v)) {
      const kind = v[tag.propertyName];
      const ref = tag.mapping[String(kind)];
      if (ref) compile(resolve(ref), ref)(v, at, out);
      else if (kind === undefined) out.push(`${at}: missing non-nullable property ${tag.propertyName}`);
      else out.push(`${child(at, tag.propertyName)}: ${show(kind)} is not one of ${listOf(Object.keys(tag.mapping))}`);
      return;
    }
    let nearest: string[] | undefined;
    for (const option of options) {
      const found: string[] = [];
      compile(option)(v, at, found);
      if (!found.length) return;
      if (!nearest || found.length < nearest.length) nearest = found;
    }
    out.push(`${at}: fits none of its ${options.length} possible schemas; the nearest says:`, ...(nearest ?? []));
  };
};

const compiled = new WeakMap<Schema, Check>();
/** One checker per schema object, built on first use; `$ref`s are followed only when checking, so recursion is fine. */
const compile = (s: Schema, ref?: string): Check => {
  const cached = compiled.get(s);
  if (cached) return cached;
  const parts: Check[] = [];
  const type = typeOf(s);
  const typed = type && typeCheck(type, s.format);
  if (s.enum) parts.push(enumCheck(s.enum));
  if (s.$ref) {
    const target = s.$ref;
    parts.push((v, at, out) => compile(resolve(target), target)(v, at, out));
  }
  for (const sub of s.allOf ?? []) parts.push(compile(sub));
  if (s.oneOf || s.anyOf) parts.push(choiceCheck(s));
  if (type === 'object') parts.push(objectCheck(s, ref?.replace('#/components/schemas/', '')));
  const items = s.items && compile(s.items);
  if (items) parts.push((v, at, out) => Array.isArray(v) && v.forEach((x, i) => items(x, `${at}[${i}]`, out)));
  const nullable = acceptsNull(s);
  const check: Check = (v, at, out) => {
    if (v === null) {
      if (!nullable) out.push(`${at}: null where the document allows none`);
      return;
    }
    const before = out.length;
    typed?.(v, at, out);
    // A value of the wrong type has nothing more worth saying about it.
    if (out.length > before) return;
    for (const part of parts) part(v, at, out);
  };
  compiled.set(s, check);
  return check;
};

const run = (schema: Schema, value: unknown, ref?: string) => {
  const out: string[] = [];
  compile(schema, ref)(value, '$', out);
  return [...new Set(out)];
};

interface Route {
  template: string;
  pattern: RegExp;
  rank: number[];
  operations: Record<string, Operation>;
}
let routes: Route[] | undefined;
/** The document's path templates, most literal first: at the first segment where two differ, a literal beats a parameter. */
const routeTable = () =>
  (routes ??= Object.entries(load().paths)
    .map(([template, operations]) => {
      // Escape all but the braces, then let each `{parameter}` stand for a run of non-slashes.
      const regex = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
      const rank = template.split('/').map((seg) => (!seg.includes('{') ? 0 : /^\{[^}]+\}$/.test(seg) ? 2 : 1));
      return { template, pattern: new RegExp(`^${regex}$`, 'i'), rank, operations };
    })
    .sort((a, b) => {
      const i = a.rank.findIndex((r, k) => r !== b.rank[k]);
      return i < 0 ? a.rank.length - b.rank.length : (a.rank[i] ?? 0) - (b.rank[i] ?? 0);
    }));

/** The problems of a JSON answer of the Jellyfin door (empty when it fits the document). */
export const checkJellyfinAnswer = (method: string, path: string, status: number, body: unknown): string[] => {
  // The apps' `/emby` and `/mediabrowser` prefixes and the query string are not part of the route.
  const bare = (path.split('?')[0] ?? '').replace(/^\/(?:emby|mediabrowser)(?=\/)/i, '').replace(/(.)\/$/, '$1');
  const matches = routeTable().filter((r) => r.pattern.test(bare));
  // Two templates can differ only in a parameter's name and method (RemoteSearch/Subtitles/{language} and /{subtitleId}).
  const route = matches.find((r) => r.operations[method.toLowerCase()]) ?? matches[0];
  if (!route) return [`${path}: no path of Jellyfin's document matches`];
  const operation = route.operations[method.toLowerCase()];
  const label = `${method.toUpperCase()} ${route.template}`;
  if (!operation) {
    const has = Object.keys(route.operations).map((m) => m.toUpperCase());
    return [`${label}: the document has no such operation (only ${has.join(', ')})`];
  }
  const answers = operation.responses ?? {};
  const answer = answers[String(status)] ?? answers[`${String(status)[0]}XX`] ?? answers.default;
  if (!answer) return [`${label}: the document declares no ${status} answer (only ${Object.keys(answers).join(', ')})`];
  const schema = answer.content?.['application/json']?.schema;
  if (schema) return run(schema, body);
  // Another media type (an image, a playlist) is not this helper's to check; no content means no body.
  if (answer.content || body === undefined || body === '') return [];
  return [`${label} ${status}: the document declares no body, got ${show(body)}`];
};

/** Like checkJellyfinAnswer, but throws an AssertionError that lists the problems. */
export const assertJellyfinAnswer = (method: string, path: string, status: number, body: unknown): void => {
  const problems = checkJellyfinAnswer(method, path, status, body);
  if (!problems.length) return;
  const shown = problems.slice(0, 30);
  if (problems.length > shown.length) shown.push(`... and ${problems.length - shown.length} more`);
  const head = `${method.toUpperCase()} ${path} ${status} does not fit Jellyfin 10.11.0's document (${problems.length} problems):`;
  throw new AssertionError({ message: [head, ...shown.map((p) => `  ${p}`)].join('\n') });
};

/** The problems of a value against a named component schema (`UserDto`, `OutboundWebSocketMessage`). */
export const checkJellyfinSchema = (schemaName: string, value: unknown): string[] => {
  const schema = load().components.schemas[schemaName];
  if (!schema) return [`Jellyfin's document has no schema named ${schemaName}`];
  return run(schema, value, `#/components/schemas/${schemaName}`);
};
