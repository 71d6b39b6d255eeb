// Parses JSON bodies for operations that take one: over the size limit 413, not JSON 415,
// malformed 400. The size check counts decoded bytes, as a client would.
import { bodyTooLarge, invalidRequest, malformedJson, unsupportedMediaType } from '../errors';
import type { HttpMiddleware } from './context';

export const MAX_BODY_BYTES = 1024 * 1024;
const JSON_TYPE = /^application\/([a-z0-9.+-]+\+)?json\s*(;|$)/i;

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
    if (!JSON_TYPE.test(type)) throw unsupportedMediaType(type);
    try {
      (request.event as { parsedBody?: unknown }).parsedBody = JSON.parse(bytes.toString('utf8'));
    } catch {
      throw malformedJson();
    }
  },
});
