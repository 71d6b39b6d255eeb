// Artwork variants: width snapping, Accept negotiation, cache names and sniffing as tables,
// and renders checked by decoding them again with sharp.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import {
  negotiateFormat,
  renderVariant,
  sniffImage,
  snapWidth,
  variantKey,
  type ImageFormat,
  type OutputFormat,
} from '../../../lib/artwork/variants';
import { ImageError } from '../../../lib/media/image-input';
import { bilevelPng, detailedQuadrants, paintedJpeg } from '../../support/posters';

const poster = (width: number, height: number) =>
  paintedJpeg(
    detailedQuadrants(
      [
        [200, 30, 40],
        [20, 60, 160],
        [30, 140, 70],
        [15, 15, 20],
      ],
      width,
      height,
    ),
    { width, height, noise: 8 },
  );

describe('snapWidth', () => {
  const rows: Array<[requested: number | undefined, snapped: number | null]> = [
    [undefined, null], // no w: the original
    [1, 160],
    [160, 160],
    [161, 320], // up, never down: the client asked for at least that many pixels
    [319.5, 320],
    [342, 480], // TMDB's w342
    [480, 480],
    [500, 780], // TMDB's w500
    [780, 780],
    [781, 1280],
    [1280, 1280],
    [4000, 1280], // wider than the largest: the largest, not the original
    [0, null], // not a width: as if absent (the route's schema refuses these first)
    [-20, null],
    [Number.NaN, null],
    [Number.POSITIVE_INFINITY, null],
  ];
  for (const [requested, snapped] of rows) it(`snaps ${requested} to ${snapped}`, () => assert.equal(snapWidth(requested), snapped));
});

describe('negotiateFormat', () => {
  const chrome = 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8';
  const firefox = 'image/avif,image/webp,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
  const safari =
    'image/webp,image/avif,image/jxl,image/heic,image/heic-sequence,video/*;q=0.8,image/png,image/svg+xml,image/*;q=0.8,*/*;q=0.5';
  const rows: Array<[accept: string | undefined, source: ImageFormat, expected: OutputFormat]> = [
    [chrome, 'jpeg', 'webp'], // both modern formats named at q=1: WebP first (encodes far faster)
    [firefox, 'jpeg', 'webp'],
    [safari, 'png', 'webp'],
    ['image/webp,image/avif', 'jpeg', 'webp'],
    ['image/avif,*/*;q=0.8', 'jpeg', 'avif'], // AVIF is the only modern format named
    ['image/avif;q=0,*/*', 'jpeg', 'jpeg'], // q=0 excludes, even with a wildcard
    ['image/avif;q=0,image/webp;q=0,*/*', 'png', 'png'],
    ['image/webp;q=0.5,image/avif;q=0.8', 'jpeg', 'avif'], // q decides before the server's order
    ['image/webp;q=0.5,image/jpeg', 'jpeg', 'jpeg'],
    ['image/webp;q=0.4,image/*;q=0.5', 'jpeg', 'jpeg'],
    ['*/*', 'jpeg', 'jpeg'], // wildcards only: the source's format when JPEG or PNG, else JPEG
    ['*/*', 'png', 'png'],
    ['*/*', 'webp', 'jpeg'],
    ['*/*', 'avif', 'jpeg'],
    ['*/*', 'gif', 'jpeg'],
    ['image/*', 'png', 'png'],
    ['image/png', 'jpeg', 'png'], // named, so sent although the source is a JPEG
    ['image/jpeg;q=0.9,image/png', 'jpeg', 'png'],
    ['image/jpg', 'png', 'jpeg'], // an unregistered alias some clients send
    ['IMAGE/WEBP', 'jpeg', 'webp'], // media types are case-insensitive
    [' image/webp ; q=0.7 , image/jpeg;q=0.6', 'jpeg', 'webp'],
    ['image/webp;q=abc,*/*', 'jpeg', 'jpeg'], // an unreadable q drops its range
    ['image/webp;q=2,*/*', 'jpeg', 'jpeg'],
    ['*/*;q=0,image/webp', 'png', 'webp'],
    ['image/*;q=0,*/*', 'png', 'png'], // nothing acceptable: the header is disregarded
    ['text/html', 'jpeg', 'jpeg'],
    ['', 'png', 'png'],
    [undefined, 'jpeg', 'jpeg'],
    [undefined, 'webp', 'jpeg'],
    ['garbage;;,/,', 'jpeg', 'jpeg'],
  ];
  for (const [accept, source, expected] of rows)
    it(`answers ${JSON.stringify(accept)} for a ${source} source with ${expected}`, () =>
      assert.equal(negotiateFormat(accept, source), expected));
});

