// The Middy stack of the Jellyfin door's functions (one per area, functions/jellyfin/): the
// request context, the origin guard and CORS as everywhere; then the door's own rules: the
// route found again from the path (case-insensitive, prefixes dropped), the caller and its
// token read in every form the apps send (401 where a token is needed and missing or unknown),
// a JSON body read leniently (not JSON: 400), and the answer written without nulls. Failures
// answer with Jellyfin's status codes and a short text, not problem+json: the apps read the status.
import middy from '@middy/core';
import { AppError } from '../errors';
import { callerOf } from '../jellyfin/auth';
import { DoorError, type DoorHandler, type DoorReply, type DoorRequest } from '../jellyfin/door';
import { matchDoorRoute, type DoorArea } from '../jellyfin/routes';
import type { DoorStore } from '../jellyfin/store';
import { DoorQuery, withoutNulls } from '../jellyfin/wire';
import { methodOf, type AppContext, type Event, type HttpMiddleware, type Result } from './context';
import { corsHeaders, originGuard } from './origin';
import { requestContext } from './request-context';
import { config } from '../config';
import { countHit, rateLimitHeaders } from './rate-limit';
import { hitCounter, publicOrigin } from './stack';

/** The front door sends a request of the door to `/jellyfin/<area>/<its path>`. */
export const DOOR_PREFIX = '/jellyfin';

const bodyOf = (event: Event): unknown => {
  if (!event.body) return undefined;
  const text = event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
  if (!text.trim()) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    const type = event.headers?.['content-type'] ?? '';
    // Some apps post an empty form or nothing useful with another type: only JSON that is not JSON is refused.
    if (/json/iu.test(type) || /^\s*[[{]/u.test(text)) throw new DoorError(400, 'The body is not valid JSON');
    return undefined;
  }
};

const toResult = (reply: DoorReply, method: string): Result => {
  const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...reply.headers };
  if (reply.json !== undefined) {
    return {
      statusCode: reply.status,
      headers: { 'Content-Type': 'application/json; charset=utf-8', ...headers },
      body: method === 'HEAD' ? '' : JSON.stringify(withoutNulls(reply.json)),
    };
  }
  if (Buffer.isBuffer(reply.body)) {
    return { statusCode: reply.status, headers, body: method === 'HEAD' ? '' : reply.body.toString('base64'), isBase64Encoded: true };
  }
  return { statusCode: reply.status, headers, body: method === 'HEAD' ? '' : (reply.body ?? '') };
};

const statusOf = (err: unknown): number => {
  if (err instanceof DoorError) return err.status;
  // A range past a file's end stays a 416: players read it as HTTP says.
  if (err instanceof AppError) return err.status >= 500 || err.status === 404 || err.status === 416 ? err.status : 400;
  return 500;
};

/** Last in the stack: a failure becomes Jellyfin's status with a short text. */
const doorErrors = (): HttpMiddleware => ({
  onError: async (request) => {
    const err = request.error;
    const status = statusOf(err);
    if (status >= 500 && !(err instanceof AppError)) request.context.log?.error({ err }, 'door request failed');
    // Our own errors say what happened in words fit for a person (a busy box, a disk away); only unforeseen failures are hidden.
    const text = status >= 500 && !(err instanceof AppError) ? 'The server could not answer' : (err?.message ?? 'Refused');
    const retry = (err as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
    request.response = {
      statusCode: status,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', ...(typeof retry === 'number' ? { 'Retry-After': String(retry) } : {}) },
      body: text,
    };
  },
});

/** One area's function: the route's handler among `handlers`, behind the door's rules. */
export const doorHttp = (area: DoorArea, store: () => DoorStore, handlers: Record<string, DoorHandler>) => {
  const inner = async (event: Event, ctx: AppContext): Promise<Result> => {
    const method = methodOf(event);
    const rawPath = (event.rawPath ?? '/').replace(new RegExp(`^${DOOR_PREFIX}/${area}(?=/|$)`, 'u'), '');
    const match = matchDoorRoute(method, rawPath);
    if (match.kind === 'none' || (match.kind === 'found' && match.route.area !== area)) throw new DoorError(404, 'No such route');
    if (match.kind === 'wrong-method') throw new DoorError(405, `Allowed: ${match.allowed.join(', ')}`);
    const handler = handlers[match.route.name];
    if (!handler) throw new Error(`The door's ${area} function has no handler for ${match.route.name}`);
    const headers: Record<string, string | undefined> = {};
    for (const [key, value] of Object.entries(event.headers ?? {})) headers[key.toLowerCase()] = value;
    const query = new DoorQuery(event.queryStringParameters);
    const caller = callerOf(headers, query.map);
    const session = caller.token ? await store().session(caller.token) : undefined;
    // Where the table counts (instances sharing a database), a request without a valid token
    // counts here; at the edge the door's port counts it (infra/gateway/jellyfin-door.ts).
    // Playing is never counted: a video's bytes, playlists and subtitles come without a token.
    if (!session && config.rateLimit.at === 'table' && area !== 'playback') {
      const state = await countHit(config.rateLimit, ctx.clientAddress, hitCounter);
      if (state.limited) {
        return {
          statusCode: 429,
          headers: { 'Retry-After': String(state.resetSeconds), ...rateLimitHeaders(config.rateLimit, state) },
          body: 'Too many requests',
        };
      }
    }
    if (!match.route.anonymous && !session) throw new DoorError(401, caller.token ? 'The token is not valid' : 'A token is required');
    const req: DoorRequest = {
      method,
      path: match.path,
      route: match.route,
      params: match.params,
      query,
      body: bodyOf(event),
      headers,
      caller,
      session,
      origin: publicOrigin(event),
    };
    return toResult(await handler(req), method);
  };
  return middy<Event, Result, Error, AppContext>(inner)
    .use(requestContext())
    .use(originGuard(config.http))
    .use(corsHeaders(config.mode))
    .use(doorErrors());
};
