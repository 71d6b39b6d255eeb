// Measures the two candidate designs for converting a file to HLS while it is watched, on this
// machine, and writes the figures to docs/playback-design.md (between its markers):
//   A. per segment: one short ffmpeg run per requested segment, cut at the source's keyframes
//      (remux) or at fixed times (transcode);
//   B. one long ffmpeg per session with the hls muxer writing ahead, restarted on a far seek.
// Run alone on a quiet machine: node --import tsx bench/playback-design.ts (about 10 minutes on
// 2 cores). Needs Debian's ffmpeg, ffprobe and /usr/bin/time. Every conversion runs under
// `nice -n 10`, as the service would run it.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { concatCopies, FPS, h264Block, hevcBlock } from './films';
import { idleShare, table } from './support';

const DOC = new URL('../docs/playback-design.md', import.meta.url);
const FILM_S = 600;
/** The films are one encoded minute copied ten times: encoding 10 min of 1080p would take most of the time budget. */
const FILM_BLOCK_S = 60;
const HEVC_BLOCK_S = 20;
const HEVC_BLOCKS = 8;
const REMUX_TARGET_S = 6;
/** ffmpeg's MPEG-TS muxer adds 2 x -muxdelay (0.7 s by default) to every timestamp it writes. */
const TS_MUX_DELAY_S = 1.4;
const TRANSCODE_OUTPUT_S = 60;

// ---------------------------------------------------------------------------------------------
// Running a measured process

interface Measured {
  wallS: number;
  cpuS: number;
  maxRssMiB: number;
  stdout: string;
}

interface Running {
  child: ChildProcess;
  startedAt: number;
  done: Promise<Measured>;
  /** Ends the process early (SIGINT to its group: ffmpeg closes its files, time still reports). */
  stop: () => void;
}

let scratch = '';
let timeFiles = 0;

/** Starts `command` under /usr/bin/time (wall, user, system, max RSS), niced when asked. */
function start(command: string[], niced = true): Running {
  const timeFile = join(scratch, `time-${timeFiles++}.txt`);
  const argv = ['-f', '%e %U %S %M', '-o', timeFile, ...(niced ? ['nice', '-n', '10'] : []), ...command];
  const startedAt = performance.now();
  // Its own process group, so a stop reaches ffmpeg and nothing else.
  const child = spawn('/usr/bin/time', argv, { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stopped = false;
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
  const done = new Promise<Measured>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const wallS = (performance.now() - startedAt) / 1000;
      if (code !== 0 && !stopped) return reject(new Error(`${command[0]} exited ${code}: ${stderr.trim()}`));
      // time writes "Command exited with non-zero status" first when the command failed: the figures are the last line.
      const last = readFileSync(timeFile, 'utf8').trim().split('\n').at(-1) ?? '';
      const [, user = 0, system = 0, rssKiB = 0] = last.split(' ').map(Number);
      resolve({ wallS, cpuS: user + system, maxRssMiB: rssKiB / 1024, stdout });
    });
  });
  const stop = () => {
    stopped = true;
    if (child.pid) process.kill(-child.pid, 'SIGINT');
  };
  return { child, startedAt, done, stop };
}

const measure = (command: string[], niced = true) => start(command, niced).done;

const ffmpeg = (...args: string[]) => ['ffmpeg', '-nostdin', '-hide_banner', '-v', 'error', '-y', ...args];

/** Runs a command for its output only (generation, checks): not measured, not niced. */
const output = async (command: string[]) => (await measure(command, false)).stdout;


// ---------------------------------------------------------------------------------------------
// Test sources

interface Sources {
  film1080: string;
  film720: string;
  hevc: string;
  generateS: number;
}

