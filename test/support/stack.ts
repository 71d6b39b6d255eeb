// The shared stack started by test/run.ts, and small helpers for talking to it.
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';

const need = (key: string) => {
  const v = process.env[key];
  if (!v) throw new Error(`${key} is not set: run the tests through \`npm test\``);
  return v;
};

export const stack = {
  get url() {
    return need('MLS_TEST_URL');
  },
  get ws() {
    return need('MLS_TEST_WS');
  },
  get dataDir() {
    return need('MLS_TEST_DATA_DIR');
  },
  /** The Jellyfin door's port of the same stack. */
  get jellyfin() {
    return need('MLS_TEST_JELLYFIN_URL');
  },
};

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: any;
}

/**
 * One HTTP request with node:http (fetch hides some headers and forbids others, like Origin).
 * `from` picks the loopback source address, so tests get their own rate-limit bucket.
 */
export const call = (
  method: string,
  path: string,
  opts: { headers?: OutgoingHttpHeaders; body?: string | Buffer; base?: string; from?: string; timeoutMs?: number } = {},
): Promise<Reply> =>
  new Promise((resolve, reject) => {
    const url = new URL(path, opts.base ?? stack.url);
    const req = httpRequest(
      url,
      { method, headers: opts.headers, ...(opts.from ? { localAddress: opts.from } : {}), agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    req.on('error', reject);
    req.setTimeout(opts.timeoutMs ?? 30_000, () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.end(opts.body);
  });

export const jsonBody = (value: unknown) => ({
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(value),
});
