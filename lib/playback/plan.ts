// A conversion's segments, planned before anything is converted, so the HLS playlist covers
// the whole film at once and a seek costs exactly one segment (docs/playback-design.md):
//  - remux (video copied): each segment opens on a keyframe of the source, about 3 s apart,
//    since copied video can only be cut there (a seek waits for one segment: the shorter, the
//    sooner; 3 s measured 0.1 s quicker than 6 s);
//  - transcode (video converted): fixed 6 s segments whose cuts fall on the source's frame
//    grid (a cut between frames loses or repeats one at each join).
// Pure: the facts come from the keyframe index (keyframes.ts).

/** What the keyframe index knows of a file's first video stream. */
export interface VideoTiming {
  /** Seconds of the whole file. */
  durationS: number;
  /** The first video frame's presentation time, counted from the file's first timestamp (as ffmpeg's -ss counts). */
  startS: number;
  /** Audio streams ffprobe found (absent on indexes kept before it was counted). */
  audioTracks?: number;
  /**
   * Each audio stream's codec (ffmpeg's name) and one frame's duration, in the file's order;
   * with `fileStartS`, what a remux needs to copy the audio (audio-copy.ts). Absent on indexes
   * kept before they were read: their audio is encoded.
   */
  audio?: ReadonlyArray<{ codec: string; frameS: number }>;
  /** The file's first timestamp, absolute (MPEG-TS starts at 1.4 s or anywhere; Matroska and MP4 at 0). */
  fileStartS?: number;
  /** One frame's duration; 0 when the frame rate is unknown. */
  frameS: number;
  /**
   * Seconds decoded before a transcode's cut where the container has no index (MPEG-TS, MPEG-PS):
   * a seek there lands anywhere, and the picture would only start at the next keyframe.
   */
  prerollS?: number;
  /** Keyframes in order: presentation and decoding time (DTS trails PTS when frames are reordered). */
  keyframes: ReadonlyArray<readonly [pts: number, dts: number]>;
}

export interface Segment {
  /** Source seconds: where the segment's picture starts ... */
  start: number;
  /** ... and ends (the next segment's start; the file's end for the last). */
  end: number;
  /**
   * Remux only: where the copied video input stops, half a frame before the next keyframe's
   * DTS (ffmpeg ends copied streams on DTS: cut at the next keyframe's PTS, a segment would
   * carry that keyframe too). Absent for the last segment and for transcodes.
   */
  videoEnd?: number;
}

/** Remux segments: a seek costs one, its audio encoded (about 25 ms per second of film here) and sent. */
export const REMUX_TARGET_S = 3;
/** Transcode segments: each run starts x264 afresh, which shorter ones would pay more often. */
export const TRANSCODE_TARGET_S = 6;
/**
 * The first segments are shorter: a player buffers a few segments before its first frame
 * (Chromium's own HLS player three), so short ones at the start show the picture sooner.
 */
export const FIRST_SEGMENTS = 3;
export const FIRST_TARGET_S = 2;
const targetOf = (index: number, target: number) => (index < FIRST_SEGMENTS ? Math.min(FIRST_TARGET_S, target) : target);

/** Remux: a segment ends at the keyframe nearest to `target` seconds after its start (2 s for the first three). */
export const remuxPlan = (timing: VideoTiming, target = REMUX_TARGET_S): Segment[] => {
  const kf = timing.keyframes;
  const end = Math.max(timing.durationS, kf.at(-1)?.[0] ?? 0);
  const segments: Segment[] = [];
  let i = 0;
  while (i < kf.length) {
    const start = kf[i]![0];
    const aim = targetOf(segments.length, target);
    let j = i + 1;
    while (j + 1 < kf.length && Math.abs(kf[j + 1]![0] - start - aim) <= Math.abs(kf[j]![0] - start - aim)) j++;
    // A last piece shorter than a second joins the segment before it.
    if (j < kf.length && end - kf[j]![0] < 1) j = kf.length;
    const next = kf[j];
    segments.push(next ? { start, end: next[0], videoEnd: next[1] - Math.max(timing.frameS, 0.001) / 2 } : { start, end });
    i = j;
  }
  return segments;
};

/** Transcode: 6 s segments (2 s for the first three) on the source's frame grid, the last one whatever is left. */
export const transcodePlan = (timing: Pick<VideoTiming, 'durationS' | 'startS' | 'frameS'>, target = TRANSCODE_TARGET_S): Segment[] => {
  const onGrid = (t: number) => (timing.frameS > 0 ? timing.startS + Math.round((t - timing.startS) / timing.frameS) * timing.frameS : t);
  const end = timing.startS + Math.max(timing.durationS - timing.startS, 0.001);
  const segments: Segment[] = [];
  let start = timing.startS;
  let at = 0;
  for (let k = 0; start < end - 1e-6; k++) {
    at += targetOf(k, target);
    let cut = onGrid(timing.startS + at);
    if (end - cut < 1) cut = end;
    segments.push({ start, end: Math.min(cut, end) });
    start = Math.min(cut, end);
  }
  return segments;
};

/**
 * The HLS media playlist (RFC 8216) of a planned conversion: a VOD playlist with every segment
 * listed, so the player knows the whole duration and can ask for any segment first.
 */
export const playlist = (segments: readonly Segment[], uri: (index: number) => string): string => {
  const durations = segments.map((s) => s.end - s.start);
  const lines = [
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    `#EXT-X-TARGETDURATION:${Math.max(1, ...durations.map((d) => Math.round(d)))}`,
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    '#EXT-X-INDEPENDENT-SEGMENTS',
    ...durations.flatMap((d, i) => [`#EXTINF:${d.toFixed(6)},`, uri(i)]),
    '#EXT-X-ENDLIST',
  ];
  return `${lines.join('\n')}\n`;
};
