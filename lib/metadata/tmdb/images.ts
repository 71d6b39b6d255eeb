// Image URLs and downloads. A download is refused unless it is declared as an image, stays under
// the size cap while it streams (a missing or lying Content-Length cannot get past it), and its
// first bytes are those of a format the artwork code can open.
import { ProviderBadResponse } from '../provider';
import type { OutgoingRequest } from './transport';

// TMDB sizes: "w500" (width), "h632" (height) or "original".
const SIZE = /^(?:[wh]\d{1,5}|original)$/;
// TMDB file paths: "/kqjL17yufvn9OVLyXYpvtyrFfak.jpg".
const FILE_PATH = /^\/[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function imageUrl(imageBaseUrl: string, path: string, size = 'original'): string {
  if (!SIZE.test(size)) throw new TypeError(`Not a TMDB image size: ${size}`);
  if (!FILE_PATH.test(path)) throw new TypeError(`Not a TMDB image path: ${path}`);
  return `${imageBaseUrl}/${size}${path}`;
}

/** The image's type from its first bytes, or null when they are no format we open. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (ascii(0, 8) === '\x89PNG\r\n\x1a\n') return 'image/png';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'image/webp';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(4, 8) === 'ftyp' && ['avif', 'avis'].includes(ascii(8, 12))) return 'image/avif';
  return null;
}

/** Reads an image answer within `maxBytes`: its bytes and their sniffed type. */
export async function readImage(response: Response, request: OutgoingRequest, maxBytes: number, attempts: number) {
  const context = { url: request.shownUrl, status: response.status, attempts };
  const refuse = async (why: string) => {
    await response.body?.cancel().catch(() => {});
    return new ProviderBadResponse(`${request.shownUrl} ${why}`, context);
  };
  const declared = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!declared.startsWith('image/')) throw await refuse(`is not an image (content-type ${declared || 'missing'})`);
  const length = Number(response.headers.get('content-length'));
  if (length > maxBytes) throw await refuse(`is larger than the ${maxBytes}-byte limit (${length} bytes)`);

  const chunks: Uint8Array[] = [];
  let total = 0;
  // A fetch body yields Uint8Arrays (Node's types leave its chunks `any`).
  for await (const chunk of (response.body ?? []) as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > maxBytes) throw await refuse(`is larger than the ${maxBytes}-byte limit`);
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  const contentType = sniffImageType(bytes);
  if (!contentType) throw new ProviderBadResponse(`${request.shownUrl} is declared ${declared} but its bytes are not an image`, context);
  return { bytes, contentType };
}
