// Contract fuzzing against the running stack: fast-check generates requests for every operation
// of the OpenAPI document clients see (GET /api/docs.json), valid-ish and hostile (odd bodies,
// encodings and content types, query strings, path ids, methods), sends them raw, and every
// answer must keep the contract's error rules: no 5xx, no dropped connection, and every 4xx a
// problem+json whose status, type and requestId agree with the response.
//
// Seeds are fixed so CI is repeatable; MLS_FUZZ_SEED and MLS_FUZZ_RUNS (total requests, spread
// over the operations) choose others. MLS_FUZZ_COLLECT=1 runs past failures (no shrinking) and
// lists each distinct one at the end, for triage.
//
// Other test files use the same stack at the same time, so no request may succeed at changing
// shared state: ids are random, and before anything is sent to a mutating operation its body is
// checked against that operation's own schema from the document. Only scan and library bodies
// may be valid, and only with a path under a folder that exists nowhere.
import assert from 'node:assert/strict';
import { isUtf8 } from 'node:buffer';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { describe, it } from 'node:test';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { call, stack } from '../support/stack';

const intEnv = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) throw new Error(`${name} must be an integer, got ${JSON.stringify(raw)}`);
  return value;
};

const SEED = intEnv('MLS_FUZZ_SEED', 20_240_611);
const RUNS = intEnv('MLS_FUZZ_RUNS', 600);
const COLLECT = process.env.MLS_FUZZ_COLLECT === '1';
/** A loopback source address of its own, so the run has a rate-limit bucket of its own. */
const FROM = '127.0.0.61';
const TIMEOUT_MS = 20_000;
/** A top-level key no schema knows: an object carrying it fails every operation's body schema. */
const GUARD = 'mlsFuzzGuard';
/** A folder name no machine has: scan and library paths always go through it. */
const NOWHERE = 'mls-fuzz-nonexistent-7f3a';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

// ---- the document --------------------------------------------------------------------------
type Schema = { [key: string]: unknown };
interface DocParameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
}
interface DocOperation {
  operationId: string;
  parameters?: DocParameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
}
interface OpenApi {
  paths: Record<string, Record<string, unknown>>;
  components?: { schemas?: Record<string, Schema> };
}

interface Operation {
  id: string;
  method: string;
  template: string;
  pathParams: DocParameter[];
  queryParams: DocParameter[];
  body?: { schema: Schema; required: boolean; validate: ValidateFunction };
}

const docReply = await call('GET', '/api/docs.json', { from: FROM });
if (docReply.status !== 200) throw new Error(`GET /api/docs.json answered ${docReply.status}: ${docReply.text.slice(0, 300)}`);
const doc = docReply.json as OpenApi;

// The document's schemas, for checking before sending that a body cannot succeed.
const DOC_ID = 'mls-fuzz-openapi';
const ajv = new Ajv({ strict: false, allErrors: false });
addFormats(ajv);
ajv.addSchema({ $id: DOC_ID, components: doc.components ?? {} });
const rebase = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rebase);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `${DOC_ID}${v}` : rebase(v)]),
  );
};

const resolve = (schema: unknown): Schema => {
  let current = (schema ?? {}) as Schema;
  for (let i = 0; i < 16 && typeof current.$ref === 'string'; i++) {
    current = doc.components?.schemas?.[current.$ref.replace('#/components/schemas/', '')] ?? {};
  }
  return current;
};

const HTTP_METHODS = ['get', 'head', 'post', 'put', 'patch', 'delete', 'options'];
const operations: Operation[] = Object.entries(doc.paths)
  .filter(([template]) => template !== '/ws')
  .flatMap(([template, item]) =>
    Object.entries(item)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, raw]) => {
        const o = raw as DocOperation;
        const bodySchema = o.requestBody?.content?.['application/json']?.schema;
        return {
          id: o.operationId,
          method: method.toUpperCase(),
          template,
          pathParams: (o.parameters ?? []).filter((p) => p.in === 'path'),
          queryParams: (o.parameters ?? []).filter((p) => p.in === 'query'),
          ...(bodySchema
            ? {
                body: {
                  schema: bodySchema,
                  required: Boolean(o.requestBody?.required),
                  validate: ajv.compile(rebase(bodySchema) as object),
                },
              }
            : {}),
        };
      }),
  );

