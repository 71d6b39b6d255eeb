// A browser loading a wall of posters over HTTP/1.1 with an empty cache: every <img> asked for
// at once, at most six connections per origin (what Chrome and Firefox open per host), a
// redirect followed on the origin it leads to (its own six connections), and the Accept header
// a browser sends for images. Fresh connections for each wall, as for a new visitor.
import { Agent, request } from 'node:http';

export const BROWSER_IMAGE_ACCEPT = 'image/avif,image/webp,*/*';
const CONNECTIONS_PER_ORIGIN = 6;
const MAX_REDIRECTS = 5;

export interface Hop {
  origin: string;
  status: number;
  /** Body bytes of this answer. */
  bytes: number;
}

export interface ImageLoad {
  /** From the image's first request getting a connection to its last byte, redirects and their queue included. */
  ms: number;
  hops: Hop[];
  /** The last answer's Content-Type and first bytes (its signature). */
  contentType: string;
  head: Buffer;
}

export interface WallLoad {
  /** From the first request to the last byte of the last image. */
  totalMs: number;
  images: ImageLoad[];
}

interface Answer extends Hop {
  location?: string;
  contentType: string;
  head: Buffer;
  /** When the request got its connection (performance.now()). */
  connectedAt: number;
}

const getOnce = (agent: Agent, url: URL) =>
  new Promise<Answer>((resolve, reject) => {
    let connectedAt = 0;
    const req = request(url, { agent, headers: { Accept: BROWSER_IMAGE_ACCEPT } }, (res) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (chunks.length < 1) chunks.push(chunk.subarray(0, 16));
      });
      res.on('end', () =>
        resolve({
          origin: url.origin,
          status: res.statusCode ?? 0,
          bytes,
          location: res.headers.location,
          contentType: String(res.headers['content-type'] ?? ''),
          head: Buffer.concat(chunks),
          connectedAt,
        }),
      );
      res.on('error', reject);
    });
    req.once('socket', () => (connectedAt = performance.now()));
    req.on('error', reject);
    req.setTimeout(60_000, () => req.destroy(new Error(`GET ${url.href} timed out`)));
    req.end();
  });

const loadImage = async (agent: Agent, url: string): Promise<ImageLoad> => {
  let target = new URL(url);
  const hops: Answer[] = [];
  for (;;) {
    const answer = await getOnce(agent, target);
    hops.push(answer);
    if (answer.status < 300 || answer.status >= 400 || !answer.location) break;
    if (hops.length > MAX_REDIRECTS) throw new Error(`${url}: more than ${MAX_REDIRECTS} redirects`);
    target = new URL(answer.location, target);
  }
  const last = hops[hops.length - 1]!;
  return {
    ms: performance.now() - hops[0]!.connectedAt,
    hops: hops.map(({ origin, status, bytes }) => ({ origin, status, bytes })),
    contentType: last.contentType,
    head: last.head,
  };
};

export const loadWall = async (urls: readonly string[]): Promise<WallLoad> => {
  // Node's agent limits sockets per host and port and queues the rest: a browser's per-origin pool.
  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS_PER_ORIGIN });
  const started = performance.now();
  try {
    const images = await Promise.all(urls.map((url) => loadImage(agent, url)));
    return { totalMs: performance.now() - started, images };
  } finally {
    agent.destroy();
  }
};
