// The fake TMDB's image CDN: JPEGs drawn by sharp on first request and kept, at the size the
// URL asks for ("w342", "h632", "original"), plus the ways a real CDN answer can go wrong.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { IMAGE_SIZES, type ImageKind, type ImageSpec } from './fake-tmdb-bodies';

/** How a registered image misbehaves. */
export type ImageFault =
  /** `Content-Type: image/jpeg`, but the bytes are not an image. */
  | 'garbage'
  /** An HTML error page with a 200, as a misconfigured proxy sends. */
  | 'html'
  /** The first half of a real JPEG: the right magic bytes, an unreadable file. */
  | 'truncated'
  /** A real 8000x12000 JPEG at every size (96 MP: a pixel limit must refuse it). */
  | 'huge';

export const HUGE_IMAGE = { width: 8000, height: 12000 } as const;

// What "original" means per kind, at TMDB's usual aspect ratios (kept small: tests decode them).
const NATURAL: Record<ImageKind, { width: number; height: number }> = {
  poster: { width: 1000, height: 1500 },
  backdrop: { width: 1920, height: 1080 },
  still: { width: 1280, height: 720 },
};

const KNOWN_SIZES = new Set(Object.values(IMAGE_SIZES).flat());

export interface RegisteredImage {
  kind: ImageKind;
  spec: ImageSpec;
  fault?: ImageFault;
}

/** The pixel size for a TMDB size name, or null for a size TMDB does not serve. */
export function dimensionsFor(kind: ImageKind, size: string) {
  if (!KNOWN_SIZES.has(size)) return null;
  const natural = NATURAL[kind];
  const ratio = natural.height / natural.width;
  if (size === 'original') return natural;
  const n = Number(size.slice(1));
  return size.startsWith('w') ? { width: n, height: Math.round(n * ratio) } : { width: Math.round(n / ratio), height: n };
}

/** A colour of its own for each file, when the seed names none. */
const colourOf = (file: string) => `#${createHash('sha1').update(file).digest('hex').slice(0, 6)}`;

export async function drawJpeg(spec: ImageSpec, file: string, width: number, height: number): Promise<Buffer> {
  const plain = (w: number, h: number, background: string) => ({ create: { width: w, height: h, channels: 3 as const, background } });
  const [tl, tr, bl, br] = spec.quadrants ?? [];
  const base = sharp(plain(width, height, spec.color ?? tl ?? colourOf(file)));
  if (!spec.quadrants) return base.jpeg({ quality: 85 }).toBuffer();
  const left = Math.floor(width / 2);
  const top = Math.floor(height / 2);
  return base
    .composite([
      { input: plain(width - left, top, tr!), left, top: 0 },
      { input: plain(left, height - top, bl!), left: 0, top },
      { input: plain(width - left, height - top, br!), left, top },
    ])
    .jpeg({ quality: 85 })
    .toBuffer();
}

export interface ImageAnswer {
  status: number;
  contentType: string;
  body: Buffer;
}

const notFound = (): ImageAnswer => ({
  status: 404,
  contentType: 'text/html',
  body: Buffer.from('<html><head><title>404 Not Found</title></head><body><h1>404 Not Found</h1></body></html>'),
});

/** Draws (once) and answers an image request, faults included. */
export function createImageStore() {
  const images = new Map<string, RegisteredImage>();
  const drawn = new Map<string, Promise<Buffer>>();
  const draw = (key: string, make: () => Promise<Buffer>) => {
    if (!drawn.has(key)) drawn.set(key, make());
    return drawn.get(key)!;
  };

  return {
    images,
    register(file: string, image: RegisteredImage) {
      images.set(file, { ...images.get(file), ...image });
      for (const key of drawn.keys()) if (key.startsWith(`${file}|`)) drawn.delete(key);
    },
    async answer(size: string, file: string): Promise<ImageAnswer> {
      const image = images.get(file);
      const dimensions = image && dimensionsFor(image.kind, size);
      if (!image || !dimensions) return notFound();
      const jpeg = (status = 200, body: Buffer) => ({ status, contentType: 'image/jpeg', body });
      switch (image.fault) {
        case 'garbage':
          return jpeg(200, Buffer.from(`not a jpeg at all: ${file}`.repeat(20)));
        case 'html':
          return {
            status: 200,
            contentType: 'text/html; charset=utf-8',
            body: Buffer.from('<!doctype html><title>Oops</title><p>Something went wrong</p>'),
          };
        case 'huge':
          return jpeg(200, await draw(`${file}|huge`, () => drawJpeg(image.spec, file, HUGE_IMAGE.width, HUGE_IMAGE.height)));
        case 'truncated': {
          const whole = await draw(`${file}|${size}`, () => drawJpeg(image.spec, file, dimensions.width, dimensions.height));
          return jpeg(200, whole.subarray(0, Math.floor(whole.length / 2)));
        }
        default:
          return jpeg(200, await draw(`${file}|${size}`, () => drawJpeg(image.spec, file, dimensions.width, dimensions.height)));
      }
    },
  };
}
