// The contract's cross-origin rules: no Origin is fine (curl, TV apps); private LAN origins
// on any port are allowed; loopback origins only in development; anything else gets 403,
// preflight included, so a public web page cannot drive a box on the visitor's LAN.
// Allowed origins get their CORS headers from @middy/http-cors.
import httpCors from '@middy/http-cors';
import type { Mode } from '../config';
import { originNotAllowed } from '../errors';
import type { HttpMiddleware, HttpRequest } from './context';

const PRIVATE_V4 = [
  /^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/,
  /^192\.168\.\d{1,3}\.\d{1,3}$/,
  /^172\.(1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3}$/,
];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const validOctets = (host: string) => host.split('.').every((part) => Number(part) <= 255);

export const isOriginAllowed = (origin: string | undefined, mode: Mode): boolean => {
  if (origin === undefined) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  // An origin is exactly scheme://host[:port]; anything more is not a browser's origin.
  if (!['http:', 'https:'].includes(url.protocol) || url.origin !== origin) return false;
  const host = url.hostname;
  if (LOOPBACK_HOSTS.has(host)) return mode === 'development';
  return PRIVATE_V4.some((re) => re.test(host)) && validOctets(host);
};

const originOf = (request: HttpRequest) => request.event.headers?.origin;

export const originGuard = (mode: Mode): HttpMiddleware => ({
  before: async (request) => {
    const origin = originOf(request);
    if (!isOriginAllowed(origin, mode)) throw originNotAllowed(origin ?? '');
  },
});

export const ALLOWED_REQUEST_HEADERS = ['Content-Type', 'Range', 'If-Range', 'If-None-Match', 'If-Modified-Since', 'X-Request-Id'];
export const EXPOSED_HEADERS = [
  'X-Request-Id', 'RateLimit', 'RateLimit-Policy', 'Retry-After', 'Content-Range', 'Accept-Ranges', 'Content-Length', 'ETag', 'Location',
];

export const corsHeaders = (mode: Mode): HttpMiddleware =>
  httpCors({
    // http-cors adds no Access-Control-Allow-Origin when this returns null.
    getOrigin: ((incoming: string | undefined) => (incoming && isOriginAllowed(incoming, mode) ? incoming : null)) as never,
    headers: ALLOWED_REQUEST_HEADERS.join(', '),
    methods: 'GET, HEAD, POST, PATCH, DELETE, OPTIONS',
    exposeHeaders: EXPOSED_HEADERS.join(', '),
    maxAge: 600,
    // The answer depends on the Origin, so caches must key on it (the option is untyped).
    ...({ vary: 'Origin' } as object),
  }) as HttpMiddleware;
