// What a conversion must know of a file before it can list its segments: its duration, its
// video's frame grid and, for a remux, where its keyframes are. Read with ffprobe once per
// version of a file and kept (timing-store.ts), so a second viewer or a new session after a
// seek costs nothing.
//
// Keyframes are found by seeking, not by reading the whole file: one seek every 3 s (ffprobe's
// -read_intervals, one packet each), which the container's index (Matroska cues, MP4 sync
// samples) answers without reading the film, about 0.1 s whatever its size. A container
// without an index (MPEG-TS) lands between keyframes; then the packet list is read through once
// (0.8 s per GB measured, docs/playback-design.md), in bounded memory.
import { gatewayTimeout, unplayable } from '../errors';
import { lastLine, runBounded } from '../util/executable';
import { FIRST_SEGMENTS, FIRST_TARGET_S, remuxPlan, REMUX_TARGET_S, type VideoTiming } from './plan';

export interface ProbeOptions {
  ffprobe: string;
  timeoutMs: number;
}

/**
 * ffprobe's lines `pts_time,dts_time,flags`: the keyframes among them. Matroska stores no DTS;
 * ffmpeg then decodes a keyframe `reorderS` (the B-frame delay) before it is shown.
 */
const keyframeOf = (line: string, reorderS: number): [number, number] | undefined => {
  const [pts, dts, flags] = line.split(',');
  if (!flags?.includes('K')) return undefined;
  const p = Number(pts);
  const d = dts === 'N/A' || dts === undefined || dts === '' ? p - reorderS : Number(dts);
  return Number.isFinite(p) && Number.isFinite(d) ? [p, d] : undefined;
};

const rate = (fraction: string | undefined) => {
  const [num, den] = (fraction ?? '').split('/').map(Number);
  return num && den ? num / den : 0;
};

/** Containers ffmpeg seeks in by guessing a byte position: a transcode decodes a few seconds before its cut. */
const UNINDEXED = /^(mpegts|mpeg|mpegvideo|h264|hevc|m4v)$/;
const PREROLL_S = 5;

interface StreamFacts {
  durationS: number;
  startS: number;
  frameS: number;
  /** How long the decoder holds frames back for reordering (B-frames). */
  reorderS: number;
  /** The file's first timestamp: every time here counts from it. */
  fileStartS: number;
  prerollS: number;
  audioTracks: number;
  audio: Array<{ codec: string; frameS: number }>;
}

/** Samples per frame of the codecs a remux may copy (audio-copy.ts); others get AAC's, a guess only used to place cuts. */
const FRAME_SAMPLES: Readonly<Record<string, number>> = { aac: 1024, mp3: 1152, ac3: 1536, eac3: 1536 };

const why = (stderr: string, path: string) => lastLine(stderr, path) || 'ffprobe found no video or audio it can read';

/** Duration, start and frame duration of the first video stream (or the file, for sound only). */
const readFacts = async (path: string, what: string, options: ProbeOptions): Promise<StreamFacts & { hasVideo: boolean }> => {
  const run = await runBounded(
    options.ffprobe,
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,sample_rate,r_frame_rate,avg_frame_rate,start_time,has_b_frames:format=format_name,duration,start_time',
      '-of',
      'json',
      path,
    ],
    { timeoutMs: options.timeoutMs, maxStdoutBytes: 256 * 1024 },
  );
  if (run.startError) throw new Error(`ffprobe could not be started: ${run.startError}`);
  if (run.timedOut) throw gatewayTimeout();
  if (run.code !== 0) throw unplayable(what, why(run.stderr, path));
  type Probe = {
    streams?: {
      codec_type?: string;
      codec_name?: string;
      sample_rate?: string;
      r_frame_rate?: string;
      avg_frame_rate?: string;
      start_time?: string;
      has_b_frames?: number;
    }[];
    format?: { format_name?: string; duration?: string; start_time?: string };
  };
  const json = JSON.parse(run.stdout || '{}') as Probe;
  const video = json.streams?.find((s) => s.codec_type === 'video');
  const audioStreams = json.streams?.filter((s) => s.codec_type === 'audio') ?? [];
  const audioTracks = audioStreams.length;
  const audioFacts = audioStreams.map((s) => {
    const codec = s.codec_name ?? 'unknown';
    return { codec, frameS: (FRAME_SAMPLES[codec] ?? 1024) / (Number(s.sample_rate) || 48_000) };
  });
  const audio = audioTracks > 0;
  const durationS = Number(json.format?.duration);
  if (!(video || audio) || !(durationS > 0)) throw unplayable(what, video || audio ? 'its duration cannot be read' : why(run.stderr, path));
  const fps = rate(video?.avg_frame_rate) || rate(video?.r_frame_rate);
  // Frame rates above 240 are a container's time base, not a rate (some AVIs, WMV).
  const frameS = fps > 0 && fps <= 240 ? 1 / fps : 0;
  // Times are kept from the file's start, as ffmpeg's -ss and -to count them (MPEG-TS starts at 1.4 s or anywhere).
  const fileStartS = Number(json.format?.start_time) || 0;
  const startS = Math.max(0, (Number(video?.start_time) || fileStartS) - fileStartS);
  const prerollS = UNINDEXED.test(json.format?.format_name ?? '') ? PREROLL_S : 0;
  return {
    durationS,
    startS,
    fileStartS,
    frameS,
    prerollS,
    audioTracks,
    audio: audioFacts,
    reorderS: (video?.has_b_frames ?? 0) * frameS,
    hasVideo: video !== undefined,
  };
};