const templates = [...new Set(operations.map((o) => o.template))];
const templateRegex = (template: string) =>
  new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '([^/]+)')}$`);
const regexes = new Map(templates.map((t) => [t, templateRegex(t)]));

/** The operation a method on a template reaches; HEAD is served by GET where there is no HEAD. */
const opAt = (template: string, method: string): Operation | undefined => {
  const on = operations.filter((o) => o.template === template);
  return on.find((o) => o.method === method) ?? (method === 'HEAD' ? on.find((o) => o.method === 'GET') : undefined);
};

const templateOf = (path: string) => {
  const hits = templates.filter((t) => regexes.get(t)!.test(path));
  return hits.find((t) => t === path) ?? hits[0];
};

/** Dot segments resolved, as a server down the line might (%2e included). */
const normalise = (path: string) => {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    const plain = segment.replace(/%2e/gi, '.');
    if (plain === '.') continue;
    if (plain === '..') out.pop();
    else out.push(segment);
  }
  return out.join('/') || '/';
};

/** Every operation a request might end up at: as sent, and with its path normalised. */
const candidatesFor = (method: string, rawPath: string): Operation[] => {
  const path = rawPath.split('?')[0]!;
  const forms = [path, normalise(path), normalise(path.replace(/%2f/gi, '/'))];
  const found = forms.map((p) => templateOf(p)).flatMap((t) => (t ? [opAt(t, method)] : []));
  return [...new Set(found.filter((o): o is Operation => o !== undefined))];
};

const idsIn = (op: Operation, rawPath: string): string[] => {
  const forms = [rawPath.split('?')[0]!, normalise(rawPath.split('?')[0]!)];
  return forms.flatMap((p) => {
    const m = regexes.get(op.template)!.exec(p);
    if (!m) return [];
    return m.slice(1).flatMap((raw) => {
      try {
        return [raw, decodeURIComponent(raw)];
      } catch {
        return [raw];
      }
    });
  });
};

// ---- requests ------------------------------------------------------------------------------
interface FuzzRequest {
  /** The operation it was generated for. */
  op: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** How the body was made, for reading reports. */
  shape: string;
  [fc.toStringMethod]: () => string;
}

const elide = (text: string, max: number) =>
  text.length <= max ? text : `${text.slice(0, max / 2)}…[${text.length - max} more chars]…${text.slice(-max / 2)}`;
const showBody = (body: Buffer | undefined) =>
  body === undefined
    ? 'none'
    : isUtf8(body)
      ? `utf-8 ${elide(JSON.stringify(body.toString('utf8')), 800)} (${body.length} bytes)`
      : `base64 ${elide(body.toString('base64'), 800)} (${body.length} bytes)`;
/** The path as it goes on the wire; bytes past ASCII (written raw, as latin1) shown as \xNN. */
const showPath = (path: string) => elide(path, 600).replace(/[\u007f-\u00ff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).toUpperCase()}`);
const showRequest = (r: Omit<FuzzRequest, typeof fc.toStringMethod>) =>
  `${r.method} ${showPath(r.path)}\n    headers: ${JSON.stringify(r.headers, (_k, v: unknown) => (typeof v === 'string' ? elide(v, 200) : v))}\n    body [${r.shape}]: ${showBody(r.body)}`;

const makeRequest = (r: Omit<FuzzRequest, typeof fc.toStringMethod>): FuzzRequest => ({ ...r, [fc.toStringMethod]: () => showRequest(r) });

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNowhere = (path: string) => path.includes(NOWHERE) && !path.includes('..');
/** Operations that refuse a body whose path does not exist (422), whatever else it holds. */
const REFUSE_MISSING_PATH = new Set(['startScan', 'createLibrary']);

/** The body as the service reads it: UTF-8, one BOM dropped, JSON. */
const readBody = (body: Buffer | undefined): { empty: true } | { empty: false; value?: unknown } => {
  if (!body?.length) return { empty: true };
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  try {
    return { empty: false, value: JSON.parse(text) as unknown };
  } catch {
    return { empty: false };
  }
};

