// Synthetic posters for the artwork tests and bench: painted pixel by pixel (so every test knows
// the colour of each part), with seeded noise (so a run is repeatable), encoded by sharp.
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

export type Rgb = [r: number, g: number, b: number];
/** Top-left, top-right, bottom-left, bottom-right. */
export type QuadrantColours = [Rgb, Rgb, Rgb, Rgb];

export const POSTER_WIDTH = 500;
export const POSTER_HEIGHT = 750;

export interface PaintOptions {
  width?: number;
  height?: number;
  /** Each channel of each pixel moves by up to this much either way (uniform noise). */
  noise?: number;
  seed?: number;
}

/** mulberry32: a small seeded generator, so a "random" poster is the same on every run. */
export const seededRandom = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const clamp = (v: number) => Math.min(255, Math.max(0, Math.round(v)));

/** Raw RGB pixels of `paint(x, y)` plus noise, as sharp's raw input. */
export const paintPixels = (paint: (x: number, y: number) => Rgb, options: PaintOptions = {}) => {
  const { width = POSTER_WIDTH, height = POSTER_HEIGHT, noise = 0, seed = 1 } = options;
  const next = seededRandom(seed);
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const colour = paint(x, y);
      for (let c = 0; c < 3; c++) data[(y * width + x) * 3 + c] = clamp(colour[c]! + (next() * 2 - 1) * noise);
    }
  return { data, width, height };
};

export const paintedJpeg = (paint: (x: number, y: number) => Rgb, options: PaintOptions = {}) => {
  const { data, width, height } = paintPixels(paint, options);
  return sharp(data, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer();
};

/** A JPEG of one flat colour: a picture beside a video where only its being there matters. */
export const flatJpeg = (width: number, height: number, background: string) =>
  sharp({ create: { width, height, channels: 3, background } })
    .jpeg()
    .toBuffer();

/** Four flat quadrants. */
export const flatQuadrants =
  (colours: QuadrantColours, width = POSTER_WIDTH, height = POSTER_HEIGHT) =>
  (x: number, y: number): Rgb =>
    colours[(y < height / 2 ? 0 : 2) + (x < width / 2 ? 0 : 1)]!;

/**
 * Four quadrants with what a real poster has on top of its large areas: a thin white title
 * stripe across the bottom, a credit block, a few small spots in a contrasting colour and a
 * dark frame. Each is small next to its quadrant's own colour, which must still win.
 */
export const detailedQuadrants = (colours: QuadrantColours, width = POSTER_WIDTH, height = POSTER_HEIGHT) => {
  const base = flatQuadrants(colours, width, height);
  const white: Rgb = [255, 255, 255];
  const yellow: Rgb = [250, 220, 40];
  return (x: number, y: number): Rgb => {
    if (x < 6 || y < 6 || x >= width - 6 || y >= height - 6) return [10, 10, 10];
    if (y >= height * 0.78 && y < height * 0.78 + 14) return white;
    if (y >= height * 0.9 && y < height * 0.9 + 8 && x > width * 0.2 && x < width * 0.8) return [200, 200, 200];
    if ((x % 120 < 18 && y % 150 < 18) || (x % 97 < 6 && y % 61 < 40)) return yellow;
    return base(x, y);
  };
};

const pngChunk = (type: string, data: Buffer) => {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A valid black-and-white PNG (1 bit a pixel), written by hand because it is quick at any size:
 * 10000x15000 takes a few tens of milliseconds, where an RGB encode by sharp takes seconds.
 * Rows for which `white(y)` is true are white, the others black.
 */
export const bilevelPng = (width: number, height: number, white: (y: number) => boolean) => {
  const rowBytes = Math.ceil(width / 8);
  const whiteRow = Buffer.alloc(1 + rowBytes, 0xff);
  whiteRow[0] = 0; // filter type: none
  const blackRow = Buffer.alloc(1 + rowBytes, 0);
  const rows = Buffer.concat(Array.from({ length: height }, (_, y) => (white(y) ? whiteRow : blackRow)));
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, adaptive filters, not interlaced
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows, { level: 1 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
};
