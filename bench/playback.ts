// The playback part of `npm run bench` (`tsx bench/run.ts playback` alone): what a viewer waits
// for when a file is converted while it is watched (lib/playback/service.ts), on films this part
// makes with ffmpeg (a 1080p and a 720p H.264 film with AC-3 5.1 in Matroska, remuxed; the same
// films forced to a transcode; an HEVC 10-bit film, transcoded):
//  1. the time from the POST to the whole first segment, over HTTP;
//  2. a seek's segment in a live session, over HTTP;
//  3. the first frame and a seek's frame in Chromium through the web client's player;
//  4. conversion speed (film seconds per wall second), CPU per film second and ffmpeg's peak RSS;
//  5. one to three 1080p transcodes at once;
//  6. a session's disk, and how soon an abandoned or ended session's folder and ffmpeg go.
// Needs Debian's ffmpeg (with libx265) and Chromium. BENCH_PLAYBACK_MINUTES sets the films'
// length (3 by default).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_DIR } from '../infra/project';
import { buildWeb } from '../infra/web-build';
import { launchChromium } from '../test/support/browser';
import { startInstance, type Instance } from '../test/support/instance';
import { mediaOf, scan } from '../test/support/media';
import { concatCopies, h264Block, hevcBlock } from './films';
import { idleShare, machineLine, median, rssMiB, table, writeDoc } from './support';

const MINUTES = Number(process.env.BENCH_PLAYBACK_MINUTES ?? 3);
/** `chromium`: only the rows in Chromium, each seek's timeline printed, no section written (to study a seek). */
const ONLY = process.env.BENCH_PLAYBACK_ONLY;
/** The H.264 films are one encoded block copied end to end. */
const BLOCK_S = 60;
/** The HEVC film: x265 is slow even at ultrafast, so a shorter block copied five times. */
const HEVC_BLOCK_S = 12;
const HEVC_BLOCKS = 5;
/** Sessions measured per start row after the first one. */
const RUNS = 3;
const SPEED_FILM_S = 60;
const TOGETHER_FILM_S = 30;
const SEGMENT_CAP = 12;
const IDLE_S = 60;
/** What makes an H.264 file a transcode: a client that plays VP9 only. */
const FORCE_TRANSCODE = { containers: ['hls'], videoCodecs: ['vp9'], audioCodecs: ['aac'] };

const say = (line: string) => process.stdout.write(`[playback] ${line}\n`);
const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const ms = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '-');
const met = (ok: boolean) => (ok ? 'met' : 'not met');

// ---------------------------------------------------------------------------------------------
// The films

/** An H.264 film, MINUTES long: a BLOCK_S block copied end to end. */
const h264Film = async (dir: string, path: string, size: string, kbps: number) => {
  const block = join(dir, `block-${size}.mkv`);
  await h264Block(block, size, kbps, BLOCK_S);
  await concatCopies(block, BLOCK_S, MINUTES, path);
};

const hevcFilm = async (dir: string, path: string) => {
  const block = join(dir, 'block-hevc.mkv');
  await hevcBlock(block, HEVC_BLOCK_S, 4);
  await concatCopies(block, HEVC_BLOCK_S, HEVC_BLOCKS, path);
};

interface Films {
  remux1080: string;
  remux720: string;
  hevc: string;
}

const FILES: Record<keyof Films, { file: string; year: number }> = {
  remux1080: { file: 'Bench Remux 1080 (2020).mkv', year: 2020 },
  remux720: { file: 'Bench Remux 720 (2021).mkv', year: 2021 },
  hevc: { file: 'Bench Hevc Main10 (2022).mkv', year: 2022 },
};

/** The three at once: each encoder keeps about one core busy at these settings. */
const makeFilms = (dir: string, scratch: string) =>
  Promise.all([
    h264Film(scratch, join(dir, FILES.remux1080.file), '1920x1080', 5000),
    h264Film(scratch, join(dir, FILES.remux720.file), '1280x720', 2500),
    hevcFilm(scratch, join(dir, FILES.hevc.file)),
  ]);

// ---------------------------------------------------------------------------------------------
// The offline process and its ffmpeg children, from /proc

const CLK_TCK = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;

/** Fields of /proc/<pid>/stat after the command's name (the name may hold spaces): index 0 is field 3. */
const statFields = (pid: number) => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return { comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), rest: text.slice(text.lastIndexOf(')') + 2).split(' ') };
  } catch {
    return undefined;
  }
};

/** CPU seconds of the reaped children of `pid` (cutime + cstime, fields 16 and 17). */
const childrenCpuS = (pid: number) => {
  const stat = statFields(pid);
  if (!stat) throw new Error(`process ${pid} is gone`);
  return (Number(stat.rest[13]) + Number(stat.rest[14])) / CLK_TCK;
};

/** The ffmpeg processes `pid` started (any of its threads may have spawned them). */
const ffmpegChildren = (pid: number) => {
  const found: Array<{ pid: number; cmdline: string }> = [];
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const task of tasks) {
    let children: string[];
    try {
      children = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      continue;
    }
    for (const child of children.map(Number)) {
      if (statFields(child)?.comm !== 'ffmpeg') continue;
      let cmdline: string;
      try {
        cmdline = readFileSync(`/proc/${child}/cmdline`, 'utf8').replaceAll('\0', ' ');
      } catch {
        continue;
      }
      found.push({ pid: child, cmdline });
    }
  }
  return found;
};

/**
 * Waits (up to 30 s) until `pid` runs no ffmpeg, so a measurement starts alone: the service makes
 * the next segments ahead of the one asked for (two for a remux, one for a transcode), and those
 * run on after the answer, after a DELETE or a closed page too. The seconds waited.
 */
const quiet = async (pid: number, what?: string) => {
  const t0 = performance.now();
  while (ffmpegChildren(pid).length > 0 && performance.now() - t0 < 30_000) await sleep(50);
  const waitedS = (performance.now() - t0) / 1000;
  if (what && waitedS > 0.5) say(`waited ${f(waitedS, 1)} s for the last ffmpeg to end before ${what}`);
  return waitedS;
};

/** Bytes a folder takes on disk (as du counts: allocated blocks) and its segment files; undefined when it is gone. */
const folderUsage = (dir: string) => {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  let bytes = 0;
  let segments = 0;
  for (const name of names) {
    try {
      bytes += statSync(join(dir, name)).blocks * 512;
      if (/^\d+\.ts$/.test(name)) segments++;
    } catch {
      // removed meanwhile
    }
  }
  return { bytes, segments };
};