/** Why this request might succeed at changing shared state, or undefined when it cannot. */
const risk = (r: Pick<FuzzRequest, 'method' | 'path' | 'body'>): string | undefined => {
  if (!MUTATING.has(r.method)) return undefined;
  for (const op of candidatesFor(r.method, r.path)) {
    // Library and job ids are 32 hex digits; generated ids never are, so they name nothing real.
    if (idsIn(op, r.path).some((id) => /^[0-9a-f]{32}$/i.test(id))) return `${op.id} with an id shaped like a real one`;
    if (!op.body) continue;
    const read = readBody(r.body);
    if (read.empty) {
      if (!op.body.required) return `${op.id} without a body does its default work`;
      continue;
    }
    if (!('value' in read) || !op.body.validate(read.value)) continue;
    if (REFUSE_MISSING_PATH.has(op.id) && isPlainObject(read.value) && typeof read.value.path === 'string' && isNowhere(read.value.path))
      continue;
    return `${op.id} would accept the body`;
  }
  return undefined;
};

let neutralised = 0;
/** A request the generators got wrong is made harmless rather than sent (counted in the summary). */
const harmless = (r: Omit<FuzzRequest, typeof fc.toStringMethod>): FuzzRequest => {
  if (risk(r) === undefined) return makeRequest(r);
  neutralised++;
  const body = Buffer.from(JSON.stringify([GUARD]));
  const headers: Record<string, string> = { ...r.headers, 'content-type': 'application/json' };
  if (!headers['transfer-encoding']) headers['content-length'] = String(body.length);
  return makeRequest({ ...r, headers, body, shape: `${r.shape}, neutralised` });
};

// ---- generated values ------------------------------------------------------------------------
/** A number literal JSON.stringify cannot write (1e400, -0): written in place by toJsonText. */
const RAW = (literal: string) => `\u0000raw:${literal}\u0000`;
const toJsonText = (value: unknown) => (JSON.stringify(value) ?? 'null').replace(/"\\u0000raw:([^"\\]*)\\u0000"/g, '$1');

const hostileScalar = fc.constantFrom<unknown>(
  false,
  0,
  'x',
  null,
  true,
  1e308,
  '',
  -1,
  1.5,
  2 ** 53 + 1,
  [],
  {},
  '\u0000',
  '\ud800',
  'a'.repeat(5000),
  RAW('-0'),
  RAW('1e400'),
  RAW('-1e400'),
  RAW('1e-400'),
  RAW('123456789012345678901234567890'),
);

const pathSegment = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9 _-]{1,16}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }).filter((s) => !s.includes('/') && !s.includes('.')),
  fc.constantFrom('\u0000', '\ud800', 'a'.repeat(5000), '.', '~', '%2e%2e', ' '),
);
/** Paths under a folder that exists nowhere (never with `..`), absolute, relative and s3-like. */
const nowherePath = fc
  .tuple(fc.constantFrom(`/${NOWHERE}`, NOWHERE, `s3://${NOWHERE}`, `//${NOWHERE}`), fc.array(pathSegment, { maxLength: 3 }))
  .map(([root, segments]) => [root, ...segments].join('/'));

const numberOr = (v: unknown, fallback: number) => (typeof v === 'number' ? v : fallback);

const stringFor = (s: Schema): fc.Arbitrary<string> => {
  if (s.format === 'date-time')
    return fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4_102_444_800_000) }).map((d) => d.toISOString());
  const max = Math.min(numberOr(s.maxLength, 40), 40);
  if (typeof s.pattern === 'string') return fc.stringMatching(new RegExp(s.pattern)).map((v) => v.slice(0, Math.max(max, 1)));
  return fc.string({ unit: 'grapheme', minLength: Math.min(numberOr(s.minLength, 0), max), maxLength: max });
};

/** Valid-looking values for a schema, with hostile scalars mixed in at every level. */
const valueFor = (schema: unknown, depth = 0, key = ''): fc.Arbitrary<unknown> =>
  fc.oneof({ weight: 5, arbitrary: validFor(resolve(schema), depth, key) }, { weight: 1, arbitrary: hostileScalar });

