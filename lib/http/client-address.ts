// The caller's address. API Gateway puts the real source in requestContext; locally every
// request arrives from the front door on loopback, which replaces X-Forwarded-For with the
// socket's address (it never passes a client's own header on), so only then is it trusted.
import type { APIGatewayProxyEventV2 } from 'aws-lambda';

const LOOPBACK = /^(127\.|::1$|::ffff:127\.)/;

export const clientAddress = (event: APIGatewayProxyEventV2): string => {
  const source = event.requestContext?.http?.sourceIp ?? 'unknown';
  if (!LOOPBACK.test(source)) return source;
  const forwarded = event.headers?.['x-forwarded-for'];
  if (!forwarded) return source;
  return forwarded.split(',').at(-1)!.trim() || source;
};
