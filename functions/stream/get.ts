// The stream domain: a movie's or episode's bytes, with ranges. The handler is the authority:
// it resolves the id, and lib/stream decides the answer and how its bytes leave (a presigned
// redirect, the internal redirect to the gateway in front, or in the response).
import { operations } from '../../lib/api/operations';
import { config } from '../../lib/config';
import { services } from '../../lib/deps';
import { http, type ParsedRequest } from '../../lib/http/stack';
import { raw } from '../../lib/http/reply';
import { deliverStream, streamRequestOf } from '../../lib/stream/deliver';
import { resolveStream } from '../../lib/stream/resolve';

const serve = async (
  method: 'GET' | 'HEAD',
  req: ParsedRequest<typeof operations.stream> | ParsedRequest<typeof operations.streamHead>,
) => {
  const found = await resolveStream(services, req.params.mediaId, req.query.part ?? 1);
  const reply = await deliverStream(services.storage, found, streamRequestOf(method, req.event.headers ?? {}), config.stream);
  return raw(reply.status, reply.body, reply.headers);
};

export const handler = http(operations.stream, (req) => serve('GET', req));
export const head = http(operations.streamHead, (req) => serve('HEAD', req));