async function makeSources(): Promise<Sources> {
  const started = performance.now();
  await h264Block(join(scratch, 'b1080.mkv'), '1920x1080', 5000, FILM_BLOCK_S);
  const film1080 = await concatCopies(join(scratch, 'b1080.mkv'), FILM_BLOCK_S, FILM_S / FILM_BLOCK_S, join(scratch, 'film-1080p.mkv'));
  await h264Block(join(scratch, 'b720.mkv'), '1280x720', 2500, FILM_BLOCK_S);
  const film720 = await concatCopies(join(scratch, 'b720.mkv'), FILM_BLOCK_S, FILM_S / FILM_BLOCK_S, join(scratch, 'film-720p.mkv'));
  await hevcBlock(join(scratch, 'bhevc.mkv'), HEVC_BLOCK_S, 5);
  const hevc = await concatCopies(join(scratch, 'bhevc.mkv'), HEVC_BLOCK_S, HEVC_BLOCKS, join(scratch, 'hevc10-1080p.mkv'));
  return { film1080, film720, hevc, generateS: (performance.now() - started) / 1000 };
}

// ---------------------------------------------------------------------------------------------
// Step 2: the keyframe index

interface VideoInfo {
  durationS: number;
  /** The first video frame's PTS: segment boundaries for a transcode sit on the frame grid from here. */
  startS: number;
  frameS: number;
  /** Frames by which DTS trails PTS (B-frame reordering). */
  reorderFrames: number;
}

async function videoInfo(path: string): Promise<VideoInfo> {
  const json = JSON.parse(await output(['ffprobe', '-v', 'error', '-select_streams', 'v:0',
    '-show_entries', 'stream=r_frame_rate,has_b_frames,start_time:format=duration', '-of', 'json', path])) as {
    streams: { r_frame_rate: string; has_b_frames: number; start_time: string }[];
    format: { duration: string };
  };
  const stream = json.streams[0]!;
  const [num = FPS, den = 1] = stream.r_frame_rate.split('/').map(Number);
  return { durationS: Number(json.format.duration), startS: Number(stream.start_time), frameS: den / num, reorderFrames: stream.has_b_frames };
}

/** Keyframe times from the packet list: the demuxer only, nothing decoded. */
const keyframesFromPackets = (csv: string) =>
  csv.split('\n').filter((line) => line.includes('K')).map((line) => Number(line.split(',')[0]));

/** Keyframe times from decoded key frames; a frame with side data prints an extra empty section, hence the filter. */
const keyframesFromFrames = (csv: string) =>
  csv.split('\n').map((line) => line.split(',')[0]!).filter((field) => field !== '').map(Number);

interface IndexRow {
  method: string;
  wallS: number;
  cpuS: number;
  maxRssMiB: number;
  keyframes: number;
  sPerGB: number;
}

/** Median wall of three runs (the file is in the page cache, as a freshly scanned file is). */
async function timeIndex(method: string, command: string[], parse: (csv: string) => number[], gb: number) {
  const runs: Measured[] = [];
  for (let i = 0; i < 3; i++) runs.push(await measure(command, false));
  const mid = runs.sort((a, b) => a.wallS - b.wallS)[1]!;
  const keyframes = parse(mid.stdout);
  const row: IndexRow = { method, wallS: mid.wallS, cpuS: mid.cpuS, maxRssMiB: mid.maxRssMiB, keyframes: keyframes.length, sPerGB: mid.wallS / gb };
  return { row, keyframes };
}

async function measureIndex(path: string) {
  const gb = statSync(path).size / 1e9;
  const frames = await timeIndex('decoded key frames (-skip_frame nokey, frame=pts_time)',
    ['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-skip_frame', 'nokey', '-show_entries', 'frame=pts_time', '-of', 'csv=p=0', path],
    keyframesFromFrames, gb);
  const packets = await timeIndex('packet flags only (packet=pts_time,flags)',
    ['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', path],
    keyframesFromPackets, gb);
  const agree = frames.keyframes.length === packets.keyframes.length &&
    frames.keyframes.every((t, i) => Math.abs(t - packets.keyframes[i]!) < 1e-6);
  return { rows: [frames.row, packets.row], keyframes: packets.keyframes, agree, sizeGB: gb };
}

// ---------------------------------------------------------------------------------------------
// Step 3: design A, one short ffmpeg per segment

interface Segment {
  start: number;
  end: number;
  last: boolean;
}

