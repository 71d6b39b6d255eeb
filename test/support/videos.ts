// Small real videos made by Debian's ffmpeg (`apt-get install ffmpeg`), for tests and benches
// that need actual media: a test pattern and a tone, encoded in a second or less each. Tests
// that use them skip when ffmpeg is missing, except under MLS_REQUIRE_BROWSER=1 (CI), as
// test/browser/playback.test.ts does.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { ffmpeg } from './ffmpeg';

export interface VideoOptions {
  seconds?: number;
  /** WIDTHxHEIGHT */
  size?: string;
}

let ffmpegFound: boolean | undefined;
export const hasFfmpeg = (): boolean => {
  if (ffmpegFound === undefined) {
    try {
      execFileSync('ffmpeg', ['-version'], { stdio: 'ignore' });
      ffmpegFound = true;
    } catch {
      ffmpegFound = false;
    }
  }
  return ffmpegFound;
};

let x265Found: boolean | undefined;
/** Whether this ffmpeg can encode HEVC (Debian's can, through libx265). */
export const hasHevcEncoder = (): boolean =>
  (x265Found ??= hasFfmpeg() && execFileSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8' }).includes('libx265'));

/** Input options for a test pattern and `tones.length` sine tones, each its own input. */
const sources = ({ seconds = 3, size = '320x240' }: VideoOptions, tones = [440]) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=${size}:rate=25:duration=${seconds}`,
  ...tones.flatMap((hz) => ['-f', 'lavfi', '-i', `sine=frequency=${hz}:duration=${seconds}`]),
];

const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '25'];

/**
 * H.264 + AAC in MP4, the audio tagged `eng`. `faststart: false` leaves the index (moov) at
 * the end, as many recorders and downloads do, so a truncated copy keeps no stream information.
 */
export const makeMp4 = (path: string, { faststart = true, ...options }: VideoOptions & { faststart?: boolean } = {}) => {
  ffmpeg([
    ...sources(options),
    ...H264,
    '-c:a',
    'aac',
    '-b:a',
    '64k',
    '-metadata:s:a:0',
    'language=eng',
    ...(faststart ? ['-movflags', '+faststart'] : []),
    path,
  ]);
  return path;
};

/** The subtitles makeMkv muxes in: two cues within the first three seconds. */
export const SUBRIP_CUES = '1\n00:00:00,500 --> 00:00:01,500\nHallo\n\n2\n00:00:01,800 --> 00:00:02,800\nWelt\n';

/**
 * Matroska with HEVC (H.264 where libx265 is missing), two audio tracks (AC-3 `eng`, AAC
 * `fra`) and SubRip subtitles tagged `ger`.
 */
export const makeMkv = (path: string, options: VideoOptions = {}) => {
  const srt = `${path}.srt`;
  writeFileSync(srt, SUBRIP_CUES);
  try {
    const video = hasHevcEncoder()
      ? ['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-x265-params', 'log-level=error']
      : H264;
    ffmpeg([
      ...sources(options, [440, 660]),
      '-i',
      srt,
      '-map',
      '0',
      '-map',
      '1',
      '-map',
      '2',
      '-map',
      '3',
      ...video,
      '-c:a:0',
      'ac3',
      '-c:a:1',
      'aac',
      '-c:s',
      'srt',
      '-metadata:s:a:0',
      'language=eng',
      '-metadata:s:a:1',
      'language=fra',
      '-metadata:s:s:0',
      'language=ger',
      path,
    ]);
  } finally {
    rmSync(srt, { force: true });
  }
  return path;
};

/** VP9 + Opus in WebM. */
export const makeWebm = (path: string, options: VideoOptions = {}) => {
  ffmpeg([
    ...sources(options),
    '-c:v',
    'libvpx-vp9',
    '-b:v',
    '200k',
    '-g',
    '25',
    '-deadline',
    'realtime',
    '-cpu-used',
    '8',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'libopus',
    '-b:a',
    '48k',
    path,
  ]);
  return path;
};