const validFor = (s: Schema, depth: number, key: string): fc.Arbitrary<unknown> => {
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
  const union = (s.anyOf ?? s.oneOf) as unknown[] | undefined;
  if (Array.isArray(union) && union.length) return fc.oneof(...union.map((branch) => validFor(resolve(branch), depth, key)));
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'string':
      return key === 'path' ? nowherePath : stringFor(s);
    case 'integer':
      return fc.integer({ min: numberOr(s.minimum, -1000), max: numberOr(s.maximum, 100_000) });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: numberOr(s.minimum, -1e6), max: numberOr(s.maximum, 1e6) });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return depth > 3 ? fc.constant([]) : fc.array(valueFor(s.items, depth + 1), { maxLength: 3 });
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>;
      if (depth > 3 || !Object.keys(props).length) {
        return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 });
      }
      const model = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, valueFor(v, depth + 1, k)]));
      return fc.record(model, { requiredKeys: ((s.required as string[] | undefined) ?? []).filter((k) => k in model) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
};

/** Objects either carry a path that leads nowhere or the guard key, so no body can succeed by chance. */
const guarded = (value: unknown): unknown => {
  if (!isPlainObject(value)) return value;
  if ('path' in value) return typeof value.path === 'string' && !isNowhere(value.path) ? { ...value, path: `/${NOWHERE}/x` } : value;
  return { [GUARD]: true, ...value };
};

// ---- bodies ----------------------------------------------------------------------------------
interface BodyCase {
  bytes?: Buffer;
  shape: string;
}
const text = (shape: string, t: string): BodyCase => ({ shape, bytes: Buffer.from(t, 'utf8') });
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BAD_UTF8 = [[0xff], [0xfe, 0xff], [0xc3], [0x80], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xf4, 0x90, 0x80, 0x80], [0xe2, 0x82]];
const PRIMITIVES = [
  'false',
  '0',
  '"x"',
  'null',
  'true',
  '1e308',
  '-0',
  '1e400',
  '""',
  '123456789012345678901234567890',
  ' ',
  '\t\r\n',
  '"\\ud800"',
];
let bigBody: Buffer | undefined;
/** Just over the service's 1 MiB limit (made once, on first use). */
const big = () => (bigBody ??= Buffer.from(`{"${GUARD}":"${'x'.repeat(1024 * 1024)}"}`));

const deepText = (depth: number, kind: string) => {
  switch (kind) {
    case 'arrays':
      return '['.repeat(depth) + ']'.repeat(depth);
    case 'objects':
      return `{"${GUARD}":true,"a":${'{"a":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}}`;
    case 'mixed': {
      const half = Math.ceil(depth / 2);
      return '[{"a":'.repeat(half) + '1' + '}]'.repeat(half);
    }
    default:
      return '['.repeat(depth); // never closed
  }
};

/** Invalid bytes at a position, moved off the NOWHERE marker so a path still leads nowhere. */
const withBadBytes = (json: string, at: number, bad: number[]) => {
  const bytes = Buffer.from(json, 'utf8');
  let pos = at % (bytes.length + 1);
  for (let i = bytes.indexOf(NOWHERE); i >= 0; i = bytes.indexOf(NOWHERE, i + 1)) if (pos > i && pos < i + NOWHERE.length) pos = i;
  return Buffer.concat([bytes.subarray(0, pos), Buffer.from(bad), bytes.subarray(pos)]);
};

const withSurrogate = (value: unknown, lone: string, where: string): unknown => {
  if (where === 'top' || !isPlainObject(value)) return lone;
  if (where === 'key') return { ...value, [lone]: 1 };
  const firstString = Object.keys(value).find((k) => typeof value[k] === 'string');
  return firstString ? { ...value, [firstString]: `${value[firstString] as string}${lone}` } : { ...value, note: lone };
};

const withProtoKeys = (value: unknown, keys: string[], inner: unknown) => {
  const pairs = keys.map((k) => `"${k}":${k === 'constructor' ? `{"prototype":${toJsonText(inner)}}` : toJsonText(inner)}`).join(',');
  const base = toJsonText(value);
  return isPlainObject(value) && base.length > 2 ? `{${pairs},${base.slice(1)}` : `{${pairs},"${GUARD}":true}`;
};

