// Artwork served resized on demand: which width to render (snapped to a few sizes, so the cache
// holds a handful of files per image whatever widths clients ask for), which format the client
// gets (from its Accept header), the render itself with sharp, and the cache file's name.
import type { Sharp } from 'sharp';
import { openImage, toImageError } from '../media/image-input';
import type { ArtworkKind } from './model';

/** What a stored image is, from its first bytes. */
export type ImageFormat = 'jpeg' | 'png' | 'webp' | 'avif' | 'gif';
/** What a variant is rendered as. */
export type OutputFormat = 'avif' | 'webp' | 'jpeg' | 'png';

/** The widths rendered, smallest first: from a phone's poster column (160) to a backdrop (TMDB's w1280). */
export const VARIANT_WIDTHS = [160, 320, 480, 780, 1280] as const;

/**
 * The width to render for a requested `w`: the smallest size at least as wide (the client asked
 * for that many pixels; a little more is scaled down sharply on its side, less would blur), or
 * the largest for anything wider. No `w` means the original size (null). A `w` that is not a
 * positive number is treated as absent: the handler's schema refuses those before this.
 */
export const snapWidth = (requested: number | undefined): number | null => {
  if (requested === undefined || !Number.isFinite(requested) || requested <= 0) return null;
  return VARIANT_WIDTHS.find((width) => width >= requested) ?? VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!;
};

const SUBTYPES: Record<OutputFormat, readonly string[]> = {
  avif: ['avif'],
  webp: ['webp'],
  // image/jpg and image/pjpeg are not registered, but some clients send them.
  jpeg: ['jpeg', 'jpg', 'pjpeg'],
  png: ['png'],
};

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

/** `Accept` as media ranges (RFC 9110 §12.5.1); a range with an unreadable q is dropped. */
const parseAccept = (accept: string): MediaRange[] =>
  accept.split(',').flatMap((part) => {
    const [range = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype, ...rest] = range.split('/');
    if (!type || !subtype || rest.length) return [];
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam === undefined ? 1 : Number(qParam.slice(2));
    return Number.isNaN(q) || q < 0 || q > 1 ? [] : [{ type, subtype, q }];
  });

/**
 * How much the client wants `format`: the q of the most specific range that covers it (its own
 * type, then image/*, then the bare wildcard), and whether that range named it. Undefined when
 * no range covers it.
 */
const preference = (format: OutputFormat, ranges: MediaRange[]) => {
  let best: { q: number; specificity: number } | undefined;
  for (const range of ranges) {
    const specificity = specificityFor(format, range);
    if (specificity > (best?.specificity ?? -1)) best = { q: range.q, specificity };
  }
  return best && { q: best.q, explicit: best.specificity === NAMED };
};

const NAMED = 2;

/** 2: the range names the format; 1: image/*; 0: the bare wildcard; -1: it does not cover it. */
const specificityFor = (format: OutputFormat, { type, subtype }: MediaRange) => {
  if (type === '*') return subtype === '*' ? 0 : -1;
  if (type !== 'image') return -1;
  return subtype === '*' ? 1 : SUBTYPES[format].includes(subtype) ? NAMED : -1;
};

/**
 * The format to send. WebP and AVIF only go to a client that names them (one that accepts
 * only wildcards may well be an old player that cannot decode them); JPEG and PNG go to any
 * client that accepts them, through wildcards too. The highest q wins; on a tie WebP comes
 * first, then AVIF (AVIF is about a third smaller, but takes five times as long to encode, see
 * ENCODERS: on a LAN the bytes matter less than a small box's CPU), then the source's own
 * format when it is JPEG or PNG (no transcoding), then JPEG. With no Accept header, or when
 * nothing offered is acceptable, the header is disregarded (RFC 9110 allows it; an <img> gains
 * nothing from a 406) and that same fallback is sent.
 */
export const negotiateFormat = (accept: string | undefined, sourceFormat: ImageFormat): OutputFormat => {
  const fallback: OutputFormat = sourceFormat === 'png' ? 'png' : 'jpeg';
  const order: OutputFormat[] = ['webp', 'avif', fallback, fallback === 'png' ? 'jpeg' : 'png'];
  const ranges = parseAccept(accept ?? '');
  let chosen: { format: OutputFormat; q: number } | undefined;
  for (const format of order) {
    const wanted = preference(format, ranges);
    const eligible = wanted && wanted.q > 0 && (wanted.explicit || format === 'jpeg' || format === 'png');
    if (eligible && wanted.q > (chosen?.q ?? 0)) chosen = { format, q: wanted.q };
  }
  return chosen?.format ?? fallback;
};

const CONTENT_TYPES: Record<OutputFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

