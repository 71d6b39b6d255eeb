// An async request listener for the fakes' HTTP servers. Node does not look at the promise a
// listener returns, so a failure would be an unhandled rejection and a request left hanging:
// here it is answered 500 with the error, which the test that caused it then sees.
import type { IncomingMessage, ServerResponse } from 'node:http';

export const asyncListener =
  (name: string, listener: (req: IncomingMessage, res: ServerResponse) => Promise<unknown>) =>
  (req: IncomingMessage, res: ServerResponse) => {
    listener(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`${name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    });
  };