const bodyArb = (op: Operation | undefined, allowEmpty: boolean): fc.Arbitrary<BodyCase> => {
  const value = (op?.body ? valueFor(op.body.schema) : fc.jsonValue({ maxDepth: 2 })).map(guarded);
  const json = value.map(toJsonText);
  const cases: Array<fc.WeightedArbitrary<BodyCase>> = [
    { weight: 8, arbitrary: json.map((t) => text('json', t)) },
    { weight: 2, arbitrary: fc.constantFrom(...PRIMITIVES).map((t) => text('bare primitive', t)) },
    {
      weight: 1,
      arbitrary: fc
        .oneof(
          fc.constant('[]'),
          json.map((t) => `[${t}]`),
        )
        .map((t) => text('array for an object', t)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(value, fc.subarray(['__proto__', 'constructor', 'prototype'], { minLength: 1 }), fc.jsonValue({ maxDepth: 1 }))
        .map(([v, keys, inner]) => text('prototype keys', withProtoKeys(v, keys, inner))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom(32, 33, 5000), fc.constantFrom('arrays', 'objects', 'mixed', 'unclosed'))
        .map(([depth, kind]) => text(`${depth}-deep ${kind}`, deepText(depth, kind))),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(value, fc.constantFrom('\ud800', '\udfff', 'a\ud800b', '\udc00\ud800'), fc.constantFrom('value', 'key', 'top'))
        .map(([v, lone, where]) => text(`lone surrogate (${where})`, toJsonText(withSurrogate(v, lone, where)))),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.constantFrom(1, 2))
        .map(([t, n]) => ({ shape: `${n} BOM`, bytes: Buffer.concat([...Array(n).fill(BOM), Buffer.from(t)]) })),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(json, fc.nat(), fc.constantFrom(...BAD_UTF8))
        .map(([t, at, bad]) => ({ shape: `invalid UTF-8 ${Buffer.from(bad).toString('hex')}`, bytes: withBadBytes(t, at, bad) })),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(json, fc.nat(), fc.constantFrom('truncated', 'trailing garbage', 'single quotes', 'two values', 'NaN', 'comment'))
        .map(([t, n, kind]) => {
          const malformed: Record<string, string> = {
            truncated: t.slice(0, Math.max(1, n % t.length)),
            'trailing garbage': `${t} x`,
            'single quotes': t.replaceAll('"', "'"),
            'two values': `${t}{"${GUARD}":1}`,
            NaN: `{"${GUARD}":NaN}`,
            comment: `{/* c */"${GUARD}":true}`,
          };
          return text(`malformed: ${kind}`, malformed[kind]!);
        }),
    },
    { weight: 1, arbitrary: fc.constant(0).map(() => ({ shape: 'over 1 MiB', bytes: big() })) },
  ];
  if (allowEmpty)
    cases.push({ weight: 1, arbitrary: fc.constantFrom<BodyCase>({ shape: 'empty', bytes: Buffer.alloc(0) }, { shape: 'none' }) });
  return fc.oneof(...cases);
};

const NO_BODY: BodyCase = { shape: 'none' };
const bodyFor = (target: Operation | undefined, method: string): fc.Arbitrary<BodyCase> => {
  // cleanup without a body would run for real; a required body answers 400 when missing.
  if (target?.body) return bodyArb(target, target.body.required);
  return fc.oneof(
    { weight: MUTATING.has(method) ? 3 : 7, arbitrary: fc.constant(NO_BODY) },
    { weight: 1, arbitrary: bodyArb(undefined, true) },
  );
};

// ---- headers, paths, queries ---------------------------------------------------------------
const ODD_CONTENT_TYPES = [
  'application/json, text/plain',
  'application/json; charset=utf-16',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'application/json; ;;=;charset;q=0.5; x="unterminated',
  `application/json; x=${'a'.repeat(300 - 'application/json; x='.length)}`,
  'APPLICATION/JSON; CHARSET=UTF-8',
  'application/json;charset="utf-8"',
  'application/problem+json',
  'application/jsonx',
  '*/*',
  '',
];
const contentTypeArb = fc.oneof(
  { weight: 6, arbitrary: fc.constant<string | undefined>('application/json') },
  { weight: 1, arbitrary: fc.constant<string | undefined>(undefined) },
  { weight: 4, arbitrary: fc.constantFrom<string | undefined>(...ODD_CONTENT_TYPES) },
);

// node:http writes the request line as latin1, so '\u00e9' goes out as the lone byte E9 and
// '\u00c3\u00a9' as the UTF-8 bytes of "é" unencoded, as some clients send them.
const HOSTILE_IDS = [
  '..%2F..%2Fetc%2Fpasswd',
  '%2e%2e',
  '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd',
  '%2e',
  '.',
  '..',
  '%00',
  'a%00b',
  'a'.repeat(10_000),
  '%C3%A9t%C3%A9',
  '%F0%9F%8E%AC',
  '%ED%A0%80',
  '%ff',
  '%zz',
  '%',
  '\u00e9',
  '\u00c3\u00a9',
  '\u007f',
  '%20',
  '+',
  ';x=1',
  'a%2Fb',
  '%252e%252e',
  'x'.repeat(129),
  '__proto__',
  'constructor',
  '%7B%7D',
  'null',
  '-',
  '~',
];
const notRealId = (id: string) => !/^[0-9a-f]{32}$/i.test(id);
const segmentFor = (param: DocParameter): fc.Arbitrary<string> => {
  const s = resolve(param.schema);
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  const consts = Array.isArray(union) ? union.map((b) => resolve(b).const).filter((c): c is string => typeof c === 'string') : [];
  return fc.oneof(
    { weight: 3, arbitrary: consts.length ? fc.constantFrom(...consts) : fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/).filter(notRealId) },
    { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_IDS) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).map(encodeURIComponent).filter(notRealId) },
  );
};
const pathSuffix = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('/', '/.', '/..', '//', ';x', '%2F', '/%2e%2e') },
);

