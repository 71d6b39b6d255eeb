// The web client's files, sent by the front door: index.html at each of the client's own
// addresses (no-cache: it names the current build's files), and /assets/<hashed name> for a
// year (immutable: a new build has new names), gzip-compressed where the client takes it.
// Read from web/dist, which `npm run build:web` writes (also at install).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { dependencyUnavailable, notFound } from '../../lib/errors';
import { isClientRoute } from '../../web/src/routes';
import { sendProblem } from './problems';

/** Where the build writes the client and the front door reads it. */
export const webDistOf = (projectDir: string) => join(projectDir, 'web', 'dist');

export type WebFile = { kind: 'page' } | { kind: 'asset'; name: string };

const ASSET = /^\/assets\/([\w-]+\.(?:js|css))$/;
const TYPES: Record<string, string> = {
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

// Everything the page loads comes from the box itself; style attributes carry the gradients;
// hls.js plays conversions from a blob: MediaSource, transmuxing in a blob: worker.
const PAGE_HEADERS = {
  'Cache-Control': 'no-cache',
  'Content-Security-Policy':
    "default-src 'self'; img-src 'self' data:; media-src 'self' blob:; worker-src 'self' blob:; connect-src 'self'; style-src 'self' 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
};

/** What a GET or HEAD of `path` asks of the web client, if anything. */
export const webFileOf = (method: string, path: string): WebFile | undefined => {
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (isClientRoute(path)) return { kind: 'page' };
  const asset = ASSET.exec(path);
  return asset ? { kind: 'asset', name: asset[1]! } : undefined;
};

/** Sends the file; false when it is not there (an old build's asset, or no build at all). */
export const sendWebFile = async (distDir: string, file: WebFile, req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
  const relative = file.kind === 'page' ? 'index.html' : join('assets', file.name);
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
  const read = (name: string) => readFile(join(distDir, name)).catch(() => undefined);
  const compressed = gzip ? await read(`${relative}.gz`) : undefined;
  const body = compressed ?? (await read(relative));
  if (!body) return false;
  const extension = relative.slice(relative.lastIndexOf('.') + 1);
  res.writeHead(200, {
    'Content-Type': TYPES[extension]!,
    'Content-Length': body.length,
    Vary: 'Accept-Encoding',
    ...(compressed ? { 'Content-Encoding': 'gzip' } : {}),
    ...(file.kind === 'page'
      ? PAGE_HEADERS
      : { 'Cache-Control': 'public, max-age=31536000, immutable', 'X-Content-Type-Options': 'nosniff' }),
  });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
};

/**
 * Answers a request for the web client's files from `distDir`: false when the path is none of
 * its own (the request goes on to the API); a file that is not there is a problem.
 */
export const serveWebClient = async (distDir: string, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
  const file = webFileOf(req.method ?? 'GET', path);
  if (!file) return false;
  if (await sendWebFile(distDir, file, req, res)) return true;
  sendProblem(
    req,
    res,
    file.kind === 'page' ? dependencyUnavailable('web client (not built: run npm run build:web)') : notFound(`The asset ${path}`),
  );
  return true;
};
