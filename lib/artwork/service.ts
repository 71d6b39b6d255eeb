// GET /api/v1/artwork/{mediaId}/{kind}: an item's stored poster, backdrop or still, at a
// snapped width and in the format the client's Accept asks for. A variant is rendered once
// from the stored source and stored, so every later request for it is one store read.
//
// Decisions:
// - Which kinds an item has: movies and shows have posters and backdrops, episodes stills.
//   Anything else, or a kind the item has no artwork for, is 404 (an unknown kind is already
//   400 from the route's schema).
// - Validators: the ETag is strong, `"<etag>-<variantKey>"`: the source's content hash and the
//   variant's name (kind, width, format, render version) name the bytes exactly. If-None-Match
//   is answered before any byte is read, so a revalidation costs one catalogue read.
// - Caching: a URL carrying `v=<current etag>` (the catalogue hands those out) names bytes that
//   never change: a year and `immutable`. Without it, or with an older `v`, a day: the bytes
//   behind a bare URL change when the artwork does. `Vary: Accept` because the format follows
//   Accept, and `Origin` because the CORS headers follow it.
// - A source missing from the store (the cache folder was deleted) is 404 with a detail
//   saying so, never a 500: a rescan stores it again. A variant rendered before stays
//   servable (it is exactly what its ETag names).
// - A width at least as wide as the source is served as the original size: the same bytes
//   would otherwise be rendered and stored once per snapped width.
// - A source that fails to render (ImageError) is 500 'internal', logged at error with the
//   reason. Not 422: the client sent nothing wrong, and the source was checked when it was
//   stored, so this is the server's own broken state (a damaged file, a decoder that ran out
//   of time on a loaded box) for an operator to look at, not something a client can change.
// - A variant that cannot be stored (a full disk) is still sent; the failure is logged at warn.
// - Delivery by redirect (deps.redirect, a store that presigns, i.e. the bucket): an answer
//   larger than `aboveBytes` (more than a Lambda response can carry) is a 302 to a presigned
//   URL of the stored variant; with `aboveBytes` 0 every answer is (no image byte passes
//   through the function; measured slower for a wall of posters, see docs/benchmarks-history.md). The
//   302 may be cached only while its URL is valid, less a margin for the fetch that follows,
//   and carries no ETag: a 304 revalidating a cached redirect would keep its Location, which by
//   then is dead. A variant the store could not keep is sent as bytes.
import { internal, notFound, notFoundBecause } from '../errors';
import { ifNoneMatchHolds } from '../util/etag';
import type { Log } from '../log';
import { ImageError } from '../media/image-input';
import { sourceKey, variantKeyOf, type ArtworkStore } from './store';
import type { ArtworkKind, ArtworkSet } from './model';
import { negotiateFormat, renderVariant, snapWidth, variantKey, type ImageFormat } from './variants';

/** What the endpoint needs of a catalogue item (or a film collection): its kind and its stored pictures. */
export interface Pictured {
  id: string;
  entity: 'movie' | 'tvshow' | 'episode' | 'collection';
  artwork?: ArtworkSet;
}

export interface ArtworkDeps {
  catalog: { get(id: string): Promise<Pictured | undefined> };
  store: ArtworkStore;
  log: Pick<Log, 'error' | 'warn'>;
  /** Answers larger than `aboveBytes` (0: all) redirect to a presigned URL of the stored variant living `urlSeconds` (where the store presigns). */
  redirect?: { urlSeconds: number; aboveBytes: number };
}

export interface ArtworkRequest {
  mediaId: string;
  kind: ArtworkKind;
  /** The requested width (`w`), snapped to one of VARIANT_WIDTHS; absent: the original size. */
  width?: number;
  /** The `v` query parameter: the etag the client's URL was handed out with. */
  version?: string;
  accept?: string;
  ifNoneMatch?: string;
}

export interface ArtworkAnswer {
  status: 200 | 302 | 304;
  body?: Buffer;
  headers: Record<string, string>;
}

const YEAR_SECONDS = 31_536_000;
const DAY_SECONDS = 86_400;
export const IMMUTABLE = `public, max-age=${YEAR_SECONDS}, immutable`;
export const REVALIDATE_DAILY = `public, max-age=${DAY_SECONDS}`;
/** Taken off a presigned URL's life for a cached redirect: the client still has to fetch it, on a clock that may run ahead. */
export const REDIRECT_MARGIN_SECONDS = 60;

const KINDS_OF: Record<Pictured['entity'], readonly ArtworkKind[]> = {
  movie: ['poster', 'backdrop'],
  tvshow: ['poster', 'backdrop'],
  episode: ['still'],
  collection: ['poster', 'backdrop'],
};

const ENTITY_NAMES: Record<Pictured['entity'], string> = {
  movie: 'Movie',
  tvshow: 'TV show',
  episode: 'Episode',
  collection: 'Collection',
};

