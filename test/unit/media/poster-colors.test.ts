// Mesh gradient colours from a poster: one dominant colour per quadrant, on posters painted
// here so each quadrant's colour is known.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import sharp from 'sharp';
import { ImageError, MAX_INPUT_PIXELS } from '../../../lib/media/image-input';
import { posterColors } from '../../../lib/media/poster-colors';
import {
  bilevelPng,
  detailedQuadrants,
  flatQuadrants,
  paintedJpeg,
  paintPixels,
  POSTER_WIDTH,
  type QuadrantColours,
  type Rgb,
} from '../../support/posters';

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const distance = (a: Rgb, b: Rgb) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

/** Each extracted colour lies within `tolerance` (Euclidean RGB) of the expected one. */
const assertClose = (actual: string[], expected: Rgb[], tolerance = 40) => {
  for (const [i, hex] of actual.entries()) {
    assert.match(hex, /^#[0-9a-f]{6}$/);
    const d = distance(rgbOf(hex), expected[i]!);
    assert.ok(d < tolerance, `quadrant ${i}: ${hex} is ${d.toFixed(1)} from rgb(${expected[i]!.join(', ')})`);
  }
};

const rgbRaw = (pixels: ReturnType<typeof paintPixels>) =>
  sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 } });

const palettes: QuadrantColours[] = [
  [
    [200, 30, 40],
    [20, 60, 160],
    [30, 140, 70],
    [15, 15, 20],
  ],
  [
    [240, 180, 40],
    [90, 40, 120],
    [230, 230, 225],
    [60, 60, 60],
  ],
  [
    [10, 20, 45],
    [180, 90, 150],
    [110, 160, 200],
    [140, 100, 60],
  ],
];