const HOSTILE_QUERY_VALUES = [
  '-1',
  '0',
  '1.5',
  'NaN',
  'Infinity',
  '-0',
  '1e999',
  '0x10',
  '%201',
  '+1',
  '',
  '%zz',
  '%',
  '%c3%28',
  '%00',
  'a'.repeat(10_000),
  encodeURIComponent('ß😀'),
  '\u00c3\u009f',
  'true',
  'null',
  '%5B%5D',
  '%2e%2e%2f',
  '99999999999999999999',
];
const RAW_QUERY_PARTS = [
  '%zz',
  '%',
  '%c3%28',
  '=',
  '',
  '?',
  'a=%',
  '%00=1',
  '__proto__[x]=1',
  'constructor=1',
  'limit[]=1',
  'a[b]=c',
  `${'k'.repeat(10_000)}=1`,
];

const queryValue = (param: DocParameter): fc.Arbitrary<string> => {
  const s = resolve(param.schema);
  return validFor(s, 0, '').map((v) => encodeURIComponent(typeof v === 'string' ? v : (JSON.stringify(v) ?? '')));
};
const queryArb = (params: DocParameter[]): fc.Arbitrary<string> => {
  const known = params.length ? fc.constantFrom(...params) : undefined;
  const parts: Array<fc.WeightedArbitrary<string[]>> = [
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.stringMatching(/^[a-z_]{1,10}$/), fc.string({ maxLength: 10 }))
        .map(([k, v]) => [`${k}=${encodeURIComponent(v)}`]),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_QUERY_PARTS).map((p) => [p]) },
  ];
  if (known) {
    parts.push(
      { weight: 4, arbitrary: known.chain((p) => queryValue(p).map((v) => [`${p.name}=${v}`])) },
      { weight: 2, arbitrary: fc.tuple(known, fc.constantFrom(...HOSTILE_QUERY_VALUES)).map(([p, v]) => [`${p.name}=${v}`]) },
      {
        weight: 1,
        arbitrary: known.chain((p) =>
          fc.tuple(queryValue(p), fc.constantFrom(...HOSTILE_QUERY_VALUES)).map(([a, b]) => [`${p.name}=${a}`, `${p.name}=${b}`]),
        ),
      },
    );
  }
  // Required parameters come first and mostly valid, so the rest of the request gets looked at.
  const required = params.filter((p) => p.required);
  const first = fc.tuple(
    ...required.map((p) =>
      fc.option(
        queryValue(p).map((v) => `${p.name}=${v}`),
        { freq: 6, nil: undefined },
      ),
    ),
  );
  return fc
    .tuple(first, fc.array(fc.oneof(...parts), { maxLength: 4 }))
    .map(([req, rest]) => [...req.filter((x) => x !== undefined), ...rest.flat()].join('&'));
};

const OTHER_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const REQUEST_IDS = ['client-abc.123', 'x'.repeat(300), 'bad id <script>', ''];

const requestArb = (op: Operation): fc.Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constant(op.method) }, { weight: 2, arbitrary: fc.constantFrom(...OTHER_METHODS) }),
      segments: fc.tuple(...op.pathParams.map(segmentFor)),
      suffix: pathSuffix,
      query: queryArb(op.queryParams),
      contentType: contentTypeArb,
      chunked: fc.oneof({ weight: 7, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      requestId: fc.option(fc.constantFrom(...REQUEST_IDS), { freq: 6, nil: undefined }),
    })
    .chain((base) => {
      let i = 0;
      const filled = op.template.replace(/\{[^}]+\}/g, () => base.segments[i++] ?? 'x');
      const path = `${filled}${base.suffix}${base.query ? `?${base.query}` : ''}`;
      return bodyFor(opAt(op.template, base.method), base.method).map((body) => {
        const headers: Record<string, string> = {};
        if (base.contentType !== undefined) headers['content-type'] = base.contentType;
        if (base.requestId !== undefined) headers['x-request-id'] = base.requestId;
        if (base.chunked) headers['transfer-encoding'] = 'chunked';
        else if (body.bytes) headers['content-length'] = String(body.bytes.length);
        return harmless({ op: op.id, method: base.method, path, headers, ...(body.bytes ? { body: body.bytes } : {}), shape: body.shape });
      });
    });