const SOURCE_FORMATS: Record<string, ImageFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/avif': 'avif',
  'image/gif': 'gif',
};

const wrongKind = (item: Pictured, kind: ArtworkKind) =>
  notFoundBecause(
    item.entity === 'episode'
      ? `Episode ${item.id} has no ${kind}: episodes have a still only`
      : `${ENTITY_NAMES[item.entity]} ${item.id} has no ${kind}: ${item.entity === 'collection' ? 'collections' : 'movies and TV shows'} have a poster and a backdrop only`,
  );

const sourceMissing = (mediaId: string, kind: ArtworkKind) =>
  notFoundBecause(`The ${kind} of ${mediaId} is no longer in the artwork cache; a rescan of its library stores it again`);

/**
 * With redirects on and a store that presigns, the 302 to the stored variant's URL: `always`
 * (every answer redirects), and `ifLarger(size)` for an answer of that size (undefined: answer
 * the bytes, or the store holds no such variant yet). Without: undefined.
 */
const redirectFor = (deps: ArtworkDeps, key: string, vary: string, versioned: boolean) => {
  const { redirect, store } = deps;
  if (!redirect || !store.presignedUrl) return undefined;
  const presign = store.presignedUrl.bind(store);
  // The URL's life less the margin, and never longer than the bytes themselves may be cached.
  const maxAge = Math.max(0, Math.min(redirect.urlSeconds - REDIRECT_MARGIN_SECONDS, versioned ? YEAR_SECONDS : DAY_SECONDS));
  const to = async (): Promise<ArtworkAnswer | undefined> => {
    const url = await presign(key, redirect.urlSeconds);
    return url === undefined
      ? undefined
      : { status: 302, headers: { Location: url, 'Cache-Control': `private, max-age=${maxAge}`, Vary: vary } };
  };
  return {
    always: redirect.aboveBytes === 0,
    to,
    ifLarger: (size: number) => (size > redirect.aboveBytes ? to() : Promise.resolve(undefined)),
  };
};

export const serveArtwork = async (deps: ArtworkDeps, req: ArtworkRequest): Promise<ArtworkAnswer> => {
  const { mediaId, kind } = req;
  const item = await deps.catalog.get(mediaId);
  if (!item) throw notFound(`Media ${mediaId}`);
  if (!KINDS_OF[item.entity].includes(kind)) throw wrongKind(item, kind);
  const art = item.artwork?.[kind];
  if (!art) throw notFound(`The ${kind} of ${mediaId}`);

  // A snapped width at least as wide as the source is the source's own size (never enlarged):
  // one variant for all of them rather than identical files under several names.
  const snapped = snapWidth(req.width);
  const width = snapped !== null && snapped < art.width ? snapped : null;
  const variant = { width, format: negotiateFormat(req.accept, SOURCE_FORMATS[art.contentType] ?? 'jpeg') };
  const etag = `"${art.etag}-${variantKey(kind, variant.width, variant.format)}"`;
  const headers = {
    ETag: etag,
    'Cache-Control': req.version === art.etag ? IMMUTABLE : REVALIDATE_DAILY,
    Vary: 'Accept, Origin',
  };
  if (ifNoneMatchHolds(req.ifNoneMatch, etag)) return { status: 304, headers };

  const key = variantKeyOf(mediaId, kind, art.etag, variant);
  const redirect = redirectFor(deps, key, headers.Vary, req.version === art.etag);
  if (redirect?.always) {
    // Every answer redirects: the object need not be read, only found.
    const answer = await redirect.to();
    if (answer) return answer;
  } else {
    const stored = await deps.store.get(key);
    if (stored)
      return (
        (await redirect?.ifLarger(stored.bytes.length)) ?? {
          status: 200,
          body: stored.bytes,
          headers: { ...headers, 'Content-Type': stored.contentType },
        }
      );
  }

  const source = await deps.store.get(sourceKey(mediaId, kind, art.etag));
  if (!source) throw sourceMissing(mediaId, kind);
  let rendered;
  try {
    rendered = await renderVariant(source.bytes, variant);
  } catch (error) {
    if (!(error instanceof ImageError)) throw error;
    deps.log.error(
      { err: error, reason: error.reason, mediaId, kind, etag: art.etag, variant: key },
      'stored artwork could not be rendered',
    );
    throw internal();
  }
  const kept = await deps.store.put(key, rendered.body, rendered.contentType).then(
    () => true,
    (err: unknown) => {
      deps.log.warn({ err, mediaId, kind, variant: key }, 'artwork variant could not be stored; sent without it');
      return false;
    },
  );
  const redirected = kept ? await redirect?.ifLarger(rendered.body.length) : undefined;
  return redirected ?? { status: 200, body: rendered.body, headers: { ...headers, 'Content-Type': rendered.contentType } };
};
