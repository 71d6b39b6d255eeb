// The cache key of a JSON GET: path and query, sorted, without credentials. The language is
// part of the query, so another language is another entry, while another key (or a renewed
// one) finds the same entries. `variant` names what else the cached shape depends on (the
// certification region).
import { ascending } from '../../util/order';

/** Bump when the cached shapes change, so old entries are simply never read again (2: a movie's collection). */
const SHAPE_VERSION = 2;

const CREDENTIAL_PARAMS = new Set(['api_key', 'access_token']);

export function cacheKey(path: string, query: Record<string, string>, variant = ''): string {
  const params = Object.entries(query)
    .filter(([name]) => !CREDENTIAL_PARAMS.has(name))
    .sort(([a], [b]) => ascending(a, b));
  const search = new URLSearchParams(params).toString();
  return `tmdb:v${SHAPE_VERSION}${variant ? `:${variant}` : ''}:${path}${search ? `?${search}` : ''}`;
}