// ---- sending and judging -----------------------------------------------------------------------
interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  error?: string;
  ms: number;
}

let sent = 0;
const statuses = new Map<number | string, number>();

/** One raw request (the path exactly as given, the body byte for byte), its answer read to the end. */
const send = (r: FuzzRequest): Promise<Answer> => {
  const why = risk(r);
  if (why) throw new Error(`refusing to send a request that could change shared state (${why}):\n    ${showRequest(r)}`);
  const url = new URL(stack.url);
  const started = Date.now();
  sent++;
  return new Promise((done) => {
    let settled = false;
    const finish = (a: Omit<Answer, 'ms'>) => {
      if (settled) return;
      settled = true;
      statuses.set(a.error ? 'no answer' : a.status, (statuses.get(a.error ? 'no answer' : a.status) ?? 0) + 1);
      done({ ...a, ms: Date.now() - started });
    };
    const req = httpRequest(
      { host: url.hostname, port: url.port, method: r.method, path: r.path, headers: r.headers, agent: false, localAddress: FROM },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('aborted', () =>
          finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error: 'response cut off' }),
        );
        res.on('error', (err) =>
          finish({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), error: err.message }),
        );
      },
    );
    req.on('error', (err) =>
      finish({
        status: 0,
        headers: {},
        body: Buffer.alloc(0),
        error: `${(err as NodeJS.ErrnoException).code ?? ''} ${err.message}`.trim(),
      }),
    );
    req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.end(r.body);
  });
};

const mediaType = (a: Answer) =>
  String(a.headers['content-type'] ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();

/** Every way the answer breaks the contract's rules; empty when it keeps them. */
const verdict = (r: FuzzRequest, a: Answer): string[] => {
  if (a.error) return [`no answer: ${a.error}`];
  const issues: string[] = [];
  if (a.status >= 500) issues.push(`server error ${a.status}`);
  if (a.status < 400) return issues;
  if (mediaType(a) !== 'application/problem+json') issues.push(`content-type ${JSON.stringify(a.headers['content-type'] ?? null)}`);
  const requestId = a.headers['x-request-id'];
  if (typeof requestId !== 'string' || !requestId) issues.push('no X-Request-Id');
  if (r.method === 'HEAD') return issues;
  let problem: unknown;
  try {
    problem = JSON.parse(a.body.toString('utf8'));
  } catch {
    return [...issues, 'body is not JSON'];
  }
  if (!isPlainObject(problem)) return [...issues, 'body is not an object'];
  if (problem.status !== a.status) issues.push(`body status ${JSON.stringify(problem.status)}`);
  if (typeof problem.type !== 'string' || !problem.type.startsWith('/problems/')) issues.push(`type ${JSON.stringify(problem.type)}`);
  if (typeof requestId === 'string' && requestId && problem.requestId !== requestId)
    issues.push(`requestId ${JSON.stringify(problem.requestId)} is not X-Request-Id`);
  return issues;
};

const showAnswer = (a: Answer) =>
  a.error
    ? `no answer (${a.error}) after ${a.ms} ms`
    : `${a.status} in ${a.ms} ms, content-type ${JSON.stringify(a.headers['content-type'] ?? null)}, X-Request-Id ${a.headers['x-request-id'] === undefined ? 'absent' : JSON.stringify(a.headers['x-request-id'])}, body ${elide(JSON.stringify(a.body.toString('utf8')), 600)}`;

// In collect mode: one entry per distinct kind of failure, with its smallest request.
interface Finding {
  issues: string[];
  request: FuzzRequest;
  answer: Answer;
  count: number;
  ops: Set<string>;
  shapes: Set<string>;
}
const findings = new Map<string, Finding>();
const signature = (r: FuzzRequest, a: Answer, issues: string[]) => {
  const excerpt = a.body
    .toString('utf8')
    .slice(0, 80)
    .replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<uuid>')
    .replace(/"instance":"[^"]*"/, '')
    .replace(/\d+/g, '#');
  return [
    issues.map((i) => i.replace(/"[^"]*"/g, '…')).join(' | '),
    a.status,
    mediaType(a),
    excerpt,
    r.method === 'HEAD' ? 'HEAD' : '',
  ].join(' ~ ');
};
const sizeOf = (r: FuzzRequest) => r.path.length + (r.body?.length ?? 0) + JSON.stringify(r.headers).length;
const collect = (r: FuzzRequest, a: Answer, issues: string[]) => {
  const key = signature(r, a, issues);
  const seen = findings.get(key);
  if (!seen) return void findings.set(key, { issues, request: r, answer: a, count: 1, ops: new Set([r.op]), shapes: new Set([r.shape]) });
  seen.count++;
  seen.ops.add(r.op);
  seen.shapes.add(r.shape);
  if (sizeOf(r) < sizeOf(seen.request)) Object.assign(seen, { issues, request: r, answer: a });
};

const weightOf = (op: Operation) => (op.body ? 4 : op.pathParams.length || op.queryParams.length ? 2 : 1);
const hash = (s: string) => [...s].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) | 0, 7);

