// Films the playback benches make with ffmpeg (bench/playback-design.ts, bench/playback.ts):
// deterministic lavfi test patterns and a tone, encoded as one block and copied end to end, so a
// long film takes seconds to make. H.264 blocks have B-frames (DTS trails PTS, as in real
// encodes) and keyframes at irregular 2-5 s gaps (as scene cuts give); the audio is AC-3 5.1,
// which no browser plays.
import { rmSync, writeFileSync } from 'node:fs';
import { runBounded } from '../lib/util/executable';

export const FPS = 24;

/** Runs ffmpeg to its end (at most 10 minutes); rejects with its last words. */
export const ffmpeg = async (args: string[]): Promise<void> => {
  const run = await runBounded('ffmpeg', ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', ...args], { timeoutMs: 600_000 });
  if (run.code !== 0) throw new Error(`ffmpeg ${args.join(' ')}: ${run.startError ?? `exited ${run.code}: ${run.stderr.trim()}`}`);
};

/** Keyframe times at irregular gaps of 2-5 s on the frame grid, the same every run (a fixed seed). */
export const irregularKeyframes = (seconds: number): string => {
  const times: string[] = [];
  let seed = 7;
  for (let t = 0; ;) {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    t = Math.round((t + 2 + 3 * (seed / 2 ** 31)) * FPS) / FPS;
    if (t >= seconds) return times.join(',');
    times.push(t.toFixed(4));
  }
};

const testPattern = (size: string, seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc2=size=${size}:rate=${FPS}`,
  '-f',
  'lavfi',
  '-i',
  'sine=frequency=440:sample_rate=48000',
  '-t',
  String(seconds),
  '-map',
  '0:v',
  '-map',
  '1:a',
];
const AC3_51 = ['-c:a', 'ac3', '-b:a', '640k', '-ac', '6'];

/** A block of H.264 at `kbps` (x264 ultrafast, 3 B-frames, irregular keyframes) with AC-3 5.1, in Matroska. */
export const h264Block = (path: string, size: string, kbps: number, seconds: number) =>
  ffmpeg([
    ...testPattern(size, seconds),
    '-c:v',
    'libx264',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p',
    '-x264-params',
    'bframes=3:keyint=300:min-keyint=24:scenecut=0',
    '-force_key_frames',
    irregularKeyframes(seconds),
    '-b:v',
    `${kbps}k`,
    '-maxrate',
    `${Math.round(kbps * 1.2)}k`,
    '-bufsize',
    `${kbps * 2}k`,
    ...AC3_51,
    path,
  ]);

/** A block of HEVC 10-bit 1080p at 4 Mb/s (x265 ultrafast, a keyframe every `keyintS` s) with AC-3 5.1. */
export const hevcBlock = (path: string, seconds: number, keyintS: number) =>
  ffmpeg([
    ...testPattern('1920x1080', seconds),
    '-c:v',
    'libx265',
    '-preset',
    'ultrafast',
    '-pix_fmt',
    'yuv420p10le',
    '-x265-params',
    `keyint=${keyintS * FPS}:min-keyint=${2 * FPS}:scenecut=0:log-level=error`,
    '-b:v',
    '4000k',
    ...AC3_51,
    path,
  ]);

/** `count` copies of `block` end to end at `path`, by stream copy (the concat demuxer keeps the timeline continuous); the block goes. */
export const concatCopies = async (block: string, blockS: number, count: number, path: string): Promise<string> => {
  const list = `${path}.list`;
  writeFileSync(list, Array.from({ length: count }, () => `file '${block}'\nduration ${blockS}\n`).join(''));
  await ffmpeg(['-f', 'concat', '-safe', '0', '-i', list, '-map', '0', '-c', 'copy', path]);
  rmSync(list);
  rmSync(block);
  return path;
};
