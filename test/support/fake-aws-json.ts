// The AWS JSON 1.1 protocol, served over real HTTP on 127.0.0.1 for the fakes of AWS services
// that have no local server (CloudWatch Logs, SSM): `POST /` with
// `X-Amz-Target: <prefix><Operation>`, content type application/x-amz-json-1.1, a SigV4
// Authorization header (an unsigned request is refused, as there), and errors as
// `{"__type","message"}` with their status. The real SDK clients talk to it.
import { randomUUID } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { asyncListener } from './async-listener';

const JSON_1_1 = 'application/x-amz-json-1.1';

/** An error the service answers with: its status, its `__type` and its message. */
export class ServiceError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
  ) {
    super(message);
  }
}

export interface JsonService {
  url: string;
  close(): Promise<void>;
}

const send = (res: ServerResponse, status: number, body: unknown) => {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_1_1, 'content-length': Buffer.byteLength(text), 'x-amzn-requestid': randomUUID() });
  res.end(text);
};

/** Serves `answer(operation, input)` for each request whose target starts with `targetPrefix`. */
export const serveAwsJson = async (
  targetPrefix: string,
  answer: (operation: string, input: Record<string, unknown>) => unknown,
): Promise<JsonService> => {
  const server = createServer(
    asyncListener('fake service', async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const target = String(req.headers['x-amz-target'] ?? '');
      try {
        if (req.method !== 'POST' || req.url !== '/')
          throw new ServiceError(404, 'UnknownOperationException', `No route ${req.method} ${req.url}`);
        if (!/^AWS4-HMAC-SHA256 Credential=/.test(req.headers.authorization ?? ''))
          throw new ServiceError(400, 'MissingAuthenticationTokenException', 'Missing Authentication Token');
        if (!String(req.headers['content-type'] ?? '').startsWith(JSON_1_1))
          throw new ServiceError(400, 'SerializationException', `Expected ${JSON_1_1}`);
        if (!target.startsWith(targetPrefix))
          throw new ServiceError(400, 'UnknownOperationException', `Unknown target ${target || '(none)'}`);
        let input: unknown;
        try {
          input = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
        } catch {
          throw new ServiceError(400, 'SerializationException', 'The body is not JSON');
        }
        if (typeof input !== 'object' || input === null || Array.isArray(input))
          throw new ServiceError(400, 'SerializationException', 'The body is not a JSON object');
        send(res, 200, answer(target.slice(targetPrefix.length), input as Record<string, unknown>));
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        send(res, err.status, { __type: err.type, message: err.message });
      }
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
};