/** Peak RSS of any ffmpeg child of `pid` (and optionally a folder's peak size) while `work` runs, every 50 ms. */
const sampled = async <T>(pid: number, folder: string | undefined, work: () => Promise<T>) => {
  let peakRss = 0;
  let peakBytes = 0;
  let peakSegments = 0;
  const sample = () => {
    for (const child of ffmpegChildren(pid)) peakRss = Math.max(peakRss, rssMiB(child.pid));
    const usage = folder ? folderUsage(folder) : undefined;
    if (usage) {
      peakBytes = Math.max(peakBytes, usage.bytes);
      peakSegments = Math.max(peakSegments, usage.segments);
    }
  };
  const timer = setInterval(sample, 50);
  try {
    const result = await work();
    sample();
    return { result, peakRss, peakBytes, peakSegments };
  } finally {
    clearInterval(timer);
  }
};

// ---------------------------------------------------------------------------------------------
// The HTTP side, as a player does it

interface Answer {
  method: 'direct' | 'remux' | 'transcode';
  url: string;
  sessionId: string | null;
  durationSeconds: number | null;
}

/** A failed request, with what the service answered, so the report can quote it. */
const failure = async (what: string, res: Response) => new Error(`${what}: ${res.status} ${(await res.text().catch(() => '')).slice(0, 600)}`);

class Player {
  /** Segments answered 504 (too slow: the API says to ask again) and asked again, as `GET <path>: <body>`. */
  readonly timeouts: string[] = [];

  constructor(private readonly base: string) {}

