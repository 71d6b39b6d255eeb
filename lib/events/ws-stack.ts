// The WebSocket route handlers' small stack: a logger bound to the connection, and errors
// logged and answered 500 (API Gateway then refuses the connection or drops the frame)
// without leaking anything to the client.
import middy, { type MiddlewareObj } from '@middy/core';
import type { APIGatewayProxyResultV2, APIGatewayProxyWebsocketEventV2, Context } from 'aws-lambda';
import { rootLogger, type Log } from '../log';

export type WsEvent = APIGatewayProxyWebsocketEventV2 & {
  headers?: Record<string, string | undefined>;
  /** $connect's query (the Jellyfin door's socket carries its token there). */
  queryStringParameters?: Record<string, string | undefined>;
};
export interface WsContext extends Context {
  log: Log;
}
type WsResult = { statusCode: number; body?: string };

// Typed here: middy's use() takes any middleware object, so an inline one would see `any`.
const connectionStack: MiddlewareObj<WsEvent, APIGatewayProxyResultV2, Error, WsContext> = {
  before: async ({ event, context }) => {
    context.log = rootLogger.child({ connectionId: event.requestContext.connectionId, route: event.requestContext.routeKey });
  },
  onError: async (request) => {
    request.context.log?.error({ err: request.error }, 'websocket handler failed');
    request.response = { statusCode: 500 };
  },
};

export const ws = (fn: (event: WsEvent, ctx: WsContext) => Promise<WsResult>) =>
  middy<WsEvent, APIGatewayProxyResultV2, Error, WsContext>(fn).use(connectionStack);
