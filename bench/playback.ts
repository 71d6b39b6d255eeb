// The playback part of `npm run bench` (`tsx bench/run.ts playback` alone): what a viewer waits
// for when a file is converted while it is watched (lib/playback/service.ts), on films this part
// makes with ffmpeg (bench/films.ts: a 1080p and a 720p H.264 film with AC-3 5.1 in Matroska,
// remuxed; the same films forced to a transcode; an HEVC 10-bit film, transcoded), scanned into
// the shared stack (bench/library.ts) as a library of their own:
//  1. the time from the POST to the whole first segment, over HTTP;
//  2. a seek's segment in a live session, over HTTP; then both for the 1080p remux through the
//     Jellyfin door (PlaybackInfo with an app's device profile, master.m3u8, main.m3u8, its
//     segments), in turns with the same through /api/v1/playback;
//  3. the first frame and a seek's frame in Chromium through the web client's player;
//  4. conversion speed (film seconds per wall second), CPU per film second and ffmpeg's peak RSS;
//  5. one to three 1080p transcodes at once;
//  6. a session's disk, and how soon an abandoned or ended session's folder and ffmpeg go.
// Needs Debian's ffmpeg (with libx265) and Chromium. BENCH_PLAYBACK_MINUTES sets the films'
// length (3 by default); BENCH_PLAYBACK_ONLY=door runs the door's row alone and only prints it.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser, Page } from 'playwright-core';
import { PROJECT_DIR } from '../infra/project';
import { buildWeb } from '../infra/web-build';
import { launchChromium } from '../test/support/browser';
import type { Instance } from '../test/support/instance';
import type { DdbCall, ProxyProcess } from './ddb-proxy';
import { concatCopies, h264Block, hevcBlock } from './films';
import { addLibrary, sharedLibrary } from './library';
import { cpuSeconds, ffmpegChildren, ffmpegPeak, idleShare, machineLine, median, sayer, table, writeDoc } from './support';

const MINUTES = Number(process.env.BENCH_PLAYBACK_MINUTES ?? 3);
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

const say = sayer('playback');
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

/** Peak RSS of any ffmpeg child of `pid` and a session folder's peak size while `work` runs. */
const sampled = async <T>(pid: number, folder: string, work: () => Promise<T>) => {
  let [peakBytes, peakSegments] = [0, 0];
  const run = await ffmpegPeak(pid, work, () => {
    const usage = folderUsage(folder);
    peakBytes = Math.max(peakBytes, usage?.bytes ?? 0);
    peakSegments = Math.max(peakSegments, usage?.segments ?? 0);
  });
  return { ...run, peakBytes, peakSegments };
};

// ---------------------------------------------------------------------------------------------
// The HTTP side, as a player does it

interface Answer {
  method: 'direct' | 'remux' | 'transcode';
  url: string;
  sessionId: string | null;
}

/** A failed request, with what the service answered, so the report can quote it. */
const failure = async (what: string, res: Response) =>
  new Error(`${what}: ${res.status} ${(await res.text().catch(() => '')).slice(0, 600)}`);

class Player {
  /** Segments answered 504 (too slow: the API says to ask again) and asked again, as `GET <path>: <body>`. */
  readonly timeouts: string[] = [];

  constructor(private readonly base: string) {}

