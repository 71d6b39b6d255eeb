// An owner's build of Jellyfin's web client (JELLYFIN_WEB_DIR), served on the door's port at
// /web as a Jellyfin server serves it: the apps that load it from the server (Jellyfin for
// Android, Jellyfin Media Player, the LG and Samsung apps) and a browser find it there, and `/`
// leads to it. Nothing of it is shipped with the project (it is GPL); files only, from inside
// the folder.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, resolve } from 'node:path';
import { isInside } from '../../lib/util/paths';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const redirect = (res: ServerResponse, to: string) => {
  res.writeHead(302, { Location: to, 'Cache-Control': 'no-store' });
  res.end();
};

/** Answers `/` and `/web/...` from `webDir` (`path` as sent, its trailing slash kept); false for any other path (or a file not there, which the door then answers 404). */
export const serveJellyfinWeb = async (webDir: string, req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
  const method = req.method ?? 'GET';
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (path === '/') {
    redirect(res, '/web/');
    return true;
  }
  const lower = path.toLowerCase();
  if (lower === '/web') {
    redirect(res, '/web/');
    return true;
  }
  if (!lower.startsWith('/web/')) return false;
  let relative: string;
  try {
    relative = decodeURIComponent(path.slice('/web/'.length)) || 'index.html';
  } catch {
    return false;
  }
  const root = await realpath(webDir).catch(() => undefined);
  if (!root) return false;
  const wanted = resolve(join(root, relative));
  const file = await realpath(wanted).catch(() => undefined);
  if (!file || !isInside(root, file)) return false;
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return false;
  const type = TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    'Content-Type': type,
    'Content-Length': info.size,
    // index.html names the current build's bundles; the bundles' names change with each build.
    'Cache-Control': type.startsWith('text/html') || file.endsWith('config.json') ? 'no-cache' : 'public, max-age=86400',
    'X-Content-Type-Options': 'nosniff',
  });
  if (method === 'HEAD') {
    res.end();
    return true;
  }
  createReadStream(file)
    .on('error', () => res.destroy())
    .pipe(res);
  return true;
};
