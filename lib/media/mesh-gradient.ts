// Four colours for an item's mesh gradient until it has a poster to take them from: derived
// from the title alone, so the same title always gets the same gradient on every client and
// every rescan. The hues sit close together (an analogous palette) with lightness and
// saturation kept in a band that reads well behind white or black text.
import { createHash } from 'node:crypto';

export type Colors = [string, string, string, string];

const hex = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, '0');

/** HSL (h in degrees, s and l in 0..1) to #rrggbb. */
export const hslToHex = (h: number, s: number, l: number): string => {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return `#${hex(f(0) * 255)}${hex(f(8) * 255)}${hex(f(4) * 255)}`;
};

export const titleColors = (title: string): Colors => {
  const bytes = createHash('sha256').update(title.normalize('NFC').trim().toLowerCase()).digest();
  const base = (bytes.readUInt16BE(0) / 65536) * 360;
  const colour = (i: number): string => {
    const hue = (base + ((bytes[2 + i]! / 255) * 60 - 30) + i * 18 + 360) % 360;
    const saturation = 0.45 + (bytes[6 + i]! / 255) * 0.3;
    const lightness = 0.3 + (bytes[10 + i]! / 255) * 0.3;
    return hslToHex(hue, saturation, lightness);
  };
  return [colour(0), colour(1), colour(2), colour(3)];
};