describe('variantKey', () => {
  it('names the kind, the width and the format, one name per variant', () => {
    assert.equal(variantKey('poster', 780, 'webp'), 'poster-w780-r1.webp');
    assert.equal(variantKey('backdrop', null, 'jpeg'), 'backdrop-original-r1.jpg');
    const keys = new Set<string>();
    for (const kind of ['poster', 'backdrop', 'still'] as const)
      for (const width of [160, 320, 480, 780, 1280, null])
        for (const format of ['avif', 'webp', 'jpeg', 'png'] as const) keys.add(variantKey(kind, width, format));
    assert.equal(keys.size, 3 * 6 * 4);
  });
});

describe('sniffImage', () => {
  it('recognises each format sharp writes', async () => {
    const image = sharp({ create: { width: 8, height: 12, channels: 3, background: '#336699' } });
    for (const format of ['jpeg', 'png', 'webp', 'avif', 'gif'] as const)
      assert.equal(sniffImage(await image.clone().toFormat(format).toBuffer()), format);
  });

  it('returns null for what is not one of them', () => {
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic\0\0\0\0mif1heic', 'latin1')]);
    const wave = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]);
    for (const bytes of [Buffer.from('<!doctype html><title>404</title>'), Buffer.alloc(0), Buffer.from([0xff, 0xd8]), heic, wave])
      assert.equal(sniffImage(bytes), null);
  });

  it('reads signatures only: a JPEG header on garbage passes, and its render fails', async () => {
    const fake = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    assert.equal(sniffImage(new Uint8Array(fake)), 'jpeg');
    await assert.rejects(renderVariant(fake, { width: 320, format: 'webp' }), ImageError);
  });
});

describe('renderVariant', () => {
  it('renders each format at the snapped width, keeping the aspect ratio', async () => {
    const source = await poster(1000, 1500);
    const expected: Record<OutputFormat, [format: string, contentType: string]> = {
      avif: ['heif', 'image/avif'], // sharp reports AVIF as HEIF with AV1 compression
      webp: ['webp', 'image/webp'],
      jpeg: ['jpeg', 'image/jpeg'],
      png: ['png', 'image/png'],
    };
    for (const [format, [decoded, contentType]] of Object.entries(expected) as Array<[OutputFormat, [string, string]]>) {
      const variant = await renderVariant(source, { width: snapWidth(300), format });
      const meta = await sharp(variant.body).metadata();
      assert.deepEqual([meta.format, meta.width, meta.height, variant.contentType], [decoded, 320, 480, contentType], format);
    }
  });

  it('never upscales, and gives the original size without a width', async () => {
    const small = await poster(300, 450);
    const wide = await renderVariant(small, { width: 780, format: 'webp' });
    assert.deepEqual(
      await sharp(wide.body)
        .metadata()
        .then((m) => [m.width, m.height]),
      [300, 450],
    );
    const original = await renderVariant(await poster(1000, 1500), { width: null, format: 'jpeg' });
    assert.deepEqual(
      await sharp(original.body)
        .metadata()
        .then((m) => [m.width, m.height]),
      [1000, 1500],
    );
  });

  it('turns the image upright and strips its metadata', async () => {
    const tagged = await sharp(await poster(500, 750))
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    assert.equal((await sharp(tagged).metadata()).orientation, 6);
    const meta = await sharp((await renderVariant(tagged, { width: 480, format: 'jpeg' })).body).metadata();
    assert.deepEqual([meta.width, meta.height, meta.orientation, meta.exif, meta.icc], [480, 320, undefined, undefined, undefined]);
  });

  it('puts transparency on black in a JPEG and keeps it in WebP', async () => {
    const clear = await sharp({ create: { width: 200, height: 300, channels: 4, background: { r: 255, g: 255, b: 255, alpha: 0 } } })
      .png()
      .toBuffer();
    const jpeg = await renderVariant(clear, { width: 160, format: 'jpeg' });
    const { data } = await sharp(jpeg.body).raw().toBuffer({ resolveWithObject: true });
    assert.ok(Math.max(...data) < 8, 'black where it was transparent');
    assert.equal((await sharp((await renderVariant(clear, { width: 160, format: 'webp' })).body).metadata()).hasAlpha, true);
  });

  it('throws ImageError for bytes that are not an image, or an image over the pixel limit', async () => {
    await assert.rejects(
      renderVariant(Buffer.from('not an image'), { width: 320, format: 'webp' }),
      (error) => error instanceof ImageError && error.reason === 'not-an-image',
    );
    await assert.rejects(
      renderVariant(
        bilevelPng(10_000, 15_000, () => true),
        { width: null, format: 'png' },
      ),
      (error) => error instanceof ImageError && error.reason === 'too-large',
    );
  });
});
