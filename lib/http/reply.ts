// What handlers return. The stack turns a Reply into the Lambda response, so handlers never
// build status lines, JSON envelopes or content types themselves.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

export interface JsonReply {
  kind: 'json';
  status: number;
  data?: unknown;
  meta?: { total: number; nextCursor: string | null };
  headers?: Record<string, string>;
}
export interface RawReply {
  kind: 'raw';
  status: number;
  body: string;
  isBase64Encoded?: boolean;
  headers: Record<string, string>;
}
export type Reply = JsonReply | RawReply;

export const ok = (data: unknown, meta?: JsonReply['meta']): JsonReply => ({ kind: 'json', status: 200, data, ...(meta ? { meta } : {}) });
export const created = (data: unknown): JsonReply => ({ kind: 'json', status: 201, data });
export const accepted = (data: unknown): JsonReply => ({ kind: 'json', status: 202, data });
export const noContent = (): JsonReply => ({ kind: 'json', status: 204 });
/** A JSON envelope with a status of the handler's choosing (health answers 503 with a body). */
export const json = (status: number, data: unknown, headers?: Record<string, string>): JsonReply => ({
  kind: 'json',
  status,
  data,
  ...(headers ? { headers } : {}),
});
export const raw = (status: number, body: string | Buffer, headers: Record<string, string>): RawReply =>
  typeof body === 'string'
    ? { kind: 'raw', status, body, headers }
    : { kind: 'raw', status, body: body.toString('base64'), isBase64Encoded: true, headers };

export const toResult = (reply: Reply): APIGatewayProxyStructuredResultV2 => {
  if (reply.kind === 'raw') {
    return { statusCode: reply.status, headers: reply.headers, body: reply.body, isBase64Encoded: reply.isBase64Encoded ?? false };
  }
  if (reply.status === 204) return { statusCode: 204, headers: { ...reply.headers } };
  const envelope = reply.meta ? { data: reply.data, meta: reply.meta } : { data: reply.data };
  return {
    statusCode: reply.status,
    headers: { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...reply.headers },
    body: JSON.stringify(envelope),
  };
};
