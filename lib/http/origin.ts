// The contract's cross-origin rules: no Origin is fine (curl, TV apps); private LAN origins
// on any port are allowed; loopback origins only in development; anything else gets 403,
// preflight included, so a public web page cannot drive a box on the visitor's LAN.
// Allowed origins get their CORS headers from @middy/http-cors.
//
// Same-origin requests pass in every mode: a browser sends Origin with a same-origin POST, so
// the web client served by the box at http://localhost:3000 must not be refused there. Same
// origin means the Origin names the very address the request was sent to (its Host), and that
// address is one the box really answers on: a loopback or private LAN address, or one of its
// own host names (ALLOWED_HOSTS, the machine's name). A DNS-rebinding page has Origin and Host
// both evil.example, which is none of those, and is still refused.
import httpCors from '@middy/http-cors';
import type { Mode } from '../config';
import { originNotAllowed } from '../errors';
import type { HttpMiddleware, HttpRequest } from './context';

const PRIVATE_V4 = [/^10\.\d{1,3}\.\d{1,3}\.\d{1,3}$/, /^192\.168\.\d{1,3}\.\d{1,3}$/, /^172\.(1[6-9]|2\d|3[01])\.\d{1,3}\.\d{1,3}$/];
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

const validOctets = (host: string) => host.split('.').every((part) => Number(part) <= 255);

const isPrivateAddress = (host: string) => PRIVATE_V4.some((re) => re.test(host)) && validOctets(host);

/** The origin a browser would send, parsed; undefined for anything that is not exactly scheme://host[:port]. */
const parseOrigin = (origin: string): URL | undefined => {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  return ['http:', 'https:'].includes(url.protocol) && url.origin === origin ? url : undefined;
};

export const isOriginAllowed = (origin: string | undefined, mode: Mode): boolean => {
  if (origin === undefined) return true;
  // An origin is exactly scheme://host[:port]; anything more is not a browser's origin.
  const url = parseOrigin(origin);
  if (!url) return false;
  const host = url.hostname;
  if (LOOPBACK_HOSTS.has(host)) return mode === 'development';
  return isPrivateAddress(host);
};

/**
 * Whether `origin` is the address the request was sent to (`host`, the Host header as the
 * browser wrote it) and that address is the box's own: loopback, private LAN, or one of
 * `boxHosts` (lower-case names, no port).
 */
export const isSameOrigin = (origin: string | undefined, host: string | undefined, boxHosts: readonly string[]): boolean => {
  if (origin === undefined || !host) return false;
  const url = parseOrigin(origin);
  if (!url || url.host !== host.toLowerCase()) return false;
  const name = url.hostname;
  return LOOPBACK_HOSTS.has(name) || isPrivateAddress(name) || boxHosts.includes(name);
};

export interface OriginPolicy {
  mode: Mode;
  /** The box's own host names besides its addresses (ALLOWED_HOSTS, the machine's name). */
  boxHosts: readonly string[];
}

/** The contract's cross-origin rules, or a same-origin request to one of the box's own addresses. */
export const originAccepted = (headers: Record<string, string | undefined> | null | undefined, policy: OriginPolicy): boolean => {
  const origin = headers?.origin ?? headers?.Origin;
  const host = headers?.['x-forwarded-host'] ?? headers?.host ?? headers?.Host;
  return isOriginAllowed(origin, policy.mode) || isSameOrigin(origin, host, policy.boxHosts);
};

export const originGuard = (policy: OriginPolicy): HttpMiddleware => ({
  before: async (request: HttpRequest) => {
    if (!originAccepted(request.event.headers, policy)) throw originNotAllowed(request.event.headers?.origin ?? '');
  },
});

export const ALLOWED_REQUEST_HEADERS = ['Content-Type', 'Range', 'If-Range', 'If-None-Match', 'If-Modified-Since', 'X-Request-Id'];
export const EXPOSED_HEADERS = [
  'X-Request-Id',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'Content-Range',
  'Accept-Ranges',
  'Content-Length',
  'ETag',
  'Location',
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
