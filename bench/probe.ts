// The technical-info part of the bench: how long one probe takes on the files a test makes
// (an MP4, a Matroska file with three extra tracks, a WebM, and a one-minute MP4 with its
// index at the end, which makes MediaInfoLib jump), how long a MediaInfoLib instance takes to
// start, and what a second or fourth instance buys when probes overlap (the choice of
// PROBE_INSTANCES). Needs Debian's ffmpeg to make the files.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProber, fileByteSource, type ByteSource, type Prober } from '../lib/media/probe';
import { hasFfmpeg, makeMkv, makeMp4, makeWebm } from '../test/support/videos';
import { median } from './support';

const ROUNDS = 15;
/** The first rounds warm the JIT and the page cache; a scan of thousands of files runs warm. */
const WARM_UP = 3;

const round = (ms: number, digits: number) => Number(ms.toFixed(digits));

/** The generated files in a temporary folder, removed after `work`. */
const withFiles = async <T>(work: (paths: string[]) => Promise<T>): Promise<T> => {
  if (!hasFfmpeg()) throw new Error('the probe bench needs ffmpeg (apt-get install ffmpeg)');
  const dir = mkdtempSync(join(tmpdir(), 'mls-bench-probe-'));
  try {
    return await work([
      makeMp4(join(dir, 'clip.mp4')),
      makeMkv(join(dir, 'clip.mkv')),
      makeWebm(join(dir, 'clip.webm')),
      makeMp4(join(dir, 'minute.mp4'), { seconds: 60, size: '640x360', faststart: false }),
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const probePath = async (prober: Prober, path: string, readDelayMs = 0) => {
  const file = await fileByteSource(path);
  const source: ByteSource = readDelayMs
    ? { size: file.size, read: async (offset, length) => (await new Promise((r) => setTimeout(r, readDelayMs)), file.read(offset, length)) }
    : file;
  try {
    return await prober.probe(source);
  } finally {
    await file.close();
  }
};

/** Milliseconds per file of a round (each file probed once, one at a time), median of the rounds after a warm-up. */
export async function measureProbe(): Promise<{ msPerFile: number; files: number }> {
  return withFiles(async (paths) => {
    const prober = createProber();
    const perFile: number[] = [];
    for (let i = 0; i < WARM_UP + ROUNDS; i++) {
      const started = performance.now();
      for (const path of paths) await probePath(prober, path);
      if (i >= WARM_UP) perFile.push((performance.now() - started) / paths.length);
    }
    return { msPerFile: round(median(perFile), 2), files: paths.length };
  });
}

/**
 * What a cold process (a cold Lambda) pays before its first report: starting a MediaInfoLib
 * instance (the WebAssembly compiled and instantiated), then the first probe's extra time, as
 * V8 compiles the parser's functions on their first call. Meaningful only as the first
 * measurement of the process.
 */
export async function measureProbeStartup(): Promise<{ startMs: number; firstProbeMs: number; warmProbeMs: number }> {
  return withFiles(async ([path]) => {
    const prober = createProber(1);
    const started = performance.now();
    await probePath(prober, path!);
    const coldMs = performance.now() - started;
    const warm: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const again = performance.now();
      await probePath(prober, path!);
      warm.push(performance.now() - again);
    }
    const startMs = prober.startupMs[0]!;
    return { startMs: round(startMs, 1), firstProbeMs: round(coldMs - startMs, 1), warmProbeMs: round(median(warm), 1) };
  });
}

/**
 * Files per second with 1, 2 and 4 instances, 16 probes in flight over the generated files,
 * read from local disk and with a 20 ms wait before each read (about a ranged GET on S3).
 */
export async function measureProbePool(): Promise<Array<{ instances: number; readDelayMs: number; filesPerSecond: number }>> {
  return withFiles(async (paths) => {
    const rows = [];
    for (const readDelayMs of [0, 20]) {
      for (const instances of [1, 2, 4]) {
        const prober = createProber(instances);
        const batch = Array.from({ length: 16 }, (_, i) => paths[i % paths.length]!);
        await Promise.all(batch.map((path) => probePath(prober, path, readDelayMs)));
        const runs: number[] = [];
        for (let i = 0; i < 3; i++) {
          const started = performance.now();
          await Promise.all(batch.map((path) => probePath(prober, path, readDelayMs)));
          runs.push(batch.length / ((performance.now() - started) / 1000));
        }
        rows.push({ instances, readDelayMs, filesPerSecond: round(median(runs), 1) });
      }
    }
    return rows;
  });
}