describe('poster colours', () => {
  it('are the colours of four flat quadrants, in reading order', async () => {
    const [palette] = palettes;
    assertClose(await posterColors(await paintedJpeg(flatQuadrants(palette!))), palette!, 12);
  });

  it("find each quadrant's dominant colour through noise, a title stripe, credits, spots and a frame", async () => {
    for (const [seed, palette] of palettes.entries()) {
      const poster = await paintedJpeg(detailedQuadrants(palette), { noise: 40, seed: seed + 1 });
      // Within 16, where a plain mean of each quadrant strays up to 41 on these posters.
      assertClose(await posterColors(poster), palette, 16);
    }
  });

  it('let a vivid subject win over a slightly larger dark area, but not over a mostly black one', async () => {
    const red: Rgb = [210, 25, 30];
    const black: Rgb = [8, 8, 10];
    // Every quadrant is `share` red (columns on its left), the rest near-black.
    const split =
      (share: number) =>
      (x: number): Rgb =>
        x % (POSTER_WIDTH / 2) < (POSTER_WIDTH / 2) * share ? red : black;
    assertClose(await posterColors(await paintedJpeg(split(0.42), { noise: 10 })), [red, red, red, red]);
    assertClose(await posterColors(await paintedJpeg(split(0.2), { noise: 10 })), [black, black, black, black], 20);
  });

  it('flatten transparency on black', async () => {
    const { data, width, height } = paintPixels(
      flatQuadrants([
        [0, 0, 0],
        [255, 0, 0],
        [30, 140, 70],
        [20, 60, 160],
      ]),
    );
    const rgba = Buffer.alloc(width * height * 4);
    for (let p = 0; p < width * height; p++) {
      const [x, y] = [p % width, Math.floor(p / width)];
      rgba.set([data[p * 3]!, data[p * 3 + 1]!, data[p * 3 + 2]!], p * 4);
      // Top-left fully transparent (its colour must not show), top-right half transparent.
      rgba[p * 4 + 3] = y < height / 2 ? (x < width / 2 ? 0 : 128) : 255;
      if (y < height / 2 && x < width / 2) rgba.set([255, 255, 255], p * 4);
    }
    const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    assertClose(
      await posterColors(png),
      [
        [0, 0, 0],
        [128, 0, 0],
        [30, 140, 70],
        [20, 60, 160],
      ],
      12,
    );
  });

  it('read greyscale posters as greys', async () => {
    const greys: QuadrantColours = [
      [30, 30, 30],
      [90, 90, 90],
      [160, 160, 160],
      [230, 230, 230],
    ];
    const jpeg = await rgbRaw(paintPixels(flatQuadrants(greys), { noise: 20 }))
      .toColourspace('b-w')
      .jpeg()
      .toBuffer();
    assert.equal((await sharp(jpeg).metadata()).channels, 1);
    assertClose(await posterColors(jpeg), greys, 12);
  });

  it('convert CMYK posters to sRGB', async () => {
    const [, palette] = palettes;
    const jpeg = await rgbRaw(paintPixels(flatQuadrants(palette!)))
      .toColourspace('cmyk')
      .jpeg()
      .toBuffer();
    assert.equal((await sharp(jpeg).metadata()).space, 'cmyk');
    assertClose(await posterColors(jpeg), palette!);
  });

  it('apply EXIF orientation first, so the corners are those a viewer sees', async () => {
    const [a, b, c, d] = palettes[0]!;
    // Stored as drawn, tagged "rotate 90° clockwise to display" (orientation 6).
    const tagged = await rgbRaw(paintPixels(flatQuadrants([a, b, c, d])))
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    assertClose(await posterColors(tagged), [c, a, d, b], 12);
  });

  it("give one pixel's colour four times for a 1x1 image", async () => {
    const pixel = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer();
    assert.deepEqual(await posterColors(pixel), ['#3366cc', '#3366cc', '#3366cc', '#3366cc']);
  });

  it('take a Uint8Array as well as a Buffer', async () => {
    const poster = await paintedJpeg(flatQuadrants(palettes[0]!));
    assert.deepEqual(await posterColors(new Uint8Array(poster)), await posterColors(poster));
  });

  it('throw ImageError for bytes that are not an image, empty or truncated', async () => {
    const poster = await paintedJpeg(flatQuadrants(palettes[0]!), { noise: 20 });
    const cases: Array<[name: string, bytes: Buffer, reason: ImageError['reason']]> = [
      ['text', Buffer.from('<html>not a poster</html>'), 'not-an-image'],
      ['nothing', Buffer.alloc(0), 'not-an-image'],
      ['a JPEG cut in half', poster.subarray(0, poster.length / 2), 'corrupt'],
      ['a JPEG header on garbage', Buffer.concat([poster.subarray(0, 600), Buffer.alloc(5000, 0x5a)]), 'corrupt'],
    ];
    for (const [name, bytes, reason] of cases)
      await assert.rejects(posterColors(bytes), (error) => error instanceof ImageError && error.reason === reason, name);
  });

  // Decided: an image over MAX_INPUT_PIXELS (50 MP) is refused from its header, before any
  // decoding, rather than sampled; under the limit, even a large one is sampled (libvips
  // streams it, so memory stays small).
  it('refuse a 10000x15000 PNG at once, and sample a 45 MP one under the limit', async () => {
    const huge = bilevelPng(10_000, 15_000, (y) => y >= 7_500);
    assert.ok(10_000 * 15_000 > MAX_INPUT_PIXELS);
    const started = performance.now();
    await assert.rejects(posterColors(huge), (error) => error instanceof ImageError && error.reason === 'too-large');
    assert.ok(performance.now() - started < 1_000, 'refused without decoding');

    const large = bilevelPng(5_000, 9_000, (y) => y >= 4_500);
    assert.deepEqual(await posterColors(large), ['#000000', '#000000', '#ffffff', '#ffffff']);
  });

  it('sample a poster of any shape, including a wide backdrop', async () => {
    const [palette] = palettes;
    const backdrop = await paintedJpeg(flatQuadrants(palette!, 1280, 720), { width: 1280, height: 720 });
    assertClose(await posterColors(backdrop), palette!, 12);
  });
});
