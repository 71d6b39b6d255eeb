// Subtitle streams inside a video file, taken out as WebVTT by ffmpeg and kept under DATA_DIR.
// Reading a stream means reading the whole file (its packets are spread through it), so one
// ffmpeg run takes every text stream of the file at once and each lands in the cache: asking
// for the second language costs nothing more. Runs are bounded in time and output size, one
// per file at a time (a lock file shared by every process of the service), and a run that
// fails leaves a marker, so the same broken file is not read again at every request.
//
// Layout: <cacheDir>/<mediaId>/<video version>/<stream>.vtt, where the version is the video's
// size and mtime: a replaced file gets a fresh folder, and the old ones go with it.
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isId } from '../api/schemas/common';
import { findExecutable, lastLine, runBounded } from '../util/executable';
import { within } from '../util/within';
import { writeWhole } from '../util/write-whole';
import { MAX_SUBTITLE_BYTES } from './decode';

export interface ExtractorOptions {
  /** `ffmpeg` (looked up on PATH), an absolute path to it, or `off`. */
  ffmpeg: string;
  cacheDir: string;
  /** A run that takes longer is stopped and counts as failed. */
  timeoutMs: number;
}

/** The video whose streams are wanted, as the stream endpoint located it. */
export interface VideoFile {
  mediaId: string;
  path: string;
  size: number;
  mtimeMs: number;
}

/** What the scan needs of the cache: to drop what removed items had. */
export interface SubtitleCache {
  removeAll(mediaIds: readonly string[]): Promise<void>;
  /** Gives back the space of every finished extraction; the bytes freed. */
  clear?(): Promise<number>;
}

export type Extracted = { state: 'ready'; text: string } | { state: 'pending' } | { state: 'failed'; reason: string };

const LOCK = 'extracting.lock';
const FAILED = 'failed.txt';
/** The streams a finished run took, one per line. */
const COMPLETE = 'complete.txt';
/** ffmpeg's stream specifiers as the track list makes them: `0:3`, `0:s:1`. */
const MAP = /^0:(?:s:)?\d{1,3}$/u;
const POLL_MS = 100;
/** A run may try again this long after a failure (a file being copied may be readable later). */
const FAILED_FOR_MS = 10 * 60_000;