/** Remux segments cut at keyframes: each ends at the keyframe nearest to `target` seconds on. */
function planRemux(keyframes: number[], durationS: number, target = REMUX_TARGET_S): Segment[] {
  const segments: Segment[] = [];
  let i = 0;
  while (i < keyframes.length) {
    const start = keyframes[i]!;
    let j = i + 1;
    while (j + 1 < keyframes.length && Math.abs(keyframes[j + 1]! - start - target) <= Math.abs(keyframes[j]! - start - target)) j++;
    const last = j >= keyframes.length;
    segments.push({ start, end: last ? durationS : keyframes[j]!, last });
    i = j;
  }
  return segments;
}

const AAC_STEREO = ['-c:a', 'aac', '-ac', '2', '-b:a', '128k'];
const sec = (seconds: number) => seconds.toFixed(6);

/**
 * The remux segment as design A produces it. Each pitfall met on the way has its option:
 *  - `-ss` before `-i` on a file with B-frames seeks 3/23 s early, which lands on the keyframe
 *    *before* the one asked for, and stream copy keeps everything from there: `-copyts` with
 *    `-copypriorss 0` drops the packets before the start, so the segment opens on our keyframe;
 *  - `-t` under `-copyts` counts from zero (it closes a copied stream at once), so the ends are
 *    `-to`, per input;
 *  - a copied stream is cut on DTS, which trails PTS by the reorder delay: cut at the next
 *    keyframe's PTS, the segment would carry that keyframe and the frames after it. The video
 *    input therefore ends half a frame before the next keyframe's DTS, and the audio (read
 *    through a second input, decoded, so cut exactly) ends at the keyframe itself;
 *  - the first segment's DTS are negative (B-frames): the default -avoid_negative_ts would shift
 *    that segment alone by the reorder delay.
 */
function remuxArgs(path: string, info: VideoInfo, seg: Segment, out: string) {
  const videoEnd = seg.end - (info.reorderFrames + 0.5) * info.frameS;
  return ffmpeg(
    '-ss', sec(seg.start), ...(seg.last ? [] : ['-to', sec(videoEnd)]), '-i', path,
    '-ss', sec(seg.start), ...(seg.last ? [] : ['-to', sec(seg.end)]), '-i', path,
    '-copyts', '-copypriorss', '0', '-map', '0:v:0', '-map', '1:a:0',
    '-c:v', 'copy', ...AAC_STEREO, '-avoid_negative_ts', 'disabled', '-f', 'mpegts', out,
  );
}

/** What one usually writes first: seek, a duration, copy, shift the output to the segment's time. */
const naiveRemuxArgs = (path: string, seg: Segment, out: string) =>
  ffmpeg('-ss', sec(seg.start), '-i', path, '-t', sec(seg.end - seg.start), '-map', '0:v:0', '-map', '0:a:0',
    '-c:v', 'copy', ...AAC_STEREO, '-output_ts_offset', sec(seg.start), '-f', 'mpegts', out);

/**
 * A transcode segment: any cut works as the video is re-encoded, but the cuts must sit on the
 * source's frame grid (else the constant-frame-rate output drops or repeats a frame at each
 * join), and the output is shifted to the segment's time rather than kept with -copyts (under
 * which -t stops nothing).
 */
function transcodeArgs(path: string, start: number, durationS: number, preset: string, height: number, out: string) {
  return ffmpeg(
    '-ss', sec(start), '-i', path, '-t', sec(durationS), '-map', '0:v:0', '-map', '0:a:0',
    '-vf', `scale=-2:${height},format=yuv420p`, '-c:v', 'libx264', '-preset', preset, '-crf', '23',
    ...AAC_STEREO, '-output_ts_offset', sec(start), '-avoid_negative_ts', 'disabled', '-f', 'mpegts', out,
  );
}

interface StreamSpan {
  first: number;
  end: number;
}

