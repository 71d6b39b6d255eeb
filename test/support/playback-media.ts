// A small library of real films in the formats people own (AC-3, DTS, HEVC 10-bit, XviD, MPEG-2,
// WMV, two audio tracks, AAC in Matroska, a damaged file), made by Debian's ffmpeg for the
// playback tests and benches: each file is something a browser cannot play as it is, so the
// server must remux, transcode or refuse it. Callers skip without ffmpeg (hasFfmpeg, from
// ./videos), as the tests that use ./videos do.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasHevcEncoder } from './videos';
import { ffmpeg } from './ffmpeg';

export { hasFfmpeg, hasHevcEncoder } from './videos';

export interface PlaybackFixture {
  /** File name inside the folder, named as a film so the scanner parses it: `Title (Year).ext` */
  file: string;
  /** The title part of the file name, e.g. 'Pb Mkv Ac3'. */
  title: string;
  year: number;
  /** What a browser cannot play in it, as the server's playback decision should find. */
  expect: 'remux' | 'transcode' | 'unplayable';
}

interface Source {
  seconds: number;
  /** WIDTHxHEIGHT */
  size: string;
}

interface Recipe extends PlaybackFixture {
  /** Writes the file at `path`. */
  make: (path: string, source: Source) => void;
  /** Only where this ffmpeg has the encoder (libx265 is optional). */
  available?: () => boolean;
}

/**
 * Muxer options by the path's extension, then the path. ffmpeg's Matroska muxer marks no track
 * default unless told (`passthrough`); `infer` marks the first of each kind, or the one whose
 * disposition says so, as mkvmerge and real releases do. MP4 gets its index up front, as
 * streaming downloads have it.
 */
const MUXER_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  mkv: ['-default_mode', 'infer'],
  mp4: ['-movflags', '+faststart'],
  ts: ['-f', 'mpegts'],
  wmv: ['-f', 'asf'],
};
const output = (path: string) => [...(MUXER_OPTIONS[path.slice(path.lastIndexOf('.') + 1)] ?? []), path];

