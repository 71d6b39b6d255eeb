// How every artwork module opens untrusted image bytes with sharp, and the one error they
// throw when the bytes are not a usable image. Posters come from TMDB or from a user's
// folder, so anything here may be broken, truncated, huge or not an image at all.
import { createRequire } from 'node:module';
import type { Sharp } from 'sharp';
import type sharpModule from 'sharp';

// sharp (and libvips with it, about 19 MiB) is loaded the first time an image is opened, not
// when a handler that may open one is: most requests and a whole start never do.
let loaded: typeof sharpModule | undefined;
const sharp: typeof sharpModule = ((...args: Parameters<typeof sharpModule>) =>
  (loaded ??= createRequire(import.meta.url)('sharp') as typeof sharpModule)(...args)) as typeof sharpModule;

/**
 * The largest image accepted, in pixels (width x height, from the header, before decoding).
 * TMDB's largest poster originals are 2000x3000 (6 MP); 50 MP leaves room for a high-resolution
 * scan in a user's folder (about 5800x8700) while refusing a decompression bomb (a few KB of
 * PNG that claims 16k x 16k) before a byte of it is decoded. Re-encoding the original size of
 * such an image would need its whole raster in memory, which a small home box cannot spare.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

export type ImageErrorReason = 'not-an-image' | 'too-large' | 'corrupt' | 'timeout';

/** The bytes could not be used as an image. Callers catch this to fall back (title colours) or answer 4xx. */
export class ImageError extends Error {
  constructor(
    readonly reason: ImageErrorReason,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export interface OpenOptions {
  /** libvips gives up after this long, so a pathological file cannot hold a function until its own timeout. */
  timeoutSeconds: number;
}

/**
 * A sharp pipeline over untrusted bytes: upright (EXIF orientation applied first, so "top-left"
 * means what a viewer sees), limited in size, and failing on real errors. `failOn: 'error'`
 * rather than the default 'warning': a truncated or broken file is refused, but a harmless
 * decoder warning (stray bytes before a marker, common in old scans) that every browser
 * ignores does not cost an otherwise good poster.
 */
export const openImage = (input: Buffer | Uint8Array, { timeoutSeconds }: OpenOptions): Sharp =>
  sharp(input, { autoOrient: true, limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).timeout({
    seconds: timeoutSeconds,
  });

// sharp reports failures as plain Errors; their messages are the only way to tell them apart.
// An unknown message still becomes an ImageError ('corrupt'), so callers need one catch.
const reasons: Array<[pattern: RegExp, reason: ImageErrorReason]> = [
  [/unsupported image format|buffer is empty/i, 'not-an-image'],
  [/pixel limit|channel limit/i, 'too-large'],
  [/timeout/i, 'timeout'],
];

/** Any failure of a sharp call as an ImageError (an ImageError passes through unchanged). */
export const toImageError = (error: unknown): ImageError => {
  if (error instanceof ImageError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const reason = reasons.find(([pattern]) => pattern.test(message))?.[1] ?? 'corrupt';
  return new ImageError(reason, `Unusable image: ${message}`, { cause: error });
};
