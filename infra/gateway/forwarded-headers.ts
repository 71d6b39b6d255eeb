// Forwarding headers are the gateway's to set, as API Gateway sets the source IP: a client's
// own X-Forwarded-* never passes, and the handlers trust X-Forwarded-For on loopback only.
// Nor does Accept-Encoding: API Gateway's HTTP API does not compress what a function returns,
// and offline (hapi) gzipping every answer took 6-9% of its CPU serving searches on this
// 2-core box (docs/benchmarks.md, household), for bytes a home network carries in a millisecond.
import type { IncomingMessage } from 'node:http';

export const setForwarded = (req: IncomingMessage) => {
  for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-')) delete req.headers[name];
  delete req.headers['accept-encoding'];
  req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
  req.headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) req.headers['x-forwarded-host'] = req.headers.host;
};