/** Input options for a moving test pattern and one 48 kHz sine tone per entry of `tones`, each its own input. */
const sources = ({ seconds, size }: Source, tones = [440]) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=${size}:rate=25:duration=${seconds}`,
  ...tones.flatMap((hz) => ['-f', 'lavfi', '-i', `sine=frequency=${hz}:sample_rate=48000:duration=${seconds}`]),
];

// A keyframe every 2 s and B-frames, as in real films, so seeking and remuxing meet what they
// meet in the wild (reordered timestamps, cuts only at keyframes).
const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', '50', '-bf', '2'];
// 5.1 like a disc's track: the mono tone lands in the centre channel. The dca encoder takes only
// 5.1(side), which ffmpeg picks by itself, and it is what the AC-3 and DTS decoders report anyway.
const SURROUND = ['-ac', '6', '-ar', '48000'];
const STEREO = ['-ac', '2', '-ar', '48000'];

/** H.264 with one audio track (encoder and its options), in the container the path's extension names. */
const h264With = (audio: string[]) => (path: string, source: Source) => ffmpeg([...sources(source), ...H264, ...audio, ...output(path)]);

const makeDamaged = (path: string, source: Source) => {
  // A real Matroska start (EBML header, the segment and its seek head) so the file is sniffed as
  // Matroska, then noise where the tracks and clusters should be: the demuxer finds no stream.
  const scratch = mkdtempSync(join(tmpdir(), 'pb-damaged-'));
  try {
    const whole = join(scratch, 'whole.mkv');
    // Bit-exact, so the header carries no random segment UID and the file is the same every run.
    ffmpeg([
      ...sources({ ...source, seconds: Math.min(source.seconds, 2) }),
      ...H264,
      '-c:a',
      'aac',
      ...STEREO,
      '-fflags',
      '+bitexact',
      ...output(whole),
    ]);
    const head = readFileSync(whole).subarray(0, 300);
    writeFileSync(path, Buffer.concat([head, noise(200 * 1024, 0x9e3779b9)]));
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

/** `length` pseudo-random bytes from xorshift32, the same for the same seed, so every run makes the same file. */
const noise = (length: number, seed: number) => {
  const bytes = Buffer.alloc(length);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes[i] = x & 0xff;
  }
  return bytes;
};

const film = (
  title: string,
  year: number,
  ext: string,
  expect: PlaybackFixture['expect'],
  make: Recipe['make'],
  available?: () => boolean,
): Recipe => ({
  file: `${title} (${year}).${ext}`,
  title,
  year,
  expect,
  make,
  ...(available ? { available } : {}),
});

// Titles start with "Pb " and years differ, so no two films match each other (or anything else)
// in the scanner. Every title parses back whole (codec words before the year stay in the title).
const RECIPES: readonly Recipe[] = [
  // Browsers play none of AC-3, E-AC-3 or DTS, nor Matroska: the audio is converted, the video copied.
  film('Pb Mkv Ac3', 2001, 'mkv', 'remux', h264With(['-c:a', 'ac3', ...SURROUND])),
  film('Pb Mkv Eac3', 2002, 'mkv', 'remux', h264With(['-c:a', 'eac3', ...SURROUND])),
  // ffmpeg's DTS encoder is marked experimental.
  film('Pb Mkv Dts', 2003, 'mkv', 'remux', h264With(['-c:a', 'dca', '-strict', '-2', ...SURROUND])),
  // MP4 is a browser container, but its AC-3 is still not browser audio.
  film('Pb Mp4 Ac3', 2004, 'mp4', 'remux', h264With(['-c:a', 'ac3', ...SURROUND])),
  // HEVC (Main 10, as 4K and anime releases are) is not browser video: the video is converted.
  film(
    'Pb Hevc Main10',
    2005,
    'mkv',
    'transcode',
    (path, source) =>
      ffmpeg([
        ...sources(source),
        '-c:v',
        'libx265',
        '-preset',
        'ultrafast',
        '-pix_fmt',
        'yuv420p10le',
        '-x265-params',
        'log-level=error:keyint=50:min-keyint=50',
        '-c:a',
        'aac',
        '-b:a',
        '96k',
        ...STEREO,
        ...output(path),
      ]),
    hasHevcEncoder,
  ),
  // The XviD-era AVI: MPEG-4 Part 2 with MP3.
  film('Pb Avi Xvid', 2006, 'avi', 'transcode', (path, source) =>
    ffmpeg([
      ...sources(source),
      '-c:v',
      'mpeg4',
      '-vtag',
      'XVID',
      '-q:v',
      '5',
      '-g',
      '50',
      '-c:a',
      'libmp3lame',
      '-b:a',
      '128k',
      ...STEREO,
      ...output(path),
    ]),
  ),
  // A DVB or DVD recording: MPEG-2 video with MP2 in a transport stream.
  film('Pb Mpeg2 Ts', 2007, 'ts', 'transcode', (path, source) =>
    ffmpeg([
      ...sources(source),
      '-c:v',
      'mpeg2video',
      '-q:v',
      '5',
      '-g',
      '50',
      '-bf',
      '2',
      '-c:a',
      'mp2',
      '-b:a',
      '192k',
      ...STEREO,
      ...output(path),
    ]),
  ),
  film('Pb Wmv', 2008, 'wmv', 'transcode', (path, source) =>
    ffmpeg([...sources(source), '-c:v', 'wmv2', '-q:v', '5', '-g', '50', '-c:a', 'wmav2', '-b:a', '128k', ...STEREO, ...output(path)]),
  ),
  // The default track is the second one (French AC-3), not the first (English AAC, which a
  // browser could play): the decision must follow the default flag and so remux, not play directly.
  film('Pb Two Tracks', 2009, 'mkv', 'remux', (path, source) =>
    ffmpeg([
      ...sources(source, [440, 660]),
      '-map',
      '0:v',
      '-map',
      '1:a',
      '-map',
      '2:a',
      ...H264,
      '-c:a:0',
      'aac',
      '-b:a:0',
      '96k',
      '-ac:a:0',
      '2',
      '-c:a:1',
      'ac3',
      '-ac:a:1',
      '6',
      '-ar',
      '48000',
      '-metadata:s:a:0',
      'language=eng',
      '-metadata:s:a:1',
      'language=fra',
      '-disposition:a:0',
      '0',
      '-disposition:a:1',
      'default',
      ...output(path),
    ]),
  ),
  // AAC a browser plays, in Matroska it does not: only the container changes, the audio is
  // copied as it is (mono at 44.1 kHz, which an encoded track would not be: AAC stereo at 48 kHz).
  film('Pb Mkv Aac', 2014, 'mkv', 'remux', h264With(['-c:a', 'aac', '-b:a', '64k', '-ac', '1', '-ar', '44100'])),
  film('Pb Damaged', 2010, 'mkv', 'unplayable', makeDamaged),
];

/** Every fixture, including the HEVC one that makePlaybackLibrary leaves out where libx265 is missing. */
export const PLAYBACK_FIXTURES: readonly PlaybackFixture[] = RECIPES.map(({ file, title, year, expect }) => ({
  file,
  title,
  year,
  expect,
}));

/**
 * Writes every fixture into `dir` (which exists), or those whose titles `only` names, and returns
 * the fixtures written: 12 s of 320x240 at 25 fps by default, a few seconds' work in all.
 */
export const makePlaybackLibrary = (
  dir: string,
  { seconds = 12, size = '320x240', only }: { seconds?: number; size?: string; only?: readonly string[] } = {},
): PlaybackFixture[] => {
  const written: PlaybackFixture[] = [];
  for (const { make, available, ...fixture } of RECIPES) {
    if ((available && !available()) || (only && !only.includes(fixture.title))) continue;
    make(join(dir, fixture.file), { seconds, size });
    written.push(fixture);
  }
  return written;
};