  async start(mediaId: string, client?: object): Promise<{ answer: Answer; ms: number }> {
    const t0 = performance.now();
    const body = JSON.stringify(client ? { client } : {});
    const res = await fetch(`${this.base}/api/v1/playback/${mediaId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    if (res.status !== 200) throw await failure(`POST /api/v1/playback/${mediaId} ${body}`, res);
    const answer = ((await res.json()) as { data: Answer }).data;
    if (!answer.sessionId) throw new Error(`POST /api/v1/playback/${mediaId} ${body}: ${answer.method}, no session`);
    return { answer, ms: performance.now() - t0 };
  }

  /** The playlist's segment durations and addresses (as absolute URLs), in order. */
  async playlist(url: string): Promise<{ durations: number[]; uris: string[]; ms: number }> {
    const t0 = performance.now();
    const res = await fetch(url);
    if (res.status !== 200) throw await failure(`GET ${url}`, res);
    const text = await res.text();
    const durations = [...text.matchAll(/^#EXTINF:([\d.]+),/gm)].map((m) => Number(m[1]));
    if (durations.length === 0) throw new Error(`GET ${url}: no segments in\n${text.slice(0, 400)}`);
    const uris = text
      .split('\n')
      .filter((line) => line && !line.startsWith('#'))
      .map((line) => new URL(line, url).href);
    return { durations, uris, ms: performance.now() - t0 };
  }

  /** One whole segment of an API session's playlist (its `segments/<n>.ts`). */
  segment(playlistUrl: string, index: number) {
    return this.fetchSegment(new URL(`segments/${index}.ts`, playlistUrl).href);
  }

  /** One whole segment: the milliseconds from asking to its last byte (a 504 asked again, twice at most), and its size. */
  async fetchSegment(url: string): Promise<{ ms: number; bytes: number }> {
    const t0 = performance.now();
    let res = await fetch(url);
    for (let retry = 0; res.status === 504 && retry < 2; retry++) {
      this.timeouts.push(
        `GET ${new URL(url).pathname} after ${f((performance.now() - t0) / 1000, 1)} s: ${(await res.text()).slice(0, 200)}`,
      );
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

// ---------------------------------------------------------------------------------------------
// The Jellyfin door, as an app plays a conversion through it

/**
 * An app that plays H.264 with AAC in MP4 and takes HLS of H.264 and AAC: the AC-3 of the
 * bench's H.264 films makes them a remux, as our own API's default client does.
 */
const DOOR_PROFILE = {
  Name: 'Bench',
  MaxStreamingBitrate: 120_000_000,
  DirectPlayProfiles: [{ Type: 'Video', Container: 'mp4', VideoCodec: 'h264', AudioCodec: 'aac' }],
  TranscodingProfiles: [{ Type: 'Video', Container: 'ts', VideoCodec: 'h264', AudioCodec: 'aac', Protocol: 'hls', Context: 'Streaming' }],
};
const DOOR_DEVICE = 'bench-playback';
const DOOR_AUTHORIZATION = `MediaBrowser Client="Bench", Device="bench", DeviceId="${DOOR_DEVICE}", Version="1"`;

class DoorPlayer {
  private constructor(
    readonly base: string,
    private readonly token: string,
  ) {}

  /** Logs in as the household, as an app does. */
  static async login(base: string) {
    const res = await fetch(`${base}/Users/AuthenticateByName`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: DOOR_AUTHORIZATION },
      body: JSON.stringify({ Username: 'Household', Pw: '' }),
    });
    if (res.status !== 200) throw await failure('POST /Users/AuthenticateByName', res);
    const token = ((await res.json()) as { AccessToken?: string }).AccessToken;
    if (!token) throw new Error('POST /Users/AuthenticateByName: no AccessToken');
    return new DoorPlayer(base, token);
  }

  private headers(json = false): Record<string, string> {
    return { 'X-Emby-Token': this.token, ...(json ? { 'content-type': 'application/json' } : {}) };
  }

  /** A library's films as the door lists them: each one's GUID, name and year. */
  async films(libraryId: string) {
    const path = `/Items?parentId=${libraryId}&recursive=true&includeItemTypes=Movie`;
    const res = await fetch(`${this.base}${path}`, { headers: this.headers() });
    if (res.status !== 200) throw await failure(`GET ${path}`, res);
    return ((await res.json()) as { Items: Array<{ Id: string; Name: string; ProductionYear?: number }> }).Items;
  }

  /** POST /Items/{guid}/PlaybackInfo with DOOR_PROFILE: the conversion's master playlist (an absolute URL) and its PlaySessionId. */
  async playbackInfo(guid: string) {
    const t0 = performance.now();
    const body = JSON.stringify({
      DeviceProfile: DOOR_PROFILE,
      MaxStreamingBitrate: 120_000_000,
      StartTimeTicks: 0,
      // As the web client asks when it starts a film: the conversion starts with the answer.
      IsPlayback: true,
      AutoOpenLiveStream: true,
    });
    const res = await fetch(`${this.base}/Items/${guid}/PlaybackInfo`, { method: 'POST', headers: this.headers(true), body });
    if (res.status !== 200) throw await failure(`POST /Items/${guid}/PlaybackInfo`, res);
    const info = (await res.json()) as {
      PlaySessionId: string;
      MediaSources: Array<{ TranscodingUrl?: string }>;
    };
    const source = info.MediaSources[0];
    if (!source?.TranscodingUrl)
      throw new Error(`POST /Items/${guid}/PlaybackInfo: no conversion (${JSON.stringify(source).slice(0, 400)})`);
    const url = new URL(source.TranscodingUrl, this.base);
    return {
      url: url.href,
      playSessionId: info.PlaySessionId,
      reasons: url.searchParams.get('TranscodeReasons') ?? '',
      ms: performance.now() - t0,
    };
  }

  /** The master playlist's one variant (an absolute URL). */
  async master(url: string) {
    const t0 = performance.now();
    const res = await fetch(url);
    if (res.status !== 200) throw await failure(`GET ${url}`, res);
    const variant = (await res.text()).split('\n').find((line) => line && !line.startsWith('#'));
    if (!variant) throw new Error(`GET ${url}: no variant`);
    return { url: new URL(variant, url).href, ms: performance.now() - t0 };
  }

  /** The app's stop of its conversion: DELETE /Videos/ActiveEncodings. */
  async end(playSessionId: string) {
    const path = `/Videos/ActiveEncodings?DeviceId=${DOOR_DEVICE}&PlaySessionId=${playSessionId}`;
    const res = await fetch(`${this.base}${path}`, { method: 'DELETE', headers: this.headers() });
    if (res.status !== 204) throw await failure(`DELETE ${path}`, res);
    await res.arrayBuffer();
  }
}

/** A conversion started and its media playlist read, as a player does before its first segment. */
interface Opened {
  sessionId: string;
  /** The requests before the first segment, each one's milliseconds, in order. */
  stepsMs: number[];
  /** performance.now() before the first of them and after each. */
  marks: number[];
  durations: number[];
  /** The playlist's segment addresses. */
  uris: string[];
  method?: string;
  /** The door's TranscodeReasons. */
  reasons?: string;
  /** The conversion's session, where the session ended by `end` is another (the door's play session). */
  conversionId?: string;
}

/** One way to play a film's conversion: through /api/v1/playback or through the Jellyfin door. */
interface Way {
  name: string;
  /** What the requests before the first segment are. */
  steps: string[];
  open(): Promise<Opened>;
  end(sessionId: string): Promise<unknown>;
}

const apiWay = (player: Player, mediaId: string, client?: object): Way => ({
  name: '/api/v1/playback',
  steps: ['POST', 'index.m3u8'],
  open: async () => {
    const t0 = performance.now();
    const { answer, ms: postMs } = await player.start(mediaId, client);
    const t1 = performance.now();
    try {
      const list = await player.playlist(answer.url);
      return {
        sessionId: answer.sessionId!,
        stepsMs: [postMs, list.ms],
        marks: [t0, t1, performance.now()],
        durations: list.durations,
        uris: list.uris,
        method: answer.method,
      };
    } catch (err) {
      await player.end(answer.sessionId!);
      throw err;
    }
  },
  end: (sessionId) => player.end(sessionId),
});

const doorWay = (player: Player, door: DoorPlayer, guid: string): Way => ({
  name: 'the Jellyfin door',
  steps: ['PlaybackInfo', 'master.m3u8', 'main.m3u8'],
  open: async () => {
    const t0 = performance.now();
    const info = await door.playbackInfo(guid);
    const t1 = performance.now();
    try {
      const master = await door.master(info.url);
      const t2 = performance.now();
      const list = await player.playlist(master.url);
      return {
        sessionId: info.playSessionId,
        stepsMs: [info.ms, master.ms, list.ms],
        marks: [t0, t1, t2, performance.now()],
        durations: list.durations,
        uris: list.uris,
        reasons: info.reasons,
        conversionId: new URL(master.url).searchParams.get('ConversionId') ?? undefined,
      };
    } catch (err) {
      await door.end(info.playSessionId);
      throw err;
    }
  },
  end: (sessionId) => door.end(sessionId),
});

/** How many segments from the start make `filmS` seconds (all of them for a shorter film). */
const segmentsFor = (durations: number[], filmS: number) => {
  let sum = 0;
  let n = 0;
  while (n < durations.length && sum < filmS - 0.5) sum += durations[n++]!;
  return { count: n, seconds: sum };
};

/** Where each segment starts in the film. */
const startsOf = (durations: number[]) => durations.map((_, i) => durations.slice(0, i).reduce((a, b) => a + b, 0));

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

/** A fresh session through `way`, its playlist and its whole first segment, then ended: the requests' ms and the total. */
const firstSegment = async (player: Player, way: Way) => {
  const t0 = performance.now();
  const opened = await way.open();
  try {
    const seg = await player.fetchSegment(opened.uris[0]!);
    const t1 = performance.now();
    return { opened, segmentMs: seg.ms, totalMs: t1 - t0, marks: [...opened.marks, t1] };
  } finally {
    await way.end(opened.sessionId);
  }
};

/** Row 1: a fresh session, its playlist and its first segment, then DELETE. */
const timeToFirstSegment = async (player: Player, mediaId: string, c: Case): Promise<StartTiming> => {
  const { opened, segmentMs, totalMs } = await firstSegment(player, apiWay(player, mediaId, c.client));
  return {
    postMs: opened.stepsMs[0]!,
    playlistMs: opened.stepsMs[1]!,
    segmentMs,
    totalMs,
    method: opened.method!,
    segmentS: opened.durations[0]!,
  };
};

/**
 * Row 2: in a live session (its first segment made), segments near the middle never made before:
 * from the furthest back, as the service makes the next ones ahead of each, and each asked with
 * no ffmpeg running.
 */
const seeks = async (instance: Instance, player: Player, way: Way) => {
  const offline = instance.state().processes.offline!;
  const { sessionId, durations, uris, method } = await way.open();
  const folder = join(instance.dataDir, 'playback', sessionId);
  try {
    await player.fetchSegment(uris[0]!);
    const total = durations.reduce((a, b) => a + b, 0);
    const runs: Array<{ index: number; at: number; ms: number }> = [];
    const starts = startsOf(durations);
    for (const share of [0.65, 0.6, 0.55]) {
      await quiet(offline);
      // The segment there, or (in a short film, where the three share one) the nearest one not made yet.
      const at = Math.max(
        0,
        starts.findLastIndex((start) => start <= share * total),
      );
      const free = (i: number) => i > 0 && i < durations.length && !runs.some((r) => r.index === i) && !existsSync(join(folder, `${i}.ts`));
      const index = [0, 1, -1, 2, -2, 3, -3].map((d) => at + d).find(free);
      if (index === undefined) continue;
      runs.push({ index, at: starts[index]!, ms: (await player.fetchSegment(uris[index]!)).ms });
    }
    return { method, runs, medianMs: median(runs.map((r) => r.ms)) };
  } finally {
    await way.end(sessionId);
  }
};

/** First-segment sessions through each way for the door's row, taken in turns (the order swapped each turn). */
const DOOR_TURNS = 9;
/** Seek sessions through each way for the door's row (three seeks each), in turns too. */
const DOOR_SEEK_TURNS = 5;
/** BENCH_PLAYBACK_ONLY=door: the films made and scanned, then row 2b alone, printed (the doc left as it is). */
const DOOR_ONLY = process.env.BENCH_PLAYBACK_ONLY === 'door';

interface WayStart {
  sessionId: string;
  /** The conversion's session, as the service's log names it. */
  conversionId: string;
  reasons?: string | undefined;
  /** Each request's milliseconds as the bench saw them, segment 0's last. */
  stepsMs: number[];
  totalMs: number;
  /** The wall-clock time (ms) before the first request and after each. */
  wall: number[];
  /** The DynamoDB calls that started in each request's time. */
  calls: DdbCall[][];
}

/** The service's log: each session's start ('playback session started') and the access lines (path, durationMs, when). */
const readLog = (dataDir: string) => {
  const sessions = new Map<string, string>();
  const access: Array<{ at: number; ms: number; path: string }> = [];
  const dir = join(dataDir, 'logs');
  for (const file of existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.log')) : []) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const started = line.includes('playback session started');
      if (!started && !line.includes('"durationMs"')) continue;
      try {
        const r = JSON.parse(line) as {
          time: string;
          sessionId?: string;
          method?: string;
          audio?: string;
          durationMs?: number;
          path?: string;
        };
        if (started && r.sessionId) sessions.set(r.sessionId, `${r.method ?? '?'}, audio ${r.audio ?? '?'}`);
        else if (typeof r.durationMs === 'number') access.push({ at: Date.parse(r.time), ms: r.durationMs, path: String(r.path) });
      } catch {
        // not a record
      }
    }
  }
  return { sessions, access };
};

/** The time calls were in flight (overlapping calls counted once). */
const busyMs = (calls: DdbCall[]) => {
  let [busy, end] = [0, -Infinity];
  for (const c of [...calls].sort((x, y) => x.startedAt - y.startedAt)) {
    const [from, to] = [Math.max(c.startedAt, end), c.startedAt + c.ms];
    if (to > from) busy += to - from;
    end = Math.max(end, to);
  }
  return busy;
};

/**
 * Row 2b: the 1080p remux through the Jellyfin door beside the same through /api/v1/playback,
 * in turns so that what else the machine does meanwhile falls on both alike: first segments
 * (with each request's time in its handler, from the service's access log, and the DynamoDB
 * calls it made, at the counting proxy), then seeks in live sessions, each measured as rows 1
 * and 2 measure them.
 */
const doorBeside = async (instance: Instance, proxy: ProxyProcess, player: Player, ways: { api: Way; door: Way }) => {
  const offline = instance.state().processes.offline!;
  const started = async (way: Way): Promise<WayStart> => {
    await quiet(offline);
    await proxy.take();
    const run = await firstSegment(player, way);
    const calls = await proxy.take();
    // The wall clock now, against performance.now(): the two drift apart over a long run.
    const offset = Date.now() - performance.now();
    const { marks } = run;
    return {
      sessionId: run.opened.sessionId,
      conversionId: run.opened.conversionId ?? run.opened.sessionId,
      reasons: run.opened.reasons,
      stepsMs: [...run.opened.stepsMs, run.segmentMs],
      totalMs: run.totalMs,
      wall: marks.map((m) => offset + m),
      calls: marks.slice(1).map((end, k) => calls.filter((c) => c.startedAt >= marks[k]! && c.startedAt < end)),
    };
  };
  // The door's first session loads its playback function (serverless-offline loads one at its first request): not counted;
  // nor is one more through /api/v1/playback (the same for it, where this row runs alone).
  const first = await started(ways.door);
  await started(ways.api);
  const starts: Record<'api' | 'door', WayStart[]> = { api: [], door: [] };
  const seekMs: Record<'api' | 'door', number[]> = { api: [], door: [] };
  const turn = (k: number) => (k % 2 === 0 ? (['api', 'door'] as const) : (['door', 'api'] as const));
  for (let k = 0; k < DOOR_TURNS; k++) for (const key of turn(k)) starts[key].push(await started(ways[key]));
  say(
    `the door's first segment (its first session ${ms(first.totalMs)} ms): ${starts.door.map((r) => ms(r.totalMs)).join(', ')} ms; /api/v1/playback's, in turns: ${starts.api.map((r) => ms(r.totalMs)).join(', ')} ms`,
  );
  for (let k = 0; k < DOOR_SEEK_TURNS; k++)
    for (const key of turn(k)) {
      await quiet(offline);
      seekMs[key].push(...(await seeks(instance, player, ways[key])).runs.map((r) => r.ms));
    }
  say(`the door's seeks: ${seekMs.door.map(ms).join(', ')} ms; /api/v1/playback's, in turns: ${seekMs.api.map(ms).join(', ')} ms`);
  // The log is written by the runner a moment after each line: read once at the end.
  await sleep(1000);
  const log = readLog(instance.dataDir);
  /** Each request's time in its handler: the access lines written within its time. */
  const handlerMs = (run: WayStart) =>
    run.wall
      .slice(1)
      .map((end, k) => log.access.filter((a) => a.at >= Math.floor(run.wall[k]!) && a.at <= Math.ceil(end)).reduce((n, a) => n + a.ms, 0));
  const conversion = {
    door: log.sessions.get(first.conversionId) ?? '? (not in the log)',
    api: log.sessions.get(starts.api[0]!.conversionId) ?? '? (not in the log)',
  };
  const handlers = { api: starts.api.map(handlerMs), door: starts.door.map(handlerMs) };
  return { first, conversion, starts, handlers, seekMs };
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
    const cpu0 = cpuSeconds(offline, true);
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
    const cpuS = cpuSeconds(offline, true) - cpu0;
    const made =
      Math.max(
        count - 1,
        ...readdirSync(folder)
          .map((n) => /^(\d+)\.ts$/.exec(n))
          .filter((m) => m !== null)
          .map((m) => Number(m[1])),
      ) + 1;
    const madeS = durations.slice(0, made).reduce((a, b) => a + b, 0);
    const speedOver = (filmS: number) => {
      const part = segmentsFor(durations, filmS);
      return part.seconds / doneAtS[part.count - 1]!;
    };
    const row: SpeedRow = {
      label: c.label,
      method: answer.method,
      segments: count,
      filmS: seconds,
      wallS,
      speed: seconds / wallS,
      cpuPerFilmS: cpuS / madeS,
      peakRss: run.peakRss,
      speedOver,
    };
    say(
      `${c.label}: ${count} segments, ${f(seconds, 1)} s of film in ${f(wallS)} s = ${f(row.speed)}x; ${made} segments made, ${f(row.cpuPerFilmS)} CPU s per film s; ffmpeg peak ${run.peakRss} MiB`,
    );
    if (!disk) return { row };
    // The disk: the rest of the film, one segment after another, past the session's cap.
    const rest = await sampled(offline, folder, async () => {
      for (let i = count; i < durations.length; i++) await player.segment(answer.url, i);
    });
    const folderPeak = {
      bytes: Math.max(run.peakBytes, rest.peakBytes),
      segments: Math.max(run.peakSegments, rest.peakSegments),
      asked: durations.length,
    };
    // An ended session: its folder goes with the DELETE.
    const t1 = performance.now();
    await player.end(sessionId);
    ended = true;
    while (folderUsage(folder) && performance.now() - t1 < 10_000) await sleep(5);
    const afterDeleteS = folderUsage(folder) ? NaN : (performance.now() - t1) / 1000;
    const ffmpegLeft = ffmpegChildren(offline).filter((p) => p.cmdline.includes(sessionId)).length;
    say(
      `disk: ${folderPeak.asked} segments asked, the folder peaked at ${f(folderPeak.bytes / 2 ** 20, 1)} MiB in ${folderPeak.segments} segments; gone ${f(afterDeleteS, 3)} s after the DELETE was sent`,
    );
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
  v.currentTime = target;
  const tick = () => {
    if (seeked && v.currentTime > target + 0.1 && v.webkitVideoDecodedByteCount > 0) return resolve({ ms: Date.now() - t0, target, startedAt: t0 });
    if (v.error) return reject(new Error('media error ' + v.error.code + ' ' + v.error.message));
    if (Date.now() - t0 > ${SEEK_GIVE_UP_MS}) return resolve({ ms: NaN, target, stalledAt: v.currentTime, seeked });
    setTimeout(tick, 20);
  };
  tick();
})`;

const WHICH_HLS = `(() => {
  const hls = document.createElement('video').canPlayType('application/vnd.apple.mpegurl');
  return hls ? 'native HLS' : 'hls.js';
})()`;

interface BrowserRun {
  firstFrameMs: number;
  /** The seek to 60 % right after the first frame; Infinity when its frame never came. */
  seekMs: number;
  /** A second seek, to 30 %, after playing PLAYING_MS on from the first (Infinity: stalled, or the first did). */
  playingSeekMs: number;
  method: string;
  endedOnClose: boolean;
}

const msOrStall = (n: number) => (n === Infinity ? 'stalled' : ms(n));

/** A page let settle after it opened: a new page's start costs Chromium about a second of CPU on this box's two cores. */
const SETTLE_MS = 1_500;

/** Row 3: one page: Play pressed (or, cold, the player's address opened in a new page) to the first frame, a seek to 60 % to its frame, close. */
const browserRun = async (browser: Browser, instance: Instance, player: Player, mediaId: string, cold = false): Promise<BrowserRun> => {
  const page: Page = await browser.newPage();
  let answer: Answer | undefined;
  page.on('response', (res) => {
    if (res.url().includes('/api/v1/playback/') && res.request().method() === 'POST')
      void res.json().then(
        (body: { data?: Answer }) => (answer = body.data),
        () => undefined,
      );
  });
  let closed = false;
  try {
    await page.addInitScript(FIRST_FRAME);
    // The run before reported where its player stopped (60 %): the film's page would offer to resume there.
    const cleared = await fetch(`${instance.url}/api/v1/played/${mediaId}`, { method: 'DELETE' });
    if (!cleared.ok) throw new Error(`DELETE /api/v1/played/${mediaId}: ${cleared.status}`);
    if (!cold) {
      await page.goto(`${instance.url}/movies/${mediaId}`);
      await page.locator('a.play').waitFor();
      await sleep(SETTLE_MS);
    }
    const t0 = Date.now();
    if (cold) await page.goto(`${instance.url}/play/${mediaId}`);
    else await page.locator('a.play').click();
    // Polled from here: the page's CSP forbids the eval a string waitForFunction needs; the page stamps the moment itself.
    let firstFrameAt = 0;
    while (!firstFrameAt && Date.now() - t0 < 60_000) {
      firstFrameAt = await page.evaluate<number>('window.__bench ? window.__bench.firstFrameAt : 0');
      if (!firstFrameAt) await sleep(50);
    }
    if (!firstFrameAt)
      throw new Error(
        `/play/${mediaId}: no frame in 60 s; the page says: ${(
          await page
            .locator('main')
            .innerText()
            .catch(() => '')
        ).slice(0, 300)}`,
      );
    const seek = await page.evaluate<{ ms: number; stalledAt?: number }>(seekTo(0.6));
    let playingSeekMs = Infinity;
    if (seek.stalledAt === undefined) {
      await sleep(PLAYING_MS);
      const again = await page.evaluate<{ ms: number; stalledAt?: number }>(seekTo(0.3));
      if (again.stalledAt === undefined) playingSeekMs = again.ms;
    } else say(`a seek without its frame: the video stood at ${f(seek.stalledAt, 3)} s after ${SEEK_GIVE_UP_MS / 1000} s`);
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
    return {
      firstFrameMs: firstFrameAt - t0,
      seekMs: seek.stalledAt === undefined ? seek.ms : Infinity,
      playingSeekMs,
      method: answer?.method ?? '?',
      endedOnClose,
    };
  } finally {
    if (!closed) await page.close();
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

/** `233 (201-260)`, the median in bold when `bold`. */
const spread = (values: number[], bold = false) =>
  `${bold ? `**${ms(median(values))}**` : ms(median(values))} (${ms(Math.min(...values))}-${ms(Math.max(...values))})`;
const signed = (n: number) => (n > 0 ? `+${ms(n)}` : ms(n));

/** The DynamoDB calls of one request in each session: `UpdateItem playback, 2× GetItem jellyfin`. */
const callsOf = (runs: WayStart[], step: number) => {
  const counts = new Map<string, number>();
  for (const run of runs) for (const call of run.calls[step] ?? []) counts.set(call.label, (counts.get(call.label) ?? 0) + 1);
  const labels = [...counts].map(([label, n]) => {
    const per = n / runs.length;
    return `${per === 1 ? '' : `${Number.isInteger(per) ? per : f(per, 1)}× `}${label}`;
  });
  return labels.length ? labels.join(', ') : 'none';
};

/** Row 2b as a whole: logged in through the door, the film's GUID found in its library, then the turns. */
const doorRow = async (instance: Instance, proxy: ProxyProcess, player: Player, jellyfin: string, libraryId: string, mediaId: string) => {
  const door = await DoorPlayer.login(jellyfin);
  const film = (await door.films(libraryId)).find((item) => item.ProductionYear === FILES.remux1080.year);
  if (!film) throw new Error(`the Jellyfin door does not list ${FILES.remux1080.file} in the films' library`);
  const ways = { api: apiWay(player, mediaId), door: doorWay(player, door, film.Id) };
  return { beside: await doorBeside(instance, proxy, player, ways), ways };
};

type Beside = Awaited<ReturnType<typeof doorBeside>>;

/** The door's medians over /api/v1/playback's, of the same turns. */
const ratiosOf = (beside: Beside) => ({
  first: median(beside.starts.door.map((r) => r.totalMs)) / median(beside.starts.api.map((r) => r.totalMs)),
  seek: median(beside.seekMs.door) / median(beside.seekMs.api),
});

/** Row 2b's part of the report. */
const doorSection = (beside: Beside, ways: { api: Way; door: Way }) => {
  const doorRatio = ratiosOf(beside);
  const keys = ['api', 'door'] as const;
  const stepsOf = (key: 'api' | 'door') => [...ways[key].steps, 'segment 0'];
  const requests = (key: 'api' | 'door') =>
    stepsOf(key)
      .map((step, i) => {
        const runs = beside.starts[key];
        const handler = median(beside.handlers[key].map((h) => h[i]!));
        const db = median(runs.map((r) => busyMs(r.calls[i]!)));
        return `${step} ${ms(median(runs.map((r) => r.stepsMs[i]!)))} (${ms(handler)}; ${ms(db)})`;
      })
      .join(' / ');
  /** The door's less /api/v1/playback's within each turn: the median. */
  const inTurns = (of: (r: WayStart) => number) => median(beside.starts.door.map((r, i) => of(r) - of(beside.starts.api[i]!)));
  const beforeSegment = (r: WayStart) => r.stepsMs.slice(0, -1).reduce((a, b) => a + b, 0);
  const first = beside.first;
  return [
    `**Through the Jellyfin door**: the ${CASES.remux1080.label} film as a Jellyfin app plays it, logged in as the household: POST /Items/{id}/PlaybackInfo asked in order to play (IsPlayback, as the web client sends when it starts a film) with a device profile that plays H.264 and AAC in MP4 and takes HLS of H.264 and AAC (TranscodeReasons ${first.reasons}; the service's log: ${beside.conversion.door}), the master playlist, its one variant (main.m3u8) and segment 0; beside the same film through /api/v1/playback (its default client; the log: ${beside.conversion.api}): POST, index.m3u8, segment 0. ${DOOR_TURNS} sessions each, in turns (the order swapped every turn), each started with no ffmpeg running and ended after (DELETE /Videos/ActiveEncodings; DELETE the session). The door's first session (its function's first load) is not counted: ${first.stepsMs.map(ms).join(' / ')}, **${ms(first.totalMs)}** ms. Each request: the bench's time, then (in brackets) the time in its handler (the access log's durationMs) and the time its DynamoDB calls were in flight (at the counting proxy, its hop included). Seek: as above, in ${DOOR_SEEK_TURNS} live sessions each, in turns.`,
    '',
    table(
      [
        'remux 1080p',
        'each request: median ms (handler; DynamoDB)',
        `first segment: median ms (min-max) of ${DOOR_TURNS}`,
        `seek: median ms (min-max) of ${beside.seekMs.api.length}`,
        'DynamoDB calls per session',
      ],
      [
        ...keys.map((key) => [
          ways[key].name,
          requests(key),
          spread(
            beside.starts[key].map((r) => r.totalMs),
            true,
          ),
          spread(beside.seekMs[key]),
          stepsOf(key)
            .map((step, i) => `${step}: ${callsOf(beside.starts[key], i)}`)
            .join('; '),
        ]),
        [
          'the door ÷ /api/v1/playback',
          '',
          `${f(doorRatio.first)}× (within 10 %: ${met(doorRatio.first <= 1.1)})`,
          `${f(doorRatio.seek)}× (within 10 %: ${met(doorRatio.seek <= 1.1)})`,
          '',
        ],
      ],
    ),
    '',
    `Within a turn (the door's less /api/v1/playback's, median of ${DOOR_TURNS}): the first segment ${signed(inTurns((r) => r.totalMs))} ms; the requests before segment 0 ${signed(inTurns(beforeSegment))} ms; segment 0 itself ${signed(inTurns((r) => r.stepsMs.at(-1)!))} ms (the service starts making it before it answers PlaybackInfo or the POST).`,
  ];
};

// ---------------------------------------------------------------------------------------------

export const runPlayback = async () => {
  const idleBefore = await idleShare();
  const began = performance.now();
  const elapsed = () => `${((performance.now() - began) / 1000).toFixed(0)} s`;
  const ffmpegVersion = execFileSync('ffmpeg', ['-hide_banner', '-version'], { encoding: 'utf8' })
    .split('\n')[0]!
    .replace(/ Copyright.*/, '');
  if (!execFileSync('ffmpeg', ['-hide_banner', '-encoders'], { encoding: 'utf8' }).includes('libx265'))
    throw new Error("the playback bench needs an ffmpeg with libx265 (Debian's)");
  // The web client as built; built here only when missing (a build replaces web/dist, which another run may be serving).
  if (!existsSync(join(PROJECT_DIR, 'web/dist/index.html'))) await buildWeb();

  const root = mkdtempSync(join(tmpdir(), 'mls-bench-playback-'));
  const library = join(root, 'library');
  const scratch = join(root, 'scratch');
  let browser: Browser | undefined;
  try {
    mkdirSync(library);
    mkdirSync(scratch);
    const [{ instance, proxy, jellyfin }] = await Promise.all([sharedLibrary(), makeFilms(library, scratch)]);
    const makeS = (performance.now() - began) / 1000;
    const sizes = Object.fromEntries(Object.entries(FILES).map(([k, v]) => [k, statSync(join(library, v.file)).size / 1e6])) as Record<
      keyof Films,
      number
    >;
    const { entries, libraryId } = await addLibrary(library, 'movie', Object.keys(FILES).length);
    const ids = Object.fromEntries(
      Object.entries(FILES).map(([key, { year, file }]) => {
        const found = entries.find((e) => e.media.year === year);
        if (!found)
          throw new Error(`${file} was not scanned as a film: ${JSON.stringify(entries.map((e) => [e.media.title, e.media.year]))}`);
        return [key, found.id as string];
      }),
    ) as Record<keyof Films, string>;
    const player = new Player(instance.url);
    const offline = instance.state().processes.offline!;
    say(`films made (${elapsed()}) and scanned; offline is pid ${offline}`);
    if (DOOR_ONLY) {
      const { beside, ways } = await doorRow(instance, proxy, player, jellyfin, libraryId, ids.remux1080);
      process.stdout.write(`\n${doorSection(beside, ways).join('\n')}\n`);
      return;
    }

    // 1. Time to the first segment. A remux's first session reads the keyframe index: the median
    // is of the next RUNS. A transcode's first reads only the duration and frame rate (kept from
    // their remux rows for the H.264 films): the median is of RUNS sessions, the first among them.
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
      say(
        `first segment, ${c.label} (${first.method}): first session ${ms(first.totalMs)} ms; then ${counted.map((r) => ms(r.totalMs)).join(', ')} ms`,
      );
    }

    // 2. Seeks in a live session.
    const seekRows = [];
    for (const c of [CASES.remux1080, CASES.transcode1080] as Case[]) {
      await quiet(offline);
      seekRows.push({ c, ...(await seeks(instance, player, apiWay(player, ids[c.film], c.client))) });
    }

    // 2b. The 1080p remux through the Jellyfin door, in turns with /api/v1/playback.
    await quiet(offline);
    const { beside, ways } = await doorRow(instance, proxy, player, jellyfin, libraryId, ids.remux1080);

    // 3. Chromium through the web client.
    browser = await launchChromium();
    const browserRows = [];
    for (const c of [CASES.remux1080, CASES.hevc] as Case[]) {
      const runs: BrowserRun[] = [];
      for (let i = 0; i < RUNS; i++) {
        await quiet(offline, `a page of ${c.label}`);
        runs.push(await browserRun(browser, instance, player, ids[c.film]));
      }
      await quiet(offline, `a cold page of ${c.label}`);
      const cold = await browserRun(browser, instance, player, ids[c.film], true);
      browserRows.push({ c, runs, cold });
      say(
        `Chromium, ${c.label}: first frame ${runs.map((r) => ms(r.firstFrameMs)).join(', ')} ms (cold ${ms(cold.firstFrameMs)}); seek ${runs.map((r) => msOrStall(r.seekMs)).join(', ')}`,
      );
    }
    const probe = await browser.newPage();
    await probe.goto(`${instance.url}/`);
    const hlsPath = await probe.evaluate<string>(WHICH_HLS);
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

    // 5. Conversions at once; one alone is the first TOGETHER_FILM_S of row 4's 1080p transcode.
    const transcode1080 = speedRows.find((r) => r.label === CASES.transcode1080.label)!;
    const togetherRows: number[][] = [[transcode1080.speedOver(TOGETHER_FILM_S)]];
    for (const n of [2, 3]) {
      await quiet(offline, `${n} transcodes at once`);
      togetherRows.push(await together(player, ids.remux1080, n));
    }
    const lastRunsS = await quiet(offline);
    const gone = await abandoned.done;
    const ffmpegAtEnd = ffmpegChildren(offline).length;
    const foldersAtEnd = existsSync(join(instance.dataDir, 'playback')) ? readdirSync(join(instance.dataDir, 'playback')).length : 0;
    const idleAfter = await idleShare();

    const [remuxStart, chromeRemux] = [starts[0]!, browserRows[0]!];
    const remuxFirstFrame = median(chromeRemux.runs.map((r) => r.firstFrameMs));
    const remuxBrowserSeek = median(chromeRemux.runs.map((r) => r.seekMs));
    const remuxPlayingSeek = median(chromeRemux.runs.map((r) => r.playingSeekMs));
    const remuxSeek = seekRows[0]!.medianMs;
    const outlivedS = gone.goneS - IDLE_S;
    const doorRatio = ratiosOf(beside);
    const stalled = (n: number) => (n === Infinity ? 'stalled' : `${f(n / 1000)} s`);
    writeDoc(
      'playback',
      [
        `${machineLine()}; ${ffmpegVersion}; Debian's Chromium, headless. The part took ${f((performance.now() - began) / 1000, 0)} s, ${f(makeS, 0)} s of it making the films; the CPUs were ${f(100 * idleBefore, 0)} % idle in the 2 s before it and ${f(100 * idleAfter, 0)} % after.`,
        `The films (bench/films.ts): H.264 1080p at 5 Mb/s (${f(sizes.remux1080, 0)} MB) and 720p at 2.5 Mb/s (${f(sizes.remux720, 0)} MB), ${MINUTES} min each, and HEVC 10-bit 1080p at 4 Mb/s, ${HEVC_BLOCK_S * HEVC_BLOCKS} s; AC-3 5.1, Matroska. The shared stack runs with PLAYBACK_MAX_TRANSCODES=3 and PLAYBACK_MAX_REMUXES=8. A transcode of an H.264 film is forced with a client that plays VP9 only. The service makes the next segments while one is downloaded, so every measure that must start alone waits until offline runs no ffmpeg.`,
        '',
        `**Time to the first segment**: a fresh session each time, DELETEd after; POST, playlist and segment 0 in ms.`,
        '',
        table(
          [
            'start',
            'method',
            'segment 0 s',
            'first session: POST / playlist / segment 0 / total ms',
            'median: POST / playlist / segment 0 / total ms',
            'median of sessions',
          ],
          starts.map(({ c, first, counted, which }) => [
            c.label,
            first.method,
            f(first.segmentS, 1),
            startCells(first),
            startCells(medianStart(counted)),
            which,
          ]),
        ),
        '',
        `**Seek** in a live session whose segment 0 was made: the whole segment at 65 %, 60 % and 55 % of the film, none made before, each asked with no ffmpeg running. ` +
          seekRows
            .map(
              (x) =>
                `${x.c.label}: segments ${x.runs.map((r) => `${r.index} (${f(r.at, 1)} s) ${ms(r.ms)} ms`).join(', ')}; median ${ms(x.medianMs)} ms`,
            )
            .join('. ') +
          '.',
        '',
        ...doorSection(beside, ways),
        '',
        `**In Chromium**: the web client's player (${hlsPath}), a new page per run, the film's page let settle ${SETTLE_MS / 1000} s, then Play pressed; first frame when the video has decoded bytes and currentTime > 0. Cold: the player's address opened in a new page, Chromium's own start included. Seek: to 60 % right after the first frame, until \`seeked\` and currentTime past the target; while playing: ${PLAYING_MS / 1000} s on, then to 30 %. Median of ${RUNS}.`,
        '',
        table(
          [
            'film',
            'method',
            'first frame ms (each)',
            'cold page ms',
            'seek ms (each)',
            'seek while playing ms (each)',
            'session ended on close',
          ],
          browserRows.map(({ c, runs, cold }) => [
            c.label,
            runs[0]!.method,
            runs.map((r) => ms(r.firstFrameMs)).join(', '),
            ms(cold.firstFrameMs),
            runs.map((r) => msOrStall(r.seekMs)).join(', '),
            runs.map((r) => msOrStall(r.playingSeekMs)).join(', '),
            `${runs.filter((r) => r.endedOnClose).length} of ${runs.length}`,
          ]),
        ),
        '',
        `**Conversion speed**: segments from the start one after another for ${SPEED_FILM_S} s of film; speed is film seconds per wall second; CPU is the offline process's reaped children's (its ffmpeg runs) per film second made; peak RSS the largest ffmpeg child's.`,
        '',
        table(
          ['conversion', 'segments', 'film s', 'wall s', 'speed x', 'CPU s per film s', 'ffmpeg peak RSS MiB'],
          speedRows.map((r) => [r.label, r.segments, f(r.filmS, 1), f(r.wallS), f(r.speed), f(r.cpuPerFilmS), r.peakRss]),
        ),
        '',
        `Forced 1080p transcodes at once, ${TOGETHER_FILM_S} s of film each, the speed of each: ${togetherRows.map((speeds, i) => `${i + 1}: ${speeds.map((x) => `${f(x)}×`).join(' / ')}`).join('; ')} (all faster than real time: ${togetherRows.every((x) => Math.min(...x) >= 1) ? 'yes' : 'no'}).`,
        '',
        table(
          ['disk and cleanup', 'value'],
          [
            [
              `1080p remux session's folder, largest seen while ${disk?.asked ?? '-'} segments were asked in turn`,
              disk ? `${f(disk.bytes / 2 ** 20, 1)} MiB in ${disk.segments} segments (cap ${SEGMENT_CAP})` : '-',
            ],
            [
              'the same session after its DELETE: folder gone',
              disk ? `${f(disk.afterDeleteS, 3)} s after; ffmpeg left: ${disk.ffmpegLeft}` : '-',
            ],
            [
              'a remux session left after 2 segments: folder and ffmpeg gone',
              `${f(gone.goneS, 0)} s after its last request (idle ${IDLE_S} s + a sweep every 10 s); its last ffmpeg seen after ${f(gone.ffmpegLastSeenS, 0)} s`,
            ],
            [
              'at the end: ffmpeg children of offline / session folders left',
              `${ffmpegAtEnd} / ${foldersAtEnd} (the last segments made ahead ended ${f(lastRunsS, 1)} s after the DELETEs)`,
            ],
          ],
        ),
        ...(player.timeouts.length ? ['', `Segments answered 504 and asked again: ${player.timeouts.join('; ')}.`] : []),
        '',
        `Against the targets: remux first frame in Chromium ${f(remuxFirstFrame / 1000)} s (≤ 1.5 s: ${met(remuxFirstFrame <= 1500)}; the first segment over HTTP ${f(medianStart(remuxStart.counted).totalMs / 1000)} s); remux seek ${f(remuxSeek / 1000)} s over HTTP, ${stalled(remuxBrowserSeek)} in Chromium, ${stalled(remuxPlayingSeek)} while playing (≤ 1 s: ${met(Math.max(remuxSeek, remuxBrowserSeek, remuxPlayingSeek) <= 1000)}); through the Jellyfin door, the remux's first segment ${f(median(beside.starts.door.map((r) => r.totalMs)) / 1000)} s and its seek ${f(median(beside.seekMs.door) / 1000)} s, ${f(doorRatio.first)}× and ${f(doorRatio.seek)}× /api/v1/playback's in the same turns (within 10 %: ${met(Math.max(doorRatio.first, doorRatio.seek) <= 1.1)}); 1080p transcode at ${f(transcode1080.speed)}× (≥ 1×: ${met(transcode1080.speed >= 1)}); a session's disk ${disk?.segments ?? '-'} segments (${met(disk !== undefined && disk.segments <= SEGMENT_CAP)}); an abandoned session's ffmpeg and folder gone ${f(outlivedS, 0)} s after it ended (≤ 60 s: ${met(Number.isFinite(gone.goneS) && outlivedS <= 60)}).`,
      ].join('\n'),
    );
  } finally {
    await browser?.close().catch(() => undefined);
    rmSync(root, { recursive: true, force: true });
  }
};