const cacheName = (map: string) => `${map.replaceAll(':', '_')}.vtt`;
const versionOf = (video: VideoFile) => `${video.size.toString(16)}-${Math.trunc(video.mtimeMs).toString(16)}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const processAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export class SubtitleExtractor implements SubtitleCache {
  private executable: string | null | undefined;
  /** Runs of this process, by version folder. */
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly options: ExtractorOptions) {}

  /** Whether embedded text streams can be extracted here (looked up once per process). */
  get available(): boolean {
    this.executable ??= findExecutable(this.options.ffmpeg);
    return this.executable !== null;
  }

  /**
   * The WebVTT of stream `wanted`, extracting it (with the file's other text streams `maps`)
   * when the cache does not hold it; 'pending' when that takes longer than `waitMs` (the run
   * carries on, and a later request finds its result).
   */
  async extract(video: VideoFile, wanted: string, maps: readonly string[], waitMs: number): Promise<Extracted> {
    const all = [...new Set([wanted, ...maps])];
    if (!all.every((m) => MAP.test(m))) throw new Error(`Not a stream specifier: ${JSON.stringify(all)}`);
    // Catalogue ids, the only folder names under the cache.
    if (!isId(video.mediaId)) throw new Error(`Not a media id: ${JSON.stringify(video.mediaId)}`);
    const dir = join(this.options.cacheDir, video.mediaId, versionOf(video));
    const deadline = Date.now() + waitMs;
    for (;;) {
      const found = await this.cached(dir, wanted);
      if (found) return found;
      let run = this.running.get(dir);
      if (!run && (await this.claim(dir))) {
        run = this.run(video, dir, all).finally(() => this.running.delete(dir));
        this.running.set(dir, run);
      }
      const left = deadline - Date.now();
      if (left <= 0) return { state: 'pending' };
      // Our own run: wait for it. Another process's: look again shortly.
      await (run ? within(run, left, undefined) : sleep(Math.min(POLL_MS, left)));
    }
  }

  /** Drops everything kept for these items (called once they are gone). */
  async removeAll(mediaIds: readonly string[]): Promise<void> {
    await Promise.all(mediaIds.filter(isId).map((id) => rm(join(this.options.cacheDir, id), { recursive: true, force: true })));
  }

  /**
   * Gives back the space of every finished extraction (taken out again when asked for); one
   * running now keeps its folder. The bytes freed.
   */
  async clear(): Promise<number> {
    const { cacheDir } = this.options;
    const list = (dir: string) => readdir(dir).catch(() => [] as string[]);
    let freed = 0;
    for (const item of await list(cacheDir)) {
      for (const version of await list(join(cacheDir, item))) {
        const dir = join(cacheDir, item, version);
        const names = await list(dir);
        if (names.includes(LOCK)) continue;
        for (const name of names)
          freed += await stat(join(dir, name)).then(
            (s) => s.size,
            () => 0,
          );
        await rm(dir, { recursive: true, force: true });
      }
    }
    return freed;
  }

  private async cached(dir: string, wanted: string): Promise<Extracted | undefined> {
    const text = await readFile(join(dir, cacheName(wanted)), 'utf8').catch(() => undefined);
    if (text !== undefined) return { state: 'ready', text };
    const failed = await stat(join(dir, FAILED)).catch(() => undefined);
    if (failed && Date.now() - failed.mtimeMs < FAILED_FOR_MS) {
      return { state: 'failed', reason: await readFile(join(dir, FAILED), 'utf8').catch(() => 'unknown') };
    }
    // A finished run that took this stream but wrote nothing for it (no packets): an empty track.
    const done = await readFile(join(dir, COMPLETE), 'utf8').catch(() => '');
    if (done.split('\n').includes(wanted)) return { state: 'ready', text: 'WEBVTT\n' };
    return undefined;
  }

  /** Takes the folder's lock: false while another live process holds it. A lock left by a dead or stuck process is taken over. */
  private async claim(dir: string): Promise<boolean> {
    await mkdir(dir, { recursive: true });
    const lock = join(dir, LOCK);
    const write = async () => {
      const file = await open(lock, 'wx');
      await file.writeFile(JSON.stringify({ pid: process.pid, at: Date.now() }));
      await file.close();
      return true;
    };
    try {
      return await write();
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const held = await readFile(lock, 'utf8')
      .then((t) => JSON.parse(t) as { pid: number; at: number })
      .catch(() => undefined);
    if (held && processAlive(held.pid) && Date.now() - held.at < this.options.timeoutMs + 10_000) return false;
    await rm(lock, { force: true });
    return write().catch(() => false);
  }

  /** Never rejects: a failure is written into the folder. */
  private async run(video: VideoFile, dir: string, maps: readonly string[]): Promise<void> {
    const work = join(dir, `.run-${randomBytes(6).toString('hex')}`);
    try {
      await mkdir(work);
      // Each stream its own output, at most MAX_SUBTITLE_BYTES (-fs), timings kept as they are.
      const outputs = maps.flatMap((map) => [
        '-map',
        map,
        '-c:s',
        'webvtt',
        '-fs',
        String(MAX_SUBTITLE_BYTES),
        '-f',
        'webvtt',
        join(work, cacheName(map)),
      ]);
      const args = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', video.path, ...outputs];
      const failure = await this.ffmpeg(args);
      if (failure) {
        await writeWhole(join(dir, FAILED), failure);
        return;
      }
      for (const map of maps) await rename(join(work, cacheName(map)), join(dir, cacheName(map))).catch(() => undefined);
      await writeWhole(join(dir, COMPLETE), maps.join('\n'));
      await rm(join(dir, FAILED), { force: true });
      // Older versions of the same item's file are of no use now.
      const parent = join(this.options.cacheDir, video.mediaId);
      const versions = await readdir(parent).catch(() => [] as string[]);
      await Promise.all(versions.filter((v) => join(parent, v) !== dir).map((v) => rm(join(parent, v), { recursive: true, force: true })));
    } catch (err) {
      // Nobody may be waiting for this run: its failure is kept where the next request finds it.
      await writeWhole(join(dir, FAILED), `the extraction stopped: ${(err as Error).message}`).catch(() => undefined);
    } finally {
      await rm(work, { recursive: true, force: true });
      await rm(join(dir, LOCK), { force: true });
    }
  }

  /** Runs ffmpeg; the reason it failed, or undefined when it did not. */
  private async ffmpeg(args: string[]): Promise<string | undefined> {
    const { timeoutMs } = this.options;
    const run = await runBounded(this.executable ?? this.options.ffmpeg, args, { timeoutMs });
    if (run.code === 0) return undefined;
    if (run.startError) return `ffmpeg could not be started: ${run.startError}`;
    if (run.timedOut) return `ffmpeg took longer than ${timeoutMs} ms`;
    return `ffmpeg exited with ${run.code ?? 'a signal'}: ${lastLine(run.stderr)}`;
  }
}