const totalWeight = operations.reduce((sum, o) => sum + weightOf(o), 0);
const runsFor = (op: Operation) => Math.max(5, Math.round((RUNS * weightOf(op)) / totalWeight));
const started = Date.now();

describe(`contract fuzz (MLS_FUZZ_SEED=${SEED}, MLS_FUZZ_RUNS=${RUNS}${COLLECT ? ', collecting' : ''})`, () => {
  it('finds the rate limit high enough for the run', async () => {
    const res = await call('GET', '/api/v1/library', { from: FROM });
    assert.equal(res.status, 200, res.text);
    const left = /;r=(\d+)/.exec(String(res.headers.ratelimit ?? ''))?.[1];
    assert.ok(left, `no RateLimit header on a counted request: ${JSON.stringify(res.headers)}`);
    // Shrinking sends more requests than the runs; RATE_LIMIT_MAX is raised by test/support/instance.ts.
    assert.ok(Number(left) >= RUNS * 5, `only ${left} requests left in the window for ${RUNS} runs: raise RATE_LIMIT_MAX`);
  });

  for (const op of operations) {
    it(`keeps the error contract on ${op.method} ${op.template} (${op.id}, ${runsFor(op)} runs)`, async () => {
      const seed = (SEED + hash(op.id)) | 0;
      const property = fc.asyncProperty(requestArb(op), async (r) => {
        const answer = await send(r);
        const issues = verdict(r, answer);
        if (!issues.length) return;
        if (COLLECT) return collect(r, answer, issues);
        throw new Error(`${issues.join('; ')}\n  request: ${showRequest(r)}\n  answer: ${showAnswer(answer)}`);
      });
      try {
        await fc.assert(property, { seed, numRuns: runsFor(op), includeErrorInReport: true });
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        throw new Error(
          `contract fuzz failed on ${op.id}: rerun with MLS_FUZZ_SEED=${SEED} MLS_FUZZ_RUNS=${RUNS} (this operation's seed: ${seed})\n${message}`,
          { cause: err },
        );
      }
    });
  }

  it('leaves the service healthy', async (t) => {
    const res = await call('GET', '/api/v1/health', { from: FROM });
    const byStatus = [...statuses.entries()]
      .sort(([a], [b]) => String(a).localeCompare(String(b)))
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    t.diagnostic(
      `${sent} requests in ${((Date.now() - started) / 1000).toFixed(1)} s (${byStatus}); ${neutralised} neutralised before sending`,
    );
    assert.equal(res.status, 200, res.text);
    if (COLLECT && findings.size) {
      const list = [...findings.values()].map(
        (f, i) =>
          `#${i + 1} (${f.count}×; ops ${[...f.ops].join(', ')}; body shapes ${[...f.shapes].slice(0, 8).join(', ')})\n  ${f.issues.join('; ')}\n  request: ${showRequest(f.request)}\n  answer: ${showAnswer(f.answer)}`,
      );
      assert.fail(`${findings.size} distinct contract failures (MLS_FUZZ_SEED=${SEED}, MLS_FUZZ_RUNS=${RUNS}):\n\n${list.join('\n\n')}`);
    }
  });
});
