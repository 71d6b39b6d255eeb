// Forwarding headers are the gateway's to set, as API Gateway sets the source IP: a client's
// own X-Forwarded-* never passes, and the handlers trust X-Forwarded-For on loopback only.
import type { IncomingMessage } from 'node:http';

export const setForwarded = (req: IncomingMessage) => {
  for (const name of Object.keys(req.headers)) if (name.startsWith('x-forwarded-')) delete req.headers[name];
  req.headers['x-forwarded-for'] = req.socket.remoteAddress ?? 'unknown';
  req.headers['x-forwarded-proto'] = 'http';
  if (req.headers.host) req.headers['x-forwarded-host'] = req.headers.host;
};
