// The four colours of an item's mesh gradient, taken from its poster: one per corner (top-left,
// top-right, bottom-left, bottom-right), each the colour a viewer would name for that part of
// the poster. A plain mean would blend a red coat and a blue sky into a muddy purple that is in
// neither, so each quadrant's colours are binned and the most populous colour wins (the mean
// of its own pixels).
import { openImage, toImageError } from './image-input';
import type { Colors } from './mesh-gradient';

/**
 * The poster is sampled once at this size (stretched to fit: each quadrant stays a quadrant).
 * 1,536 pixels a quadrant are plenty for a mode, and JPEG's shrink-on-load means a poster is
 * decoded already scaled down, never at full size.
 */
const SAMPLE_WIDTH = 64;
const SAMPLE_HEIGHT = 96;

/** Bits kept per channel: 16 levels, 4,096 bins, each 16 wide. */
const BIN_BITS = 4;
const LEVELS = 1 << BIN_BITS;

/**
 * A bin's score also counts its neighbours (3x3x3 bins, 48 levels wide in each channel), so a
 * textured or noisy area whose pixels straddle bin edges still adds up as one colour.
 */
const NEIGHBOURHOOD = 1;

/**
 * How much more a fully saturated pixel counts than a grey one (1 = twice as much), so a
 * poster's subject can win over a slightly larger dark, flat area. A quadrant over two thirds
 * black still comes out black, even against a fully saturated colour.
 */
const VIVID_BONUS = 1;

/** A 64x96 sample takes milliseconds; this only stops a pathological file. */
const TIMEOUT_SECONDS = 5;

interface Region {
  left: number;
  top: number;
  width: number;
  height: number;
}

interface Sample {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

/**
 * Throws ImageError when the bytes are not a usable image. Transparent parts are flattened on
 * black: clients show posters on dark screens, where a transparent corner reads as dark, and a
 * dark gradient keeps white titles readable over it.
 */
export const posterColors = async (image: Buffer | Uint8Array): Promise<Colors> => {
  const sample = await samplePoster(image);
  const [topLeft, topRight, bottomLeft, bottomRight] = quadrants(sample.width, sample.height);
  return [
    dominantColour(sample, topLeft!),
    dominantColour(sample, topRight!),
    dominantColour(sample, bottomLeft!),
    dominantColour(sample, bottomRight!),
  ];
};

/** Upright, opaque, sRGB (greyscale and CMYK converted), 8 bits a channel. */
const samplePoster = async (image: Buffer | Uint8Array): Promise<Sample> => {
  try {
    const { data, info } = await openImage(image, { timeoutSeconds: TIMEOUT_SECONDS })
      .flatten({ background: '#000000' })
      .resize(SAMPLE_WIDTH, SAMPLE_HEIGHT, { fit: 'fill' })
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (error) {
    throw toImageError(error);
  }
};

/** Top-left, top-right, bottom-left, bottom-right; an odd middle row or column belongs to both sides. */
const quadrants = (width: number, height: number): Region[] => {
  const leftWidth = Math.ceil(width / 2);
  const topHeight = Math.ceil(height / 2);
  const rightLeft = Math.floor(width / 2);
  const bottomTop = Math.floor(height / 2);
  return [
    { left: 0, top: 0, width: leftWidth, height: topHeight },
    { left: rightLeft, top: 0, width: width - rightLeft, height: topHeight },
    { left: 0, top: bottomTop, width: leftWidth, height: height - bottomTop },
    { left: rightLeft, top: bottomTop, width: width - rightLeft, height: height - bottomTop },
  ];
};

/** Pixel counts and channel sums per colour bin. */
interface Histogram {
  counts: Uint32Array;
  sums: Float64Array;
  /** The bins that hold any pixel, so the scoring never walks the empty ones. */
  used: number[];
}

const binOf = (r: number, g: number, b: number) => {
  const shift = 8 - BIN_BITS;
  return ((r >> shift) * LEVELS + (g >> shift)) * LEVELS + (b >> shift);
};

const histogramOf = ({ data, width, channels }: Sample, region: Region): Histogram => {
  const counts = new Uint32Array(LEVELS ** 3);
  const sums = new Float64Array(LEVELS ** 3 * 3);
  const used: number[] = [];
  for (let y = region.top; y < region.top + region.height; y++) {
    for (let x = region.left; x < region.left + region.width; x++) {
      const i = (y * width + x) * channels;
      const r = data[i]!;
      const g = data[i + 1]!;
      const b = data[i + 2]!;
      const bin = binOf(r, g, b);
      const count = counts[bin]!;
      if (count === 0) used.push(bin);
      counts[bin] = count + 1;
      sums[bin * 3] = sums[bin * 3]! + r;
      sums[bin * 3 + 1] = sums[bin * 3 + 1]! + g;
      sums[bin * 3 + 2] = sums[bin * 3 + 2]! + b;
    }
  }
  return { counts, sums, used };
};

/** The bins around `bin` (itself included), clipped at the edges of the colour cube. */
const neighbours = (bin: number): number[] => {
  const r = Math.floor(bin / LEVELS ** 2);
  const g = Math.floor(bin / LEVELS) % LEVELS;
  const b = bin % LEVELS;
  const found: number[] = [];
  for (let dr = -NEIGHBOURHOOD; dr <= NEIGHBOURHOOD; dr++)
    for (let dg = -NEIGHBOURHOOD; dg <= NEIGHBOURHOOD; dg++)
      for (let db = -NEIGHBOURHOOD; db <= NEIGHBOURHOOD; db++) {
        const [nr, ng, nb] = [r + dr, g + dg, b + db];
        if (nr >= 0 && nr < LEVELS && ng >= 0 && ng < LEVELS && nb >= 0 && nb < LEVELS) found.push((nr * LEVELS + ng) * LEVELS + nb);
      }
  return found;
};

/** Chroma (max minus min channel, 0..1) of a bin's mean colour: 0 for greys, black and white. */
const vividness = ({ counts, sums }: Histogram, bin: number) => {
  const n = counts[bin]!;
  const channels = [sums[bin * 3]! / n, sums[bin * 3 + 1]! / n, sums[bin * 3 + 2]! / n];
  return (Math.max(...channels) - Math.min(...channels)) / 255;
};

const dominantColour = (sample: Sample, region: Region): string => {
  const histogram = histogramOf(sample, region);
  const weighted = new Float64Array(histogram.counts.length);
  for (const bin of histogram.used) weighted[bin] = histogram.counts[bin]! * (1 + VIVID_BONUS * vividness(histogram, bin));

  let best = histogram.used[0]!;
  let bestScore = -1;
  for (const bin of histogram.used) {
    const score = neighbours(bin).reduce((sum, n) => sum + weighted[n]!, 0);
    if (score > bestScore) [best, bestScore] = [bin, score];
  }
  return meanColour(histogram, neighbours(best));
};

/** The plain (unweighted) mean of every pixel in the given bins. */
const meanColour = ({ counts, sums }: Histogram, bins: number[]): string => {
  let [n, r, g, b] = [0, 0, 0, 0];
  for (const bin of bins) {
    n += counts[bin]!;
    r += sums[bin * 3]!;
    g += sums[bin * 3 + 1]!;
    b += sums[bin * 3 + 2]!;
  }
  return `#${toHexByte(r / n)}${toHexByte(g / n)}${toHexByte(b / n)}`;
};

const toHexByte = (value: number) =>
  Math.round(Math.min(255, Math.max(0, value)))
    .toString(16)
    .padStart(2, '0');