  async start(mediaId: string, client?: object): Promise<{ answer: Answer; ms: number }> {
    const t0 = performance.now();
    const body = JSON.stringify(client ? { client } : {});
    const res = await fetch(`${this.base}/api/v1/playback/${mediaId}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (res.status !== 200) throw await failure(`POST /api/v1/playback/${mediaId} ${body}`, res);
    const answer = ((await res.json()) as { data: Answer }).data;
    if (!answer.sessionId) throw new Error(`POST /api/v1/playback/${mediaId} ${body}: ${answer.method}, no session`);
    return { answer, ms: performance.now() - t0 };
  }

  /** The playlist's segment durations, in order. */
  async playlist(url: string): Promise<{ durations: number[]; ms: number }> {
    const t0 = performance.now();
    const res = await fetch(url);
    if (res.status !== 200) throw await failure(`GET ${url}`, res);
    const text = await res.text();
    const durations = [...text.matchAll(/^#EXTINF:([\d.]+),/gm)].map((m) => Number(m[1]));
    if (durations.length === 0) throw new Error(`GET ${url}: no segments in\n${text.slice(0, 400)}`);
    return { durations, ms: performance.now() - t0 };
  }

  /** One whole segment: the milliseconds from asking to its last byte (a 504 asked again, twice at most), and its size. */
  async segment(playlistUrl: string, index: number): Promise<{ ms: number; bytes: number }> {
    const url = new URL(`segments/${index}.ts`, playlistUrl).href;
    const t0 = performance.now();
    let res = await fetch(url);
    for (let retry = 0; res.status === 504 && retry < 2; retry++) {
      this.timeouts.push(`GET ${new URL(url).pathname} after ${f((performance.now() - t0) / 1000, 1)} s: ${(await res.text()).slice(0, 200)}`);
      say(`504, asked again: ${this.timeouts.at(-1)}`);
      res = await fetch(url);
    }
    if (res.status !== 200) throw await failure(`GET ${url}`, res);
    const bytes = (await res.arrayBuffer()).byteLength;
    if (bytes === 0) throw new Error(`GET ${url}: an empty segment`);
    return { ms: performance.now() - t0, bytes };
  }

  async end(sessionId: string) {
    const res = await fetch(`${this.base}/api/v1/playback/sessions/${sessionId}`, { method: 'DELETE' });
    if (res.status !== 204 && res.status !== 404) throw await failure(`DELETE /api/v1/playback/sessions/${sessionId}`, res);
    await res.arrayBuffer();
    return res.status;
  }
}

/** How many segments from the start make `filmS` seconds (all of them for a shorter film). */
const segmentsFor = (durations: number[], filmS: number) => {
  let sum = 0;
  let n = 0;
  while (n < durations.length && sum < filmS - 0.5) sum += durations[n++]!;
  return { count: n, seconds: sum };
};

/** Where each segment starts in the film. */
const startsOf = (durations: number[]) => durations.map((_, i) => durations.slice(0, i).reduce((a, b) => a + b, 0));

/** The index of the segment holding film second `t`. */
const segmentAt = (durations: number[], t: number) => {
  const starts = startsOf(durations);
  const i = starts.findIndex((start, k) => t < start + durations[k]!);
  return i < 0 ? durations.length - 1 : i;
};

// ---------------------------------------------------------------------------------------------
// The rows

interface Case {
  label: string;
  film: keyof Films;
  client?: object;
}

const CASES = {
  remux1080: { label: 'remux 1080p (H.264, AC-3 5.1)', film: 'remux1080' },
  remux720: { label: 'remux 720p (H.264, AC-3 5.1)', film: 'remux720' },
  transcode1080: { label: 'transcode 1080p (H.264 source, forced)', film: 'remux1080', client: FORCE_TRANSCODE },
  transcode720: { label: 'transcode 720p (H.264 source, forced)', film: 'remux720', client: FORCE_TRANSCODE },
  hevc: { label: 'transcode HEVC 10-bit 1080p', film: 'hevc' },
} satisfies Record<string, Case>;

interface StartTiming {
  postMs: number;
  playlistMs: number;
  segmentMs: number;
  totalMs: number;
  method: string;
  segmentS: number;
}

/** Row 1: a fresh session, its playlist and its first segment, then DELETE. */
const timeToFirstSegment = async (player: Player, mediaId: string, c: Case): Promise<StartTiming> => {
  const t0 = performance.now();
  const { answer, ms: postMs } = await player.start(mediaId, c.client);
  try {
    const list = await player.playlist(answer.url);
    const seg = await player.segment(answer.url, 0);
    return { postMs, playlistMs: list.ms, segmentMs: seg.ms, totalMs: performance.now() - t0, method: answer.method, segmentS: list.durations[0]! };
  } finally {
    await player.end(answer.sessionId!);
  }
};

/**
 * Row 2: in a live session (its first segment made), segments near the middle never made before:
 * from the furthest back, as the service makes the next ones ahead of each, and each asked with
 * no ffmpeg running.
 */
const seeks = async (instance: Instance, player: Player, mediaId: string, c: Case) => {
  const offline = instance.state().processes.offline!;
  const { answer } = await player.start(mediaId, c.client);
  const folder = join(instance.dataDir, 'playback', answer.sessionId!);
  try {
    const { durations } = await player.playlist(answer.url);
    await player.segment(answer.url, 0);
    const total = durations.reduce((a, b) => a + b, 0);
    const runs: Array<{ index: number; at: number; ms: number }> = [];
    const starts = startsOf(durations);
    for (const share of [0.65, 0.6, 0.55]) {
      await quiet(offline);
      // The segment there, or (in a short film, where the three share one) the nearest one not made yet.
      const at = segmentAt(durations, share * total);
      const free = (i: number) => i > 0 && i < durations.length && !runs.some((r) => r.index === i) && !existsSync(join(folder, `${i}.ts`));
      const index = [0, 1, -1, 2, -2, 3, -3].map((d) => at + d).find(free);
      if (index === undefined) continue;
      runs.push({ index, at: starts[index]!, ms: (await player.segment(answer.url, index)).ms });
    }
    return { method: answer.method, runs, medianMs: median(runs.map((r) => r.ms)) };
  } finally {
    await player.end(answer.sessionId!);
  }
};

interface SpeedRow {
  label: string;
  method: string;
  segments: number;
  filmS: number;
  wallS: number;
  speed: number;
  cpuPerFilmS: number;
  peakRss: number;
  /** The speed over the first `filmS` seconds of the run. */
  speedOver: (filmS: number) => number;
}

/** Row 4: consecutive segments from the start for SPEED_FILM_S of film, one after another. */
const speed = async (instance: Instance, player: Player, mediaId: string, c: Case, disk = false) => {
  const offline = instance.state().processes.offline!;
  const { answer } = await player.start(mediaId, c.client);
  const sessionId = answer.sessionId!;
  const folder = join(instance.dataDir, 'playback', sessionId);
  let ended = false;
  try {
    const { durations } = await player.playlist(answer.url);
    const { count, seconds } = segmentsFor(durations, SPEED_FILM_S);
    const cpu0 = childrenCpuS(offline);
    const t0 = performance.now();
    // When each segment was whole, so a shorter stretch from the start can be read off too.
    const doneAtS: number[] = [];
    let wallS = 0;
    const run = await sampled(offline, folder, async () => {
      for (let i = 0; i < count; i++) {
        await player.segment(answer.url, i);
        doneAtS.push((performance.now() - t0) / 1000);
      }
      wallS = (performance.now() - t0) / 1000;
      // The CPU counts the segments made ahead of the last one asked for, once they are made.
      await quiet(offline);
    });
    const cpuS = childrenCpuS(offline) - cpu0;
    const made = Math.max(count - 1, ...readdirSync(folder).map((n) => /^(\d+)\.ts$/.exec(n)).filter((m) => m !== null).map((m) => Number(m[1]))) + 1;
    const madeS = durations.slice(0, made).reduce((a, b) => a + b, 0);
    const speedOver = (filmS: number) => {
      const part = segmentsFor(durations, filmS);
      return part.seconds / doneAtS[part.count - 1]!;
    };
    const row: SpeedRow = { label: c.label, method: answer.method, segments: count, filmS: seconds, wallS, speed: seconds / wallS, cpuPerFilmS: cpuS / madeS, peakRss: run.peakRss, speedOver };
    say(`${c.label}: ${count} segments, ${f(seconds, 1)} s of film in ${f(wallS)} s = ${f(row.speed)}x; ${made} segments made, ${f(row.cpuPerFilmS)} CPU s per film s; ffmpeg peak ${run.peakRss} MiB`);
    if (!disk) return { row };
    // The disk: the rest of the film, one segment after another, past the session's cap.
    const rest = await sampled(offline, folder, async () => {
      for (let i = count; i < durations.length; i++) await player.segment(answer.url, i);
    });
    const folderPeak = { bytes: Math.max(run.peakBytes, rest.peakBytes), segments: Math.max(run.peakSegments, rest.peakSegments), asked: durations.length };
    // An ended session: its folder goes with the DELETE.
    const t1 = performance.now();
    await player.end(sessionId);
    ended = true;
    while (folderUsage(folder) && performance.now() - t1 < 10_000) await sleep(5);
    const afterDeleteS = folderUsage(folder) ? NaN : (performance.now() - t1) / 1000;
    const ffmpegLeft = ffmpegChildren(offline).filter((p) => p.cmdline.includes(sessionId)).length;
    say(`disk: ${folderPeak.asked} segments asked, the folder peaked at ${f(folderPeak.bytes / 2 ** 20, 1)} MiB in ${folderPeak.segments} segments; gone ${f(afterDeleteS, 3)} s after the DELETE was sent`);
    return { row, disk: { ...folderPeak, afterDeleteS, ffmpegLeft } };
  } finally {
    if (!ended) await player.end(sessionId);
  }
};

/** Row 5: `n` forced 1080p transcodes started together, each fetching TOGETHER_FILM_S of film. */
const together = async (player: Player, mediaId: string, n: number) => {
  const started = await Promise.all(Array.from({ length: n }, () => player.start(mediaId, FORCE_TRANSCODE)));
  try {
    const lists = await Promise.all(started.map((s) => player.playlist(s.answer.url)));
    const t0 = performance.now();
    const speeds = await Promise.all(
      started.map(async (s, k) => {
        const { count, seconds } = segmentsFor(lists[k]!.durations, TOGETHER_FILM_S);
        for (let i = 0; i < count; i++) await player.segment(s.answer.url, i);
        return seconds / ((performance.now() - t0) / 1000);
      }),
    );
    say(`${n} transcodes at once: ${speeds.map((x) => `${f(x)}x`).join(' / ')}`);
    return speeds;
  } finally {
    await Promise.all(started.map((s) => player.end(s.answer.sessionId!)));
  }
};

/**
 * Row 6: a remux session asked for two segments and then left alone. Polled every second, from
 * the last request, until its folder is gone and no ffmpeg naming it runs.
 */
const abandon = async (instance: Instance, player: Player, mediaId: string) => {
  const { answer } = await player.start(mediaId);
  const sessionId = answer.sessionId!;
  await player.playlist(answer.url);
  await player.segment(answer.url, 0);
  const lastAt = performance.now();
  await player.segment(answer.url, 1);
  const folder = join(instance.dataDir, 'playback', sessionId);
  const offline = instance.state().processes.offline!;
  say(`abandoned session ${sessionId} after 2 segments; watching its folder`);
  let ffmpegLastSeenS = 0;
  const watch = (async () => {
    for (;;) {
      const now = (performance.now() - lastAt) / 1000;
      const running = ffmpegChildren(offline).some((p) => p.cmdline.includes(sessionId));
      if (running) ffmpegLastSeenS = now;
      if (!folderUsage(folder) && !running) return now;
      if (now > 240) return NaN;
      await sleep(1000);
    }
  })();
  return { sessionId, done: watch.then((goneS) => ({ goneS, ffmpegLastSeenS })) };
};

// ---------------------------------------------------------------------------------------------
// Chromium

// Runs in the page before its scripts (a string: the bench's loader adds helpers the page lacks).
const FIRST_FRAME = `(() => {
  window.__bench = { firstFrameAt: 0 };
  const tick = () => {
    const v = document.querySelector('.player video');
    if (v && v.webkitVideoDecodedByteCount > 0 && v.currentTime > 0) { window.__bench.firstFrameAt = Date.now(); return; }
    setTimeout(tick, 20);
  };
  tick();
})()`;

/** A seek whose frame has not come by then is reported as stalled. */
const SEEK_GIVE_UP_MS = 20_000;

/** Playing this long after the first seek, the segments made ahead have caught up: a seek then is one made while watching. */
const PLAYING_MS = 4_000;

const seekTo = (share: number) => `new Promise((resolve, reject) => {
  const v = document.querySelector('.player video');
  const target = v.duration * ${share};
  let seeked = false;
  v.addEventListener('seeked', () => { seeked = true; }, { once: true });
  const t0 = Date.now();
  window.__bench.seekAt = t0;
  const trace = window.__bench.trace = [];
  for (const e of ['seeking', 'seeked', 'waiting', 'playing', 'canplay', 'canplaythrough', 'progress', 'timeupdate'])
    v.addEventListener(e, () => trace.length < 60 && trace.push(e + '+' + (Date.now() - t0) + ' rs' + v.readyState + ' t' + v.currentTime.toFixed(2)));
  v.currentTime = target;
  const tick = () => {
    if (seeked && v.currentTime > target + 0.1 && v.webkitVideoDecodedByteCount > 0) return resolve({ ms: Date.now() - t0, target, startedAt: t0 });
    if (v.error) return reject(new Error('media error ' + v.error.code + ' ' + v.error.message));
    if (Date.now() - t0 > ${SEEK_GIVE_UP_MS}) return resolve({ ms: NaN, target, stalledAt: v.currentTime, seeked });
    setTimeout(tick, 20);
  };
  tick();
})`;

const VIDEO_STATE = `(() => {
  const v = document.querySelector('.player video');
  return v && { src: v.currentSrc, time: v.currentTime, duration: v.duration, readyState: v.readyState, networkState: v.networkState, paused: v.paused,
    video: v.webkitVideoDecodedByteCount, audio: v.webkitAudioDecodedByteCount, error: v.error && v.error.code + ' ' + v.error.message };
})()`;

const WHICH_HLS = `(() => {
  const hls = document.createElement('video').canPlayType('application/vnd.apple.mpegurl');
  return hls ? 'native HLS' : 'hls.js';
})()`;

interface BrowserRun {
  firstFrameMs: number;
  /** Segments the page had whole before its first frame. */
  segmentsBefore: number;
  seekMs: number;
  /** A second seek, to 30 %, after playing PLAYING_MS on from the first (NaN: stalled, or the first did). */
  playingSeekMs: number;
  /** Where the video stood when the seek was given up (NaN when it played on). */
  stalledAt: number;
  /** The seek's target, seconds. */
  target: number;
  /** A stalled seek in words: the video's state and the segments the page asked for meanwhile. */
  stall?: string;
  method: string;
  endedOnClose: boolean;
}

/** A seek that gave no frame counts as slower than any that did. */
const seekValue = (r: BrowserRun) => (Number.isFinite(r.stalledAt) ? Infinity : r.seekMs);
const msOrStall = (n: number) => (n === Infinity ? 'stalled' : ms(n));
const playingSeekValue = (r: BrowserRun) => (Number.isFinite(r.playingSeekMs) ? r.playingSeekMs : Infinity);
const seekCell = (r: BrowserRun) =>
  !Number.isFinite(r.stalledAt) ? ms(r.seekMs) : r.stalledAt < r.target - 1 ? `no frame past ${f(r.target, 1)} s: at ${f(r.stalledAt, 1)} s instead` : `stalled at ${f(r.stalledAt, 3)} s`;

/** How a run reaches the player: Play pressed on the film's page, already open; or the player's address opened in a new page. */
type Opening = 'press' | 'cold';

/** A page let settle after it opened: a new page's start costs Chromium about a second of CPU on this box's two cores. */
const SETTLE_MS = 1_500;

/** Row 3: one page: Play pressed (or the player opened) to the first frame, a seek to 60 % to its frame, close. */
const browserRun = async (browser: Browser, instance: Instance, player: Player, mediaId: string, label: string, opening: Opening): Promise<BrowserRun> => {
  const page: Page = await browser.newPage();
  let answer: Answer | undefined;
  // What the page asked of the service and when (wall clock, as the page stamps its moments).
  const log: Array<{ at: number; line: string; segmentDone: boolean }> = [];
  const short = (url: string) => new URL(url).pathname.replace(/^.*\/sessions\/[^/]+\//, '');
  page.on('request', (req) => {
    if (req.url().includes('/api/v1/playback/')) log.push({ at: Date.now(), line: `${req.method()} ${short(req.url())}`, segmentDone: false });
  });
  page.on('requestfailed', (req) => log.push({ at: Date.now(), line: `${req.method()} ${short(req.url())} failed: ${req.failure()?.errorText}`, segmentDone: false }));
  page.on('response', (res) => {
    if (!res.url().includes('/api/v1/playback/')) return;
    const isSegment = res.url().includes('/segments/');
    log.push({ at: Date.now(), line: `${res.status()} ${short(res.url())}`, segmentDone: false });
    if (isSegment) void res.finished().then(() => log.push({ at: Date.now(), line: `whole ${short(res.url())}`, segmentDone: true }), () => undefined);
    if (res.request().method() === 'POST') void res.json().then((body: { data?: Answer }) => (answer = body.data), () => undefined);
  });
  const show = (from: number) => log.filter((l) => l.at >= from).map((l) => `+${l.at - from} ms ${l.line}`).join(', ');
  let closed = false;
  try {
    await page.addInitScript(FIRST_FRAME);
    // The run before reported where its player stopped (60 %): the film's page would offer to resume there.
    const cleared = await fetch(`${instance.url}/api/v1/played/${mediaId}`, { method: 'DELETE' });
    if (!cleared.ok) throw new Error(`DELETE /api/v1/played/${mediaId}: ${cleared.status}`);
    if (opening === 'press') {
      await page.goto(`${instance.url}/movies/${mediaId}`);
      await page.locator('a.play').waitFor();
      await sleep(SETTLE_MS);
    }
    const t0 = Date.now();
    if (opening === 'press') await page.locator('a.play').click();
    else await page.goto(`${instance.url}/play/${mediaId}`);
    // Polled from here: the page's CSP forbids the eval a string waitForFunction needs; the page stamps the moment itself.
    let firstFrameAt = 0;
    while (!firstFrameAt && Date.now() - t0 < 60_000) {
      firstFrameAt = await page.evaluate<number>('window.__bench ? window.__bench.firstFrameAt : 0');
      if (!firstFrameAt) await sleep(50);
    }
    if (!firstFrameAt) {
      const shown = await page.locator('main').innerText().catch(() => '');
      const state = await page.evaluate(VIDEO_STATE).catch(() => null);
      throw new Error(`/play/${mediaId}: no frame in 60 s; the video: ${JSON.stringify(state)}; the page says: ${shown.slice(0, 300)}; requests: ${show(t0)}`);
    }
    const firstFrameMs = firstFrameAt - t0;
    const segmentsBefore = log.filter((l) => l.segmentDone && l.at <= firstFrameAt).length;
    const seek = await page.evaluate<{ ms: number; target: number; stalledAt?: number; seeked?: boolean }>(seekTo(0.6));
    const seekAt = await page.evaluate<number>('window.__bench.seekAt');
    const seekTrace = ONLY ? (await page.evaluate<string>('JSON.stringify(window.__bench.trace || [])')) : '';
    let playingSeekMs = NaN;
    if (seek.stalledAt === undefined) {
      await sleep(PLAYING_MS);
      const again = await page.evaluate<{ ms: number; stalledAt?: number }>(seekTo(0.3));
      if (again.stalledAt === undefined) playingSeekMs = again.ms;
    }
    if (ONLY) say(`${label}: seek to ${f(seek.target, 2)} s in ${ms(seek.ms)} ms; the page's requests from it: ${show(seekAt)}; the video: ${seekTrace}`);
    let stall: string | undefined;
    if (seek.stalledAt !== undefined || seek.ms > 5_000) {
      const state = (await page.evaluate(VIDEO_STATE).catch(() => null)) as { readyState?: number } | null;
      if (seek.stalledAt !== undefined) {
        const asked = log.filter((l) => l.at >= seekAt && l.line.startsWith('GET segments/')).map((l) => l.line.replace(/^GET segments\/(\d+)\.ts$/, '$1'));
        stall = `to ${f(seek.target, 3)} s; after ${SEEK_GIVE_UP_MS / 1000} s the video stood at ${f(seek.stalledAt, 4)} s, readyState ${state?.readyState ?? '?'}, \`seeked\` ${seek.seeked ? 'fired' : 'not fired'}; segments asked meanwhile: ${asked.join(', ') || 'none'}`;
      }
      say(`${label}: the seek to ${f(seek.target, 3)} s ${seek.stalledAt !== undefined ? `gave no frame past it in ${SEEK_GIVE_UP_MS / 1000} s (seeked ${seek.seeked ? 'fired' : 'not fired'}, at ${f(seek.stalledAt!, 4)} s)` : `took ${ms(seek.ms)} ms`}; the video: ${JSON.stringify(state)}; the page's requests from the seek: ${show(seekAt)}`);
    }
    const sessionId = answer?.sessionId ?? null;
    await page.close({ runBeforeUnload: true });
    closed = true;
    // The player ends its session on pagehide: its folder goes.
    let endedOnClose = true;
    if (sessionId) {
      const folder = join(instance.dataDir, 'playback', sessionId);
      const t1 = Date.now();
      while (folderUsage(folder) && Date.now() - t1 < 5_000) await sleep(50);
      endedOnClose = !folderUsage(folder);
      if (!endedOnClose) await player.end(sessionId);
    }
    return { firstFrameMs, segmentsBefore, seekMs: seek.ms, playingSeekMs, stalledAt: seek.stalledAt ?? NaN, target: seek.target, ...(stall ? { stall } : {}), method: answer?.method ?? '?', endedOnClose };
  } finally {
    if (!closed) await page.close();
  }
};

/** BENCH_PLAYBACK_ONLY=chromium: the remux rows in Chromium alone, each seek traced. */
const chromiumOnly = async (instance: Instance, player: Player, ids: Record<keyof Films, string>, offline: number) => {
  const browser = await launchChromium();
  try {
    for (let i = 0; i < RUNS; i++) {
      await quiet(offline, 'a page');
      const run = await browserRun(browser, instance, player, ids.remux1080, CASES.remux1080.label, 'press');
      say(`run ${i + 1}: first frame ${ms(run.firstFrameMs)} ms, seek ${ms(run.seekMs)} ms, while playing ${ms(run.playingSeekMs)} ms`);
    }
  } finally {
    await browser.close();
  }
};

// ---------------------------------------------------------------------------------------------
// The report


const startCells = (t: StartTiming) => `${ms(t.postMs)} / ${ms(t.playlistMs)} / ${ms(t.segmentMs)} / **${ms(t.totalMs)}**`;
const medianStart = (runs: StartTiming[]): StartTiming => ({
  postMs: median(runs.map((r) => r.postMs)),
  playlistMs: median(runs.map((r) => r.playlistMs)),
  segmentMs: median(runs.map((r) => r.segmentMs)),
  totalMs: median(runs.map((r) => r.totalMs)),
  method: runs[0]!.method,
  segmentS: runs[0]!.segmentS,
});


// ---------------------------------------------------------------------------------------------

export const runPlayback = async () => {
  const idleBefore = await idleShare();
  const began = performance.now();
  const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`;
  const ffmpegVersion = execFileSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' }).split('\n')[0]!.replace(/ Copyright.*/, '');
  if (!execFileSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8' }).includes('libx265')) throw new Error('the playback bench needs an ffmpeg with libx265 (Debian\'s)');
  // The web client as built; built here only when missing (a build replaces web/dist, which another run may be serving).
  if (!existsSync(join(PROJECT_DIR, 'web/dist/index.html'))) await buildWeb();

  const root = mkdtempSync(join(tmpdir(), 'mls-bench-playback-'));
  const library = join(root, 'library');
  const scratch = join(root, 'scratch');
  let instance: Instance | undefined;
  let starting: Promise<unknown> | undefined;
  let browser: Browser | undefined;
  try {
    mkdirSync(library);
    mkdirSync(scratch);
    say(`making the films (${MINUTES} min each, HEVC ${HEVC_BLOCK_S * HEVC_BLOCKS} s); the CPUs were ${f(100 * idleBefore, 0)} % idle`);
    // The instance starts meanwhile.
    starting = startInstance({ env: { RATE_LIMIT_MAX: '1000000000', PLAYBACK_MAX_TRANSCODES: '3', PLAYBACK_MAX_REMUXES: '8', TMDB_API_KEY: '' } }).then((started) => (instance = started));
    const t0 = performance.now();
    await makeFilms(library, scratch);
    const makeS = (performance.now() - t0) / 1000;
    const sizes = Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, statSync(join(library, v.file)).size / 1e6])) as Record<keyof Films, number>;
    say(`films made in ${f(makeS, 0)} s (${Object.values(sizes).map((s) => `${f(s, 0)} MB`).join(', ')})`);

    await starting;
    if (!instance) throw new Error('the instance did not start');
    const job = await scan({ path: library, mediaType: 'movie' }, instance.url);
    if (job.status !== 'completed') throw new Error(`the scan ended ${job.status}: ${JSON.stringify(job).slice(0, 400)}`);
    const listed = await fetch(`${instance.url}/api/v1/movies?limit=100`);
    const movies = mediaOf(((await listed.json()) as { data: any[] }).data);
    const ids = {} as Record<keyof Films, string>;
    for (const [key, { year, file }] of Object.entries(FILES) as Array<[keyof Films, { year: number; file: string }]>) {
      const movie = movies.find((m) => m.year === year);
      if (!movie) throw new Error(`${file} was not scanned as a film: ${JSON.stringify(movies.map((m) => [m.title, m.year]))}`);
      ids[key] = movie.id;
    }
    const player = new Player(instance.url);
    const offline = instance.state().processes.offline!;
    say(`instance up and films scanned (${elapsed()}); offline is pid ${offline}`);

    if (ONLY === 'chromium') return await chromiumOnly(instance, player, ids, offline);

    // 1. Time to the first segment.
    // A remux's first session reads the keyframe index: the median is of the next RUNS. A
    // transcode's first reads only the duration and frame rate (the H.264 films' are kept from
    // their remux rows by then): the median is of RUNS sessions, the first among them.
    const starts: Array<{ c: Case; first: StartTiming; counted: StartTiming[]; which: string }> = [];
    for (const c of Object.values(CASES) as Case[]) {
      await quiet(offline);
      const first = await timeToFirstSegment(player, ids[c.film], c);
      const remux = first.method === 'remux';
      const counted = remux ? [] : [first];
      while (counted.length < RUNS) {
        await quiet(offline);
        counted.push(await timeToFirstSegment(player, ids[c.film], c));
      }
      starts.push({ c, first, counted, which: remux ? `2-${RUNS + 1}` : `1-${RUNS}` });
      say(`first segment, ${c.label} (${first.method}): first session ${ms(first.totalMs)} ms; ${(remux ? counted : counted.slice(1)).map((r) => ms(r.totalMs)).join(', ')} ms after`);
    }

    // 2. Seeks in a live session.
    const seekRows = [];
    for (const c of [CASES.remux1080, CASES.transcode1080] as Case[]) {
      await quiet(offline);
      const s = await seeks(instance, player, ids[c.film], c);
      seekRows.push({ c, ...s });
      say(`seek, ${c.label}: ${s.runs.map((r) => `segment ${r.index} at ${f(r.at, 1)} s ${ms(r.ms)} ms`).join(', ')}`);
    }

    // 3. Chromium through the web client.
    browser = await launchChromium();
    const browserRows = [];
    for (const c of [CASES.remux1080, CASES.hevc] as Case[]) {
      const runs: BrowserRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        await quiet(offline, `a page of ${c.label}`);
        runs.push(await browserRun(browser, instance, player, ids[c.film], c.label, 'press'));
      }
      await quiet(offline, `a cold page of ${c.label}`);
      const cold = await browserRun(browser, instance, player, ids[c.film], c.label, 'cold');
      browserRows.push({ c, runs, cold });
      say(`Chromium, ${c.label} (${runs[0]!.method}): first frame ${runs.map((r) => ms(r.firstFrameMs)).join(', ')} ms (cold page ${ms(cold.firstFrameMs)}); seek ${runs.map(seekCell).join(', ')}; while playing ${runs.map((r) => msOrStall(playingSeekValue(r))).join(', ')}`);
    }
    const probe = await browser.newPage();
    await probe.goto(`${instance.url}/`);
    const hlsPath = await probe.evaluate<string>(WHICH_HLS);
    await probe.close();
    await browser.close();
    browser = undefined;

    // 4. Speed, CPU and RSS per conversion; the disk of the 1080p remux.
    const speedRows: SpeedRow[] = [];
    let disk: NonNullable<Awaited<ReturnType<typeof speed>>['disk']> | undefined;
    for (const c of Object.values(CASES) as Case[]) {
      await quiet(offline, `the speed of ${c.label}`);
      const out = await speed(instance, player, ids[c.film], c, c === CASES.remux1080);
      speedRows.push(out.row);
      disk ??= out.disk;
    }

    // 6 (begun). An abandoned session, watched while the concurrency rows run.
    const abandoned = await abandon(instance, player, ids.remux1080);

    // 5. Conversions at once.
    // One alone is the first TOGETHER_FILM_S of row 4's 1080p transcode.
    const togetherRows: number[][] = [[speedRows.find((r) => r.label === CASES.transcode1080.label)!.speedOver(TOGETHER_FILM_S)]];
    for (const n of [2, 3]) {
      await quiet(offline, `${n} transcodes at once`);
      togetherRows.push(await together(player, ids.remux1080, n));
    }

    // The last sessions' segments made ahead end on their own after the DELETEs.
    const lastRunsS = await quiet(offline);
    say(`waiting for the abandoned session to go (${elapsed()})`);
    const gone = await abandoned.done;
    say(`abandoned session: last ffmpeg seen ${f(gone.ffmpegLastSeenS, 0)} s after its last request, folder and ffmpeg gone after ${f(gone.goneS, 0)} s`);
    const ffmpegAtEnd = ffmpegChildren(offline).length;
    const foldersAtEnd = existsSync(join(instance.dataDir, 'playback')) ? readdirSync(join(instance.dataDir, 'playback')).length : 0;
    const totalS = (performance.now() - began) / 1000;
    const idleAfter = await idleShare();

    // The section.
    const remuxStart = starts[0]!;
    const chromeRemux = browserRows[0]!;
    const remuxFirstFrame = median(chromeRemux.runs.map((r) => r.firstFrameMs));
    const remuxBrowserSeek = median(chromeRemux.runs.map(seekValue));
    const remuxPlayingSeek = median(chromeRemux.runs.map(playingSeekValue));
    const remuxSeek = seekRows[0]!.medianMs;
    const transcode1080 = speedRows.find((r) => r.label === CASES.transcode1080.label)!;
    const diskOk = disk !== undefined && disk.segments <= SEGMENT_CAP;
    const outlivedS = gone.goneS - IDLE_S;
    const film = `${MINUTES} min`;
    const section = [
      `${machineLine()}; ${ffmpegVersion}; Debian's Chromium, headless. The part took ${f(totalS, 0)} s, ${f(makeS, 0)} s of it making the films (the instance started meanwhile).`,
      `The CPUs were ${f(100 * idleBefore, 0)} % idle in the 2 s before the part and ${f(100 * idleAfter, 0)} % in the 2 s after it.`,
      '',
      `The films: lavfi testsrc2 and a 440 Hz sine, 24 fps, AC-3 5.1 at 640 kb/s, Matroska. H.264 1080p at 5 Mb/s (${f(sizes.remux1080, 0)} MB) and 720p at 2.5 Mb/s (${f(sizes.remux720, 0)} MB), ${film} each:`,
      `one 60 s block (x264 ultrafast, 3 B-frames, keyframes at irregular 2-5 s gaps) copied end to end.`,
      `HEVC 10-bit 1080p at 4 Mb/s, ${HEVC_BLOCK_S * HEVC_BLOCKS} s: a ${HEVC_BLOCK_S} s block (x265 ultrafast, a keyframe every 4 s) copied ${HEVC_BLOCKS} times.`,
      `One instance with PLAYBACK_MAX_TRANSCODES=3 and PLAYBACK_MAX_REMUXES=8; requests from the bench process over HTTP through the front door.`,
      `A transcode of an H.264 film is forced with a client that plays VP9 only; the HEVC film is a transcode for any browser.`,
      '',
      `The service makes the next segments while one is downloaded (two for a remux, one for a transcode); they run on after the answer, a DELETE or a closed page.`,
      `So every measure below that must start alone waits until offline runs no ffmpeg.`,
      '',
      `**Time to the first segment.** A fresh session each time, DELETEd after. POST, playlist and segment 0 in ms; each column's median is its own.`,
      `A film's first session reads its timing in the POST: for a remux its keyframe index, so the median is of the ${RUNS} sessions after it.`,
      `A transcode reads only the duration and frame rate (kept from the remux rows for the H.264 films), so its median is of ${RUNS} sessions, the first included.`,
      '',
      table(['start', 'method', 'segment 0 s', 'first session: POST / playlist / segment 0 / total ms', 'median: POST / playlist / segment 0 / total ms', 'median of sessions'],
        starts.map(({ c, first, counted, which }) => [c.label, first.method, f(first.segmentS, 1), startCells(first), startCells(medianStart(counted)), which])),
      '',
      `**Seek.** In a live session whose segment 0 was made: the whole segment at 65 %, then 60 % and 55 % of the film.`,
      `None of them made before (backwards, as the next ones are made ahead), each asked with no ffmpeg running.`,
      '',
      table(['seek', 'segments (film time)', 'ms each', 'median ms'],
        seekRows.map((s) => [s.c.label, s.runs.map((r) => `${r.index} (${f(r.at, 1)} s)`).join(', '), s.runs.map((r) => ms(r.ms)).join(', '), ms(s.medianMs)])),
      '',
      `**In Chromium.** The web client's player, ${hlsPath}, a new page (and context) per run: the film's page opened and let settle for ${SETTLE_MS / 1000} s, then its Play pressed.`,
      `First frame: from the press until the video has decoded bytes and currentTime > 0 (polled every 20 ms in the page).`,
      `Chromium runs on this box beside the service, and a new page's start alone costs it about 1.2 s of CPU (about:blank: 1.17 s of CPU in its first 2 s), which takes the cores the first segments are made on; a viewer's own device pays that, not the server, so the page is open before the clock starts, as it is when a viewer presses Play.`,
      `The cold column is one more run that opens the player's address \`/play/<id>\` in a new page, timed from \`page.goto\`, Chromium's start included.`,
      `Seek: \`currentTime\` set to 60 % right after the first frame, until \`seeked\` fired and currentTime passed the target by 0.1 s; given up after ${SEEK_GIVE_UP_MS / 1000} s (stalled). Median of ${RUNS}.`,
      `Seek while playing: ${PLAYING_MS / 1000} s of playing on from there (the segments made ahead catch up, as they have when a viewer seeks while watching), then to 30 %, measured the same way.`,
      '',
      table(['film', 'method', 'first frame ms (each)', 'median ms', 'cold page: first frame ms', 'segments whole before it', 'seek ms (each)', 'median ms', 'seek while playing ms (each)', 'median ms', 'session ended on close'],
        browserRows.map(({ c, runs, cold }) => [c.label, runs[0]!.method, runs.map((r) => ms(r.firstFrameMs)).join(', '), ms(median(runs.map((r) => r.firstFrameMs))), ms(cold.firstFrameMs),
          runs.map((r) => r.segmentsBefore).join(', '), runs.map(seekCell).join(', '), msOrStall(median(runs.map(seekValue))),
          runs.map((r) => msOrStall(playingSeekValue(r))).join(', '), msOrStall(median(runs.map(playingSeekValue))),
          runs.every((r) => r.endedOnClose) ? 'yes' : `${runs.filter((r) => r.endedOnClose).length} of ${runs.length}`])),
      ...browserRows.flatMap(({ c, runs }) => runs.filter((r) => r.stall).map((r, i) => `${i === 0 ? '\n' : ''}- a seek without its frame, ${c.label}: ${r.stall}.`)),
      '',
      `**Conversion speed.** One session, segments from the start one after another for ${SPEED_FILM_S} s of film (or the whole film if shorter).`,
      `Speed is film seconds per wall second, to the last segment asked for; the segments made ahead help it, as they help a player.`,
      `CPU is the rise of the offline process's cutime + cstime (its reaped ffmpeg runs) until those made ahead ended too, per film second made.`,
      `Peak RSS is the largest of any ffmpeg child of offline, read from /proc every 50 ms.`,
      '',
      table(['conversion', 'segments', 'film s', 'wall s', 'speed x', 'CPU s per film s', 'ffmpeg peak RSS MiB'],
        speedRows.map((r) => [r.label, r.segments, f(r.filmS, 1), f(r.wallS), f(r.speed), f(r.cpuPerFilmS), r.peakRss])),
      '',
      `**Conversions at once.** Forced 1080p transcodes of the H.264 film, started together, each fetching ${TOGETHER_FILM_S} s of film from the start.`,
      `The single one is the first ${TOGETHER_FILM_S} s of the 1080p transcode above.`,
      '',
      table(['sessions at once', 'speed x of each', 'slowest x', 'all faster than real time'],
        togetherRows.map((speeds, i) => [i + 1, speeds.map((x) => f(x)).join(' / '), f(Math.min(...speeds)), Math.min(...speeds) >= 1 ? 'yes' : 'no'])),
      '',
      `**Disk and cleanup.**`,
      '',
      table(['measure', 'value'], [
        [`1080p remux session's folder, largest seen (du, every 50 ms) while ${disk?.asked ?? '-'} segments were asked in turn`,
          disk ? `${f(disk.bytes / 2 ** 20, 1)} MiB in ${disk.segments} segments (cap ${SEGMENT_CAP})${disk.asked <= SEGMENT_CAP ? '; the film has too few segments to reach the cap' : ''}` : '-'],
        ['the same session after its DELETE: folder gone', disk ? `${f(disk.afterDeleteS, 3)} s after the DELETE was sent; ffmpeg left: ${disk.ffmpegLeft}` : '-'],
        ['a remux session left after 2 segments, no DELETE: its folder gone and no ffmpeg naming it (polled every 1 s, while the rows above ran)',
          `${f(gone.goneS, 0)} s after the last request (idle ${IDLE_S} s + a sweep every 10 s); its last ffmpeg was seen ${f(gone.ffmpegLastSeenS, 0)} s after it`],
        ['at the end, after the last DELETEs: ffmpeg children of offline / session folders left', `${ffmpegAtEnd} / ${foldersAtEnd} (the last segments made ahead ended ${f(lastRunsS, 1)} s after the DELETEs)`],
      ]),
      ...(player.timeouts.length ? ['', `Segments answered 504 and asked again (${player.timeouts.length}): ${player.timeouts.join('; ')}.`] : []),
      '',
      `Against the targets (remux first frame ≤ 1.5 s, seek ≤ 1 s, 1080p transcode ≥ 1× real time, a session's disk under its cap, no ffmpeg outliving its session by more than a minute):`,
      `- remux first frame in Chromium ${f(remuxFirstFrame / 1000)} s from the press of Play (${met(remuxFirstFrame <= 1500)}), ${f(chromeRemux.cold.firstFrameMs / 1000)} s in a cold page; over HTTP the first segment in ${f(medianStart(remuxStart.counted).totalMs / 1000)} s, ${f(remuxStart.first.totalMs / 1000)} s for the first session.`,
      `- remux seek ${f(remuxSeek / 1000)} s over HTTP (${met(remuxSeek <= 1000)}), ${remuxBrowserSeek === Infinity ? 'stalled' : `${f(remuxBrowserSeek / 1000)} s`} in Chromium right after the first frame (${met(remuxBrowserSeek <= 1000)}), ${remuxPlayingSeek === Infinity ? 'stalled' : `${f(remuxPlayingSeek / 1000)} s`} while playing (${met(remuxPlayingSeek <= 1000)}).`,
      `- 1080p transcode at ${f(transcode1080.speed)}× real time (${met(transcode1080.speed >= 1)}).`,
      `- a session's disk: at most ${disk?.segments ?? '-'} segments, ${f((disk?.bytes ?? NaN) / 2 ** 20, 1)} MiB (${met(diskOk)}${disk && disk.asked <= SEGMENT_CAP ? ', cap not reached' : ''}).`,
      `- an abandoned session's folder went ${f(gone.goneS, 0)} s after its last request, ${f(outlivedS, 0)} s after the session ended; its ffmpeg was gone ${f(gone.ffmpegLastSeenS, 0)} s after (${met(Number.isFinite(gone.goneS) && outlivedS <= 60)}).`,
    ].join('\n');
    process.stdout.write(`\n${section}\n`);
    writeDoc('playback', section);
    say(`done in ${elapsed()}`);
  } finally {
    await browser?.close().catch(() => undefined);
    await starting?.catch(() => undefined);
    await instance?.stop();
    rmSync(root, { recursive: true, force: true });
    if (instance) rmSync(instance.dataDir, { recursive: true, force: true });
  }
};
