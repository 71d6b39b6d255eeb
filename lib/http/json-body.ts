// Parses JSON bodies for operations that take one: over the size limit 413, not JSON (or not
// UTF-8) 415, malformed 400. The size check counts decoded bytes, as a client would. What
// parses but is no JSON a service could mean (nesting past MAX_DEPTH, unpaired surrogates) is a
// 400 too; whether the value has the right shape is the operation's schema's to say.
import { bodyTooLarge, invalidRequest, malformedJson, unsupportedMediaType } from '../errors';
import type { HttpMiddleware } from './context';

export const MAX_BODY_BYTES = 1024 * 1024;
/** Deeper than any body of the API; bounds the work of everything that walks the value. */
export const MAX_DEPTH = 32;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]+)"?/i;
const BOM = '\uFEFF';

export const isJsonContentType = (type: string) => JSON_TYPE.test(type);

/** How deep arrays and objects nest, strings skipped; stops counting past `limit`. */
export const nestingDepth = (text: string, limit = MAX_DEPTH): number => {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max && (max = depth) > limit) return max;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return max;
};

/** The first string (key or value) holding an unpaired surrogate, as a field path; undefined if none. */
const unpairedSurrogate = (value: unknown, path: string): string | undefined => {
  if (typeof value === 'string') return value.isWellFormed() ? undefined : path;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = `${path}.${key}`;
    if (!key.isWellFormed()) return path;
    const found = unpairedSurrogate(inner, at);
    if (found) return found;
  }
  return undefined;
};

export const parseJsonBody = (text: string): unknown => {
  const source = text.startsWith(BOM) ? text.slice(1) : text;
  if (nestingDepth(source) > MAX_DEPTH)
    throw invalidRequest([{ field: 'body', message: `nests arrays and objects deeper than ${MAX_DEPTH} levels` }]);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    throw malformedJson();
  }
  const bad = unpairedSurrogate(value, 'body');
  if (bad) throw invalidRequest([{ field: bad, message: 'holds an unpaired UTF-16 surrogate, which no text can carry' }]);
  return value;
};

export const jsonBody = (expectsBody: boolean, required: boolean, limitBytes = MAX_BODY_BYTES): HttpMiddleware => ({
  before: async (request) => {
    const { event } = request;
    if (!expectsBody) return;
    const rawBody = event.body ?? '';
    const bytes = event.isBase64Encoded ? Buffer.from(rawBody, 'base64') : Buffer.from(rawBody, 'utf8');
    if (bytes.length > limitBytes) throw bodyTooLarge(limitBytes);
    if (bytes.length === 0) {
      if (required) throw invalidRequest([{ field: 'body', message: 'a JSON body is required' }]);
      (request.event as { parsedBody?: unknown }).parsedBody = undefined;
      return;
    }
    const type = event.headers?.['content-type'] ?? '';
    if (!isJsonContentType(type)) throw unsupportedMediaType(type);
    const charset = CHARSET.exec(type)?.[1];
    if (charset && !/^utf-?8$/i.test(charset)) throw unsupportedMediaType(type, 'JSON is read as UTF-8 only');
    (request.event as { parsedBody?: unknown }).parsedBody = parseJsonBody(bytes.toString('utf8'));
  },
});