/** First PTS and end (last PTS + duration) of the segment's video (stream 0) and audio (stream 1), mux delay removed. */
async function spans(path: string): Promise<{ video: StreamSpan; audio: StreamSpan; videoFrames: number }> {
  const csv = await output(['ffprobe', '-v', 'error', '-show_entries', 'packet=stream_index,pts_time,duration_time', '-of', 'csv=p=0', path]);
  const span = [{ first: Infinity, end: -Infinity }, { first: Infinity, end: -Infinity }];
  let videoFrames = 0;
  for (const line of csv.split('\n')) {
    const [index, pts, duration] = line.split(',').map(Number);
    const stream = span[index ?? -1];
    if (!stream || !Number.isFinite(pts)) continue;
    if (index === 0) videoFrames++;
    stream.first = Math.min(stream.first, pts! - TS_MUX_DELAY_S);
    stream.end = Math.max(stream.end, pts! - TS_MUX_DELAY_S + (duration || 0));
  }
  return { video: span[0]!, audio: span[1]!, videoFrames };
}

/** The largest gap (+) or overlap (-) in ms between consecutive segments, per stream. */
async function joins(paths: string[]) {
  const all = await Promise.all(paths.map(spans));
  let video = 0;
  let audio = 0;
  const worst = (current: number, next: number) => (Math.abs(next) > Math.abs(current) ? next : current);
  for (let i = 1; i < all.length; i++) {
    video = worst(video, (all[i]!.video.first - all[i - 1]!.video.end) * 1000);
    audio = worst(audio, (all[i]!.audio.first - all[i - 1]!.audio.end) * 1000);
  }
  return { videoMs: video, audioMs: audio, spans: all };
}

interface SegmentRow {
  case: string;
  segmentS: number;
  wallS: number;
  cpuS: number;
  maxRssMiB: number;
  note: string;
}

const segmentRow = (name: string, segmentS: number, m: Measured, note = ''): SegmentRow =>
  ({ case: name, segmentS, wallS: m.wallS, cpuS: m.cpuS, maxRssMiB: m.maxRssMiB, note });

/** The remux segment at the start, around the middle (a seek) and at the end of a film. */
async function remuxPositions(label: string, path: string) {
  const info = await videoInfo(path);
  const keyframes = await packetKeyframes(path);
  const plan = planRemux(keyframes, info.durationS);
  const middle = plan.findIndex((seg) => seg.end > info.durationS / 2);
  const rows: SegmentRow[] = [];
  for (const [where, index] of [['start', 0], ['middle (seek)', middle], ['end', plan.length - 1]] as const) {
    const seg = plan[index]!;
    const out = join(scratch, `remux-${label}-${index}.ts`);
    const m = await measure(remuxArgs(path, info, seg, out));
    const got = await spans(out);
    const startsAt = Math.abs(got.video.first - seg.start) < info.frameS / 2 ? 'opens on its keyframe' : `opens at ${got.video.first.toFixed(3)} s, asked ${seg.start.toFixed(3)} s`;
    rows.push(segmentRow(`remux ${label}, ${where}: ${seg.start.toFixed(2)}-${seg.end.toFixed(2)} s`, seg.end - seg.start, m, startsAt));
    rmSync(out);
  }
  return { rows, plan, info };
}

/** Where `-ss <keyframe> -i` with stream copy really starts, without and with -copypriorss 0. */
async function seekCheck(path: string, seg: Segment) {
  const check = async (extra: string[]) => {
    const out = join(scratch, 'seek-check.ts');
    await output(ffmpeg('-ss', sec(seg.start), '-i', path, '-copyts', ...extra, '-to', sec(seg.end), '-map', '0:v:0', '-c:v', 'copy', '-an',
      '-avoid_negative_ts', 'disabled', '-f', 'mpegts', out));
    return ((await spans(out)).video.first - seg.start) * 1000;
  };
  return { plainMs: await check([]), dropPriorMs: await check(['-copypriorss', '0']) };
}

/** Three consecutive segments made one run each, and how they join. */
async function joinCheck(name: string, make: (index: number, out: string) => string[]) {
  const paths: string[] = [];
  for (let i = 0; i < 3; i++) {
    const out = join(scratch, `join-${i}.ts`);
    await output(make(i, out));
    paths.push(out);
  }
  const result = await joins(paths);
  for (const path of paths) rmSync(path);
  return { name, ...result };
}

