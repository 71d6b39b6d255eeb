// The artwork part of the bench: how long the mesh gradient colours of one poster take (the
// target is 20 ms for a 500x750 JPEG), and how long one 780-wide variant takes to render as
// WebP and as AVIF, the numbers behind negotiateFormat's preference for WebP.
import { renderVariant } from '../lib/artwork/variants';
import { posterColors } from '../lib/media/poster-colors';
import { detailedQuadrants, paintedJpeg, seededRandom, type QuadrantColours, type Rgb } from '../test/support/posters';
import { median } from './support';

/** Different posters, so no cache (sharp's or the CPU's) serves one poster's work to the next. */
const POSTERS = 200;
/** The first calls load libvips' JPEG decoder and warm the JIT; they are not what a scan sees. */
const WARM_UP = 20;
const VARIANT_RUNS = 5;

const randomPalette = (seed: number): QuadrantColours => {
  const next = seededRandom(seed);
  const colour = (): Rgb => [next() * 255, next() * 255, next() * 255];
  return [colour(), colour(), colour(), colour()];
};

/** Milliseconds `work` takes, one call at a time. */
const timeEach = async <T>(inputs: T[], work: (input: T) => Promise<unknown>) => {
  const times: number[] = [];
  for (const input of inputs) {
    const started = performance.now();
    await work(input);
    times.push(performance.now() - started);
  }
  return times;
};

const round = (ms: number, digits: number) => Number(ms.toFixed(digits));

/** The median time of posterColors over 200 different noisy 500x750 JPEG posters, after a warm-up. */
export async function measurePosterColors(): Promise<{ msPerPoster: number; samples: number }> {
  const posters: Buffer[] = [];
  for (let seed = 1; seed <= POSTERS; seed++)
    posters.push(await paintedJpeg(detailedQuadrants(randomPalette(seed)), { noise: 30, seed }));
  await timeEach(posters.slice(0, WARM_UP), posterColors);
  const times = await timeEach(posters, posterColors);
  return { msPerPoster: round(median(times), 2), samples: times.length };
}

/**
 * The median time of renderVariant from a 2000x3000 JPEG (TMDB's original poster size) to a
 * 780-wide WebP and AVIF, decoding and resizing included, as the artwork route does. The
 * poster is shaded like a photograph (smooth light, mild grain): pure noise would make both
 * encoders, AVIF above all, far slower than on a real poster.
 */
export async function measureVariant(): Promise<{ webpMs: number; avifMs: number }> {
  const [width, height] = [2000, 3000];
  const flat = detailedQuadrants(randomPalette(7), width, height);
  const shaded = (x: number, y: number): Rgb => {
    const light = 0.6 + 0.4 * Math.sin(x / 180) * Math.cos(y / 260);
    const [r, g, b] = flat(x, y);
    return [r * light + 40 * Math.sin(y / 100), g * light, b * light + 30 * Math.cos(x / 140)];
  };
  const source = await paintedJpeg(shaded, { width, height, noise: 6 });
  const timeFormat = async (format: 'webp' | 'avif') => {
    await renderVariant(source, { width: 780, format });
    const runs = Array.from({ length: VARIANT_RUNS }, () => source);
    return round(median(await timeEach(runs, (input) => renderVariant(input, { width: 780, format }))), 0);
  };
  return { webpMs: await timeFormat('webp'), avifMs: await timeFormat('avif') };
}
