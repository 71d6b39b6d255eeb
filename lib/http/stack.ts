// The one middleware stack every handler of the API stands on, and the only place that orders
// it (the Jellyfin door's functions stand on lib/http/door.ts, which begins as this one does).
// before: request context -> origin guard -> CORS -> rate limit -> JSON body; then the
// operation's schemas validate params, query and body around the handler. onError runs in
// reverse, so problemDetails() renders first and the others decorate its response.
import middy from '@middy/core';
import type { Static, TSchema } from '@sinclair/typebox';
import { config } from '../config';
import { db } from '../db/client';
import type { OperationDef } from '../api/operations';
import type { AppContext, Event, Result } from './context';
import { requestContext } from './request-context';
import { corsHeaders, originGuard } from './origin';
import { rateLimit } from './rate-limit';
import { dynamoHitCounter } from './rate-limit-store';
import { jsonBody } from './json-body';
import { check } from './validate';
import { problemDetails } from './problem-details';
import { toResult, type Reply } from './reply';

type Of<S> = S extends TSchema ? Static<S> : undefined;

export interface ParsedRequest<O extends OperationDef> {
  params: Of<O['params']>;
  query: Of<O['query']>;
  body: Of<O['body']>;
  event: Event;
  /** scheme://host[:port] the client used, for absolute URLs in replies. */
  origin: string;
}

export type AppHandler<O extends OperationDef> = (req: ParsedRequest<O>, ctx: AppContext) => Promise<Reply>;

/** Where the handlers count requests when the table counts (RATE_LIMIT_AT=table); the door's stack counts there too. */
export const hitCounter = dynamoHitCounter(db);

/** scheme://host[:port] the client used (as the gateway forwards it), for absolute URLs in replies. */
export const publicOrigin = (event: Event) => {
  const h = event.headers ?? {};
  const proto = h['x-forwarded-proto'] ?? 'http';
  return `${proto}://${h['x-forwarded-host'] ?? h.host ?? 'localhost'}`;
};

interface StackOptions {
  counted: boolean;
  body: boolean;
  bodyRequired: boolean;
}

const stack = (opts: StackOptions) => [
  requestContext(),
  originGuard(config.http),
  corsHeaders(config.mode),
  // Counted at the edge (the local front door), the handlers count nothing themselves.
  rateLimit(config.rateLimit, opts.counted && config.rateLimit.at === 'table', hitCounter),
  jsonBody(opts.body, opts.bodyRequired),
  problemDetails(),
];

/** The stack around a handler that works on the raw event (the catch-all route). */
export const rawHttp = (fn: (event: Event, ctx: AppContext) => Promise<Result>) =>
  middy<Event, Result, Error, AppContext>(fn).use(stack({ counted: false, body: false, bodyRequired: false }));

const parse = (op: OperationDef, event: Event) => {
  const parsed = {
    params: op.params ? check('params', op.params, { ...event.pathParameters }) : undefined,
    query: op.query ? check('query', op.query, { ...event.queryStringParameters }) : undefined,
    body: op.body ? (event as { parsedBody?: unknown }).parsedBody : undefined,
    event,
    origin: publicOrigin(event),
  };
  if (op.body && parsed.body !== undefined) check('body', op.body, parsed.body);
  return parsed as unknown;
};

/** The stack around one operation: its parameters, query and body validated and typed. */
export const http = <O extends OperationDef>(op: O, fn: AppHandler<O>) => {
  const inner = async (event: Event, ctx: AppContext): Promise<Result> => toResult(await fn(parse(op, event) as ParsedRequest<O>, ctx));
  return middy<Event, Result, Error, AppContext>(inner).use(
    stack({ counted: op.counted, body: Boolean(op.body), bodyRequired: Boolean(op.bodyRequired) }),
  );
};
