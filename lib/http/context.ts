// The per-invocation context the stack hands to handlers, beside Lambda's own.
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import type { MiddlewareObj, Request } from '@middy/core';
import type { Log } from '../log';

export interface AppContext extends Context {
  requestId: string;
  log: Log;
  startedAt: number;
  clientAddress: string;
}

export type Event = APIGatewayProxyEventV2;
export type Result = APIGatewayProxyStructuredResultV2;
export type HttpMiddleware = MiddlewareObj<Event, Result, Error, AppContext>;
export type HttpRequest = Request<Event, Result, Error, AppContext>;

export const methodOf = (event: Event) => event.requestContext?.http?.method?.toUpperCase() ?? 'GET';
export const pathOf = (event: Event) => event.rawPath ?? event.requestContext?.http?.path ?? '/';

/** Sets a response header whatever the case of an existing one. */
export const setHeader = (result: Result, name: string, value: string) => {
  const headers = (result.headers ??= {});
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name.toLowerCase()) delete headers[key];
  headers[name] = value;
};