const keyframeArgs = (path: string, intervals?: string) => [
  '-v',
  'error',
  '-select_streams',
  'v:0',
  ...(intervals ? ['-read_intervals', intervals] : []),
  '-show_entries',
  'packet=pts_time,dts_time,flags',
  '-of',
  'csv=p=0',
  path,
];

/** Keyframes of the first video stream in time order, found by one seek per 3 s, else by reading the packet list. */
const readKeyframes = async (path: string, facts: StreamFacts, what: string, options: ProbeOptions) => {
  const collect = async (intervals?: string) => {
    const found = new Map<number, [number, number]>();
    const run = await runBounded(options.ffprobe, keyframeArgs(path, intervals), {
      timeoutMs: options.timeoutMs,
      onLine: (line) => {
        const kf = keyframeOf(line, facts.reorderS);
        if (kf) found.set(kf[0], [kf[0] - facts.fileStartS, kf[1] - facts.fileStartS]);
      },
    });
    // Too slow is the disk's fault, not the file's: 504, and the player may ask again.
    if (run.timedOut) throw gatewayTimeout();
    if (run.code !== 0) throw unplayable(what, why(run.stderr, path));
    return [...found.values()].sort((a, b) => a[0] - b[0]);
  };
  // One seek per segment's length (20 min of film: 120 ms at 6 s, 135 ms at 3 s, measured).
  const seeks = Math.max(1, Math.ceil(facts.durationS / REMUX_TARGET_S));
  // Also every 2 s where the plan's short first segments end.
  const early = Array.from({ length: FIRST_SEGMENTS }, (_, i) => (i + 1) * FIRST_TARGET_S).filter(
    (t) => t % REMUX_TARGET_S !== 0 && t < facts.durationS,
  );
  // A seek lands on the keyframe at or before its time, counted as the file's timestamps are:
  // from the first picture (a keyframe a few ms after a bare 2.000 would be missed), and one at
  // the very end, so the last keyframe is found too.
  const origin = facts.fileStartS + facts.startS;
  const times = [...Array.from({ length: seeks }, (_, i) => i * REMUX_TARGET_S), ...early, facts.durationS].sort((a, b) => a - b);
  const intervals = times.map((t) => `${(origin + t).toFixed(3)}%+#1`).join(',');
  const sparse = await collect(intervals);
  // A container with an index gives a keyframe per seek (or per keyframe, when they are further
  // apart than 3 s, up to 10 s counted); one without lands between them and finds few or none.
  const expected = Math.min(seeks, facts.durationS / 10);
  return sparse.length > 0 && sparse.length * 2 >= expected ? sparse : collect();
};

/** The timing a plan needs; keyframes only when asked (a remux copies the video and must cut at them). */
export const probeTiming = async (path: string, what: string, withKeyframes: boolean, options: ProbeOptions): Promise<VideoTiming> => {
  const facts = await readFacts(path, what, options);
  const timing = {
    durationS: facts.durationS,
    startS: facts.startS,
    frameS: facts.frameS,
    prerollS: facts.prerollS,
    audioTracks: facts.audioTracks,
    audio: facts.audio,
    fileStartS: facts.fileStartS,
  };
  if (!withKeyframes || !facts.hasVideo) return { ...timing, keyframes: [] };
  const all = await readKeyframes(path, facts, what, options);
  if (all.length === 0) throw unplayable(what, 'its video has no keyframe to start from');
  // Only the keyframes segments start on are kept (one per ~3 s, whatever the file has): the index
  // of a three-hour film stays under 100 KB (an item holds 400 KB).
  const starts = new Set(remuxPlan({ ...timing, keyframes: all }).map((s) => s.start));
  return { ...timing, keyframes: all.filter(([pts]) => starts.has(pts)) };
};