const packetKeyframes = async (path: string) =>
  keyframesFromPackets(await output(['ffprobe', '-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', path]));

/**
 * Transcode segments of 3 and 6 s from the middle of a source, 2.5 s past a keyframe on the
 * frame grid: a seek, for which the decoder starts at the keyframe before and discards the rest.
 */
async function transcodeSegments(label: string, path: string) {
  const info = await videoInfo(path);
  const keyframes = await packetKeyframes(path);
  const before = keyframes.filter((t) => t <= info.durationS / 2).at(-1) ?? info.startS;
  const start = before + Math.round(2.5 / info.frameS) * info.frameS;
  const lead = start - (keyframes.filter((t) => t <= start + 1e-6).at(-1) ?? info.startS);
  const rows: SegmentRow[] = [];
  for (const preset of ['veryfast', 'ultrafast']) {
    for (const height of [1080, 720]) {
      for (const seconds of [3, 6]) {
        const out = join(scratch, 'transcode.ts');
        const m = await measure(transcodeArgs(path, start, seconds, preset, height, out));
        rows.push(segmentRow(`transcode ${label} -> ${height}p ${preset}, ${seconds} s at ${start.toFixed(1)} s`, seconds, m,
          `${(seconds / m.wallS).toFixed(2)}x real time; decodes ${lead.toFixed(1)} s before its start`));
        rmSync(out);
      }
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Step 4 and 5: design B, one long ffmpeg with the hls muxer

type SegmentType = 'mpegts' | 'fmp4';

const hlsArgs = (dir: string, type: SegmentType, startNumber = 0) => [
  '-f', 'hls', '-hls_time', '6', '-hls_playlist_type', 'event', '-hls_segment_type', type, '-start_number', String(startNumber),
  ...(type === 'fmp4' ? ['-hls_fmp4_init_filename', 'init.mp4'] : []),
  '-hls_segment_filename', join(dir, type === 'fmp4' ? 'seg%05d.m4s' : 'seg%05d.ts'), join(dir, 'index.m3u8'),
];

/** The transcode's video: keyframes forced every 6 s, or the hls muxer cuts wherever x264 put one (every 10 s). */
const X264_HLS = ['-vf', 'scale=-2:1080,format=yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23',
  '-force_key_frames', 'expr:gte(t,n_forced*6)'];

interface SessionRow {
  case: string;
  firstSegmentS: number;
  outputS: number;
  wallS: number;
  speed: number;
  cpuPercent: number;
  maxRssMiB: number;
  /** The lengths of the segments the hls muxer cut, from its playlist. */
  cuts: number[];
}

/** Resolves with the seconds from spawn until the playlist lists a segment (written after the segment is closed). */
async function firstSegment(dir: string, running: Running): Promise<number> {
  let exit: Promise<unknown> | undefined;
  void running.done.then(() => (exit = running.done), () => (exit = running.done));
  for (;;) {
    const exited = exit;
    const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8').catch(() => '');
    if (playlist.split('\n').some((line) => line !== '' && !line.startsWith('#'))) return (performance.now() - running.startedAt) / 1000;
    if (exited) {
      await exited; // rethrows ffmpeg's error, if that is why it ended
      throw new Error(`ffmpeg ended without a segment in ${dir}`);
    }
    await sleep(10);
  }
}

/**
 * One session: its time to the first segment, and its speed over `outputS` seconds of output;
 * or, with no `outputS`, stopped at its first segment (a restart after a seek, whose -t would
 * also count from zero under -copyts and end the copied video at once).
 */
async function session(name: string, input: string[], codec: string[], type: SegmentType, outputS?: number, startNumber = 0) {
  const dir = join(scratch, `hls-${name.replace(/\W+/g, '-')}`);
  mkdirSync(dir);
  const running = start(ffmpeg(...input, ...(outputS ? ['-t', String(outputS)] : []), '-map', '0:v:0', '-map', '0:a:0',
    ...codec, ...AAC_STEREO, ...hlsArgs(dir, type, startNumber)));
  const firstSegmentS = await firstSegment(dir, running);
  if (!outputS) running.stop();
  const m = await running.done;
  const playlist = await readFile(join(dir, 'index.m3u8'), 'utf8');
  const cuts = [...playlist.matchAll(/#EXTINF:([\d.]+)/g)].map((match) => Number(match[1]));
  rmSync(dir, { recursive: true, force: true });
  const row: SessionRow = {
    case: name, firstSegmentS, outputS: outputS ?? NaN, wallS: m.wallS, speed: outputS ? outputS / m.wallS : NaN,
    cpuPercent: (100 * m.cpuS) / m.wallS, maxRssMiB: m.maxRssMiB, cuts,
  };
  return row;
}

const REMUX_CODEC = ['-c:v', 'copy'];

async function designB(src: Sources, film: { plan: Segment[]; info: VideoInfo }) {
  const rows: SessionRow[] = [];
  for (const type of ['mpegts', 'fmp4'] as const) {
    rows.push(await session(`remux 1080p film, ${type}, whole film`, ['-i', src.film1080], REMUX_CODEC, type, FILM_S));
  }
  for (const type of ['mpegts', 'fmp4'] as const) {
    rows.push(await session(`transcode H.264 1080p -> 1080p veryfast, ${type}`, ['-i', src.film1080], X264_HLS, type, TRANSCODE_OUTPUT_S));
  }
  rows.push(await session('transcode HEVC 10-bit 1080p -> 1080p veryfast, mpegts', ['-i', src.hevc], X264_HLS, 'mpegts', TRANSCODE_OUTPUT_S));
  // A far seek: the session restarts at the segment holding the middle, numbered as in the full playlist.
  const middle = film.plan.findIndex((seg) => seg.end > film.info.durationS / 2);
  const seek = ['-ss', sec(film.plan[middle]!.start), '-i', src.film1080, '-copyts', '-copypriorss', '0', '-avoid_negative_ts', 'disabled'];
  const remuxRestart = await session('remux restarted at the middle (seek), mpegts', seek, REMUX_CODEC, 'mpegts', undefined, middle);
  const transcodeSeek = ['-ss', sec(film.plan[middle]!.start), '-i', src.film1080];
  const transcodeRestart = await session('transcode restarted at the middle (seek), mpegts', transcodeSeek, X264_HLS, 'mpegts', undefined, middle);
  return { rows, restarts: [remuxRestart, transcodeRestart] };
}

/** `count` 1080p -> 1080p veryfast sessions at once, each for TRANSCODE_OUTPUT_S of output. */
async function concurrent(src: Sources, count: number) {
  const runs = Array.from({ length: count }, (_, i) =>
    session(`${count} at once #${i + 1}`, ['-i', src.film1080], X264_HLS, 'mpegts', TRANSCODE_OUTPUT_S));
  return Promise.all(runs);
}

// ---------------------------------------------------------------------------------------------
// Report

const f = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const signedMs = (ms: number) => `${ms >= 0 ? '+' : ''}${ms.toFixed(1)}`;

async function machineLine(idleBefore: number, idleAfter: number) {
  const ffmpegVersion = (await output(['ffmpeg', '-hide_banner', '-version'])).split('\n')[0]!.replace(/ Copyright.*/, '');
  return `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} cores (${cpus()[0]?.model.trim()}), ${ffmpegVersion}, ` +
    `Node ${process.version}; the CPUs were ${(100 * idleBefore).toFixed(0)} % idle in the 2 s before the run and ${(100 * idleAfter).toFixed(0)} % in the 2 s after it.`;
}

/** Replaces the marked section of docs/playback-design.md, creating the file around it the first time. */
function writeDoc(section: string) {
  const startMark = '<!-- bench:playback-design:start -->';
  const endMark = '<!-- bench:playback-design:end -->';
  const doc = existsSync(DOC) ? readFileSync(DOC, 'utf8') : `# Playback: per-segment or one long ffmpeg\n\n${startMark}\n${endMark}\n`;
  const i = doc.indexOf(startMark);
  const j = doc.indexOf(endMark);
  if (i < 0 || j < 0) throw new Error(`docs/playback-design.md lacks the ${startMark} ... ${endMark} markers`);
  writeFileSync(DOC, `${doc.slice(0, i + startMark.length)}\n${section}\n${doc.slice(j)}`);
}

async function main() {
  const idleBefore = await idleShare();
  if (idleBefore < 0.9) console.warn(`the CPUs are only ${(100 * idleBefore).toFixed(0)} % idle: something else runs, the figures will be low`);
  scratch = mkdtempSync(join(tmpdir(), 'mls-playback-design-'));
  const began = performance.now();
  const step = (name: string) => console.log(`[${((performance.now() - began) / 1000).toFixed(0)} s] ${name}`);
  try {
    step('generating the sources');
    const src = await makeSources();

    step('keyframe index');
    const index = await measureIndex(src.film1080);

    step('design A: remux segments');
    const film = await remuxPositions('1080p', src.film1080);
    const film720 = await remuxPositions('720p', src.film720);
    const seek = await seekCheck(src.film1080, film.plan[Math.floor(film.plan.length / 2)]!);
    const remuxJoin = await joinCheck('remux (design A command), segments 0-2', (i, out) => remuxArgs(src.film1080, film.info, film.plan[i]!, out));
    const naiveJoin = await joinCheck('remux, plain -ss/-t/-output_ts_offset, segments 0-2', (i, out) => naiveRemuxArgs(src.film1080, film.plan[i]!, out));
    const grid = film.info.startS + Math.round(film.info.durationS / 2 / film.info.frameS) * film.info.frameS;
    const transcodeJoin = await joinCheck('transcode 6 s (ultrafast 720p), 3 segments from the middle',
      (i, out) => transcodeArgs(src.film1080, grid + 6 * i, 6, 'ultrafast', 720, out));

    step('design A: transcode segments');
    const transcodes = [...await transcodeSegments('H.264 1080p', src.film1080), ...await transcodeSegments('HEVC 10-bit 1080p', src.hevc)];

    step('design B: sessions');
    const b = await designB(src, film);

    step('concurrency');
    const together = [[b.rows[2]!], await concurrent(src, 2), await concurrent(src, 3)];

    step('report');
    const section = report({ machine: await machineLine(idleBefore, await idleShare()), src, index, plan: film.plan, segments: [...film.rows, ...film720.rows, ...transcodes],
      seek, checks: [remuxJoin, naiveJoin, transcodeJoin], b, together, totalS: (performance.now() - began) / 1000 });
    console.log(`\n${section}`);
    writeDoc(section);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface Report {
  machine: string;
  src: Sources;
  index: Awaited<ReturnType<typeof measureIndex>>;
  plan: Segment[];
  segments: SegmentRow[];
  seek: { plainMs: number; dropPriorMs: number };
  checks: { name: string; videoMs: number; audioMs: number }[];
  b: Awaited<ReturnType<typeof designB>>;
  together: SessionRow[][];
  totalS: number;
}

function report(r: Report): string {
  const index = table(['method (10-min 1080p film)', 'wall s', 'CPU s', 'max RSS MiB', 'keyframes', 's per GB'],
    r.index.rows.map((x) => [x.method, f(x.wallS), f(x.cpuS), f(x.maxRssMiB, 0), x.keyframes, f(x.sPerGB)]));
  const segments = table(['design A: one segment', 'segment s', 'wall s', 'CPU s', 'max RSS MiB', 'note'],
    r.segments.map((x) => [x.case, f(x.segmentS), f(x.wallS), f(x.cpuS), f(x.maxRssMiB, 0), x.note]));
  const checks = table(['join check: 3 consecutive segments', 'worst video gap(+)/overlap(-) ms', 'worst audio gap(+)/overlap(-) ms'],
    r.checks.map((x) => [x.name, signedMs(x.videoMs), signedMs(x.audioMs)]));
  const cutRange = (cuts: number[]) => (cuts.length ? `${cuts.length} of ${f(Math.min(...cuts), 1)}-${f(Math.max(...cuts), 1)} s` : '-');
  const sessions = table(['design B: one hls session', 'first segment s', 'output s', 'wall s', 'speed x', 'CPU %', 'max RSS MiB', 'segments cut'],
    [...r.b.rows, ...r.b.restarts].map((x) => [x.case, f(x.firstSegmentS), f(x.outputS, 0), f(x.wallS), f(x.speed), f(x.cpuPercent, 0), f(x.maxRssMiB, 0), Number.isFinite(x.outputS) ? cutRange(x.cuts) : 'stopped at the first']));
  const together = table(['1080p -> 1080p veryfast sessions at once', 'speed x of each', 'slowest x', 'all faster than real time'],
    r.together.map((runs, i) => {
      const speeds = runs.map((x) => x.speed);
      return [i + 1, speeds.map((x) => f(x)).join(' / '), f(Math.min(...speeds)), Math.min(...speeds) >= 1 ? 'yes' : 'no'];
    }));
  const planned = r.plan.map((seg) => seg.end - seg.start);
  const bCuts = r.b.rows[0]!.cuts;
  const sameCuts = bCuts.length === planned.length && bCuts.every((d, i) => Math.abs(d - planned[i]!) < 0.01);
  const remuxStart = r.segments[0]!;
  const remuxSeek = r.segments[1]!;
  const aTranscode = r.segments.find((x) => x.case.startsWith('transcode H.264 1080p -> 1080p veryfast, 6 s'))!;
  const [bRemux, , bTranscode] = r.b.rows;
  const [bRemuxSeek] = r.b.restarts;
  const verdict = (ok: boolean) => (ok ? 'met' : 'not met');
  return [
    r.machine,
    `Sources made in ${f(r.src.generateS, 0)} s; the whole run took ${f(r.totalS, 0)} s. Wall is spawn to exit; CPU is user + system from /usr/bin/time.`,
    '',
    '**Keyframe index.** ' + `The two methods ${r.index.agree ? 'give the same keyframe times' : 'DISAGREE on the keyframe times'}; the film is ${f(r.index.sizeGB, 2)} GB.`,
    '',
    index,
    '',
    segments,
    '',
    `**Seek with stream copy.** \`-ss <keyframe> -i\` with \`-c:v copy\` opened ${signedMs(r.seek.plainMs)} ms from the keyframe asked for` +
      ` (${Math.abs(r.seek.plainMs) < 1 ? 'exactly on it' : 'at an earlier keyframe'}); with \`-copyts -copypriorss 0\` ${signedMs(r.seek.dropPriorMs)} ms.`,
    '',
    checks,
    '',
    sessions,
    '',
    `Design A's keyframe plan for the 1080p film (nearest keyframe to 6 s): ${planned.length} segments of ${f(Math.min(...planned), 1)}-${f(Math.max(...planned), 1)} s; ` +
      `the hls muxer's own cuts of the same film ${sameCuts ? 'are the same' : 'differ from it'} (${bCuts.length} segments).`,
    '',
    together,
    '',
    'Against the targets (remux first frame <= 1.5 s, seek <= 1 s, 1080p transcode >= 1x):',
    `- A: remux first segment ${f(remuxStart.wallS)} s (${verdict(remuxStart.wallS <= 1.5)}), remux seek ${f(remuxSeek.wallS)} s (${verdict(remuxSeek.wallS <= 1)}), ` +
      `6 s 1080p veryfast segment in ${f(aTranscode.wallS)} s = ${f(6 / aTranscode.wallS)}x (${verdict(aTranscode.wallS <= 6)}).`,
    `- B: remux first segment ${f(bRemux!.firstSegmentS)} s (${verdict(bRemux!.firstSegmentS <= 1.5)}), remux seek restart ${f(bRemuxSeek!.firstSegmentS)} s ` +
      `(${verdict(bRemuxSeek!.firstSegmentS <= 1)}), 1080p veryfast at ${f(bTranscode!.speed)}x (${verdict(bTranscode!.speed >= 1)}).`,
  ].join('\n');
}

await main();