/**
 * Encoder settings, chosen by measurement: a 2000x3000 JPEG poster (TMDB's original size) to a
 * 780-wide variant, decode and resize included, libvips on one thread (sharp's default on
 * glibc Linux), this 2-core box while other work ran (a bench since retired; docs/benchmarks-history.md):
 *   JPEG q80:              35-40 ms   (mozjpeg's trellis: several times slower for ~15% less)
 *   WebP q80, effort 2:    55-65 ms, 69 KiB    effort 4 (sharp's default):  ~95 ms, 66 KiB
 *   AVIF q50, effort 2:  280-360 ms, 43 KiB    effort 4 (sharp's default): 1.9-3.9 s, 41 KiB
 * So WebP at effort 2, and AVIF at effort 2 (at its default a first page of 50 posters would
 * keep the box busy for two minutes). Even so AVIF costs five times WebP's CPU for 38% fewer
 * bytes, which a LAN hardly needs: negotiateFormat offers WebP first. Should variants ever be
 * rendered ahead of time (during a scan), putting AVIF first there is a one-line change.
 * Quality: AVIF's q50 looks about like JPEG's and WebP's q80.
 */
const ENCODERS: Record<OutputFormat, (image: Sharp) => Sharp> = {
  jpeg: (image) => image.jpeg({ quality: 80 }),
  webp: (image) => image.webp({ quality: 80, effort: 2 }),
  avif: (image) => image.avif({ quality: 50, effort: 2 }),
  png: (image) => image.png(),
};

/** A 1280-wide AVIF takes under a second; the original size of a large image can take several. */
const RENDER_TIMEOUT_SECONDS = 20;

export interface VariantRequest {
  /** A snapped width, or null for the original size. */
  width: number | null;
  format: OutputFormat;
}

export interface RenderedVariant {
  body: Buffer;
  contentType: string;
}

/**
 * The source at `width` (never wider than it is: a small source keeps its size) in `format`,
 * upright, in sRGB, without metadata (sharp drops EXIF, XMP and ICC unless asked to keep them,
 * so no camera or GPS data leaves with a user's own artwork). JPEG has no alpha: transparent
 * parts go on black, like the mesh gradient's. Throws ImageError for bytes it cannot use.
 */
export const renderVariant = async (source: Buffer | Uint8Array, { width, format }: VariantRequest): Promise<RenderedVariant> => {
  try {
    let image = openImage(source, { timeoutSeconds: RENDER_TIMEOUT_SECONDS });
    if (width !== null) image = image.resize({ width, withoutEnlargement: true });
    if (format === 'jpeg') image = image.flatten({ background: '#000000' });
    const body = await ENCODERS[format](image).toBuffer();
    return { body, contentType: CONTENT_TYPES[format] };
  } catch (error) {
    throw toImageError(error);
  }
};

/** Bump when the encoder settings change, so variants rendered with the old ones are not served. */
const RENDER_VERSION = 1;

const EXTENSIONS: Record<OutputFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' };

/** The cache file name of a variant, e.g. `poster-w780-r1.webp`, `backdrop-original-r1.jpg`. */
export const variantKey = (kind: ArtworkKind, width: number | null, format: OutputFormat): string =>
  `${kind}-${width === null ? 'original' : `w${width}`}-r${RENDER_VERSION}.${EXTENSIONS[format]}`;

const startsWith = (bytes: Uint8Array, offset: number, signature: string | number[]) => {
  const expected = typeof signature === 'string' ? [...signature].map((c) => c.charCodeAt(0)) : signature;
  return bytes.length >= offset + expected.length && expected.every((byte, i) => bytes[offset + i] === byte);
};

/** AVIF is an ISO-BMFF file whose `ftyp` box names the avif (still) or avis (sequence) brand. */
const isAvif = (bytes: Uint8Array) => {
  if (!startsWith(bytes, 4, 'ftyp')) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const boxEnd = Math.min(bytes.length >= 4 ? view.getUint32(0) : 0, bytes.length);
  // Major brand at 8, minor version at 12, compatible brands from 16, four bytes each.
  for (let offset = 8; offset + 4 <= boxEnd; offset += offset === 8 ? 8 : 4)
    if (startsWith(bytes, offset, 'avif') || startsWith(bytes, offset, 'avis')) return true;
  return false;
};

/**
 * What kind of image the bytes are, from their signature, or null for anything else (HTML, a
 * HEIC, text): a cheap check on stored or downloaded artwork that reads no further than the
 * first box. Bytes that pass but are broken beyond it fail in renderVariant with ImageError.
 */
export const sniffImage = (bytes: Buffer | Uint8Array): ImageFormat | null => {
  if (startsWith(bytes, 0, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, 0, 'GIF87a') || startsWith(bytes, 0, 'GIF89a')) return 'gif';
  if (startsWith(bytes, 0, 'RIFF') && startsWith(bytes, 8, 'WEBP')) return 'webp';
  if (isAvif(bytes)) return 'avif';
  return null;
};
