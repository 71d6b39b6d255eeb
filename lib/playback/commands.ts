// The ffmpeg command that makes one segment, each option there for a pitfall measured in
// docs/playback-design.md. Pure, so the commands are tested as text.
import type { Segment } from './plan';

export interface SegmentJob {
  /** The source file on disk. */
  input: string;
  segment: Segment;
  /** Which stream to take: the chosen audio track (0-based among audio tracks), or null for none. */
  audioTrack: number | null;
  video: 'copy' | 'convert' | 'none';
  /** Remuxes: 'copy' sends the track as it is (audio-copy.ts says when); anything else encodes it. */
  audio?: 'copy' | 'convert' | 'none' | undefined;
  /** A copied track's frame, seconds: its cuts go half a frame early (copiedAudio). */
  audioFrameS?: number | undefined;
  /** Transcodes: the tallest picture sent, in lines. */
  maxHeight: number;
  /** Transcodes: seconds decoded before the cut where the container has no index (plan.ts). */
  prerollS?: number | undefined;
  /** x264's speed preset for transcodes (veryfast by measurement: 1.86x real time for 1080p here). */
  preset: string;
  output: string;
}

const sec = (s: number) => s.toFixed(6);
// The audio of a conversion is encoded where the client cannot play it (and where it cannot be
// copied, audio-copy.ts); a copied track is cut as copiedAudio says. The encoder's priming (1024
// samples) would put each segment's first audio packet 21 ms before its picture; a player
// takes the first segment's earliest packet as time zero, so every later segment's picture
// would start 21 ms after its place in the playlist, and Chromium's own HLS player, seeking
// exactly onto a segment's start, then waits for a picture that never comes. The audio is
// moved by the priming instead (a constant 21 ms, below what anyone hears). Made at 48 kHz
// whatever the source's rate, so every segment's frames fall on one grid (below). The encoder's
// default coder: its fast one was quicker on one film's audio and slower on another's (3 s of
// the bench film's: 360-400 ms against 300-310 ms), and of lower quality.
const AAC_STEREO = ['-af', 'aresample=48000,asetpts=PTS+1024/SR/TB', '-c:a', 'aac', '-ac', '2', '-ar', '48000', '-b:a', '160k'];
/** One AAC frame: 1024 samples at 48 kHz (also the priming the audio is moved by). */
const AAC_FRAME_S = 1024 / 48_000;
/**
 * A remux's audio starts and ends on a grid of whole frames from the file's start, so the
 * segments' audio tiles exactly. Cut at the picture's keyframes instead, each segment's audio ran
 * a frame or more past the next one's start, and Chromium's own HLS player then placed every
 * segment 0.13-0.16 s after the one before: the buffered ranges had gaps it stalled at, at the
 * first join (measured; video alone, or audio ending within 5 ms of the join, played through).
 */
const onAudioGrid = (t: number) => Math.round(t / AAC_FRAME_S) * AAC_FRAME_S;

const BASE = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
// MPEG-TS segments (HLS version 3: every player reads them); ffmpeg's 1.4 s mux delay is in every
// segment alike, so they join.
const OUTPUT = ['-avoid_negative_ts', 'disabled', '-f', 'mpegts'];

/**
 * Video copied, audio converted: the video read from a keyframe with `-copyts -copypriorss 0`
 * (without them ffmpeg opens at the keyframe before, 3/23 s early), ended half a frame before the
 * next keyframe's DTS; the audio through a second input, decoded, so cut exactly on the frame
 * grid nearest the segment's ends (within 11 ms of the picture's): its input ends a frame early,
 * since the priming frame comes first, and the frames are counted so none runs over.
 */
const remux = (job: SegmentJob): string[] => {
  const { segment: s, input, audioTrack } = job;
  const last = s.videoEnd === undefined;
  const videoIn = ['-ss', sec(s.start), ...(last ? [] : ['-to', sec(s.videoEnd!)]), '-i', input];
  const audio = audioTrack === null ? { input: [], codec: [] } : job.audio === 'copy' ? copiedAudio(job) : encodedAudio(job);
  return [
    ...BASE,
    ...videoIn,
    ...audio.input,
    '-copyts',
    '-copypriorss',
    '0',
    '-map',
    '0:v:0',
    ...(audioTrack === null ? ['-an'] : ['-map', `1:a:${audioTrack}`]),
    '-c:v',
    'copy',
    ...audio.codec,
    '-sn',
    '-dn',
    ...OUTPUT,
    job.output,
  ];
};

/** A remux's encoded audio: on the 48 kHz frame grid, its input ending a frame early, the frames counted. */
const encodedAudio = ({ segment: s, input }: SegmentJob) => {
  const last = s.videoEnd === undefined;
  const [from, to] = [onAudioGrid(s.start), onAudioGrid(s.end)];
  return {
    input: ['-ss', sec(from), ...(last ? [] : ['-to', sec(to - AAC_FRAME_S)]), '-i', input],
    codec: [...AAC_STEREO, ...(last ? [] : ['-frames:a', String(Math.round((to - from) / AAC_FRAME_S))])],
  };
};

/**
 * A remux's copied audio: under -copyts -copypriorss 0 ffmpeg sends the packets whose time is
 * from `-ss` (inclusive) to `-to` (exclusive), so consecutive segments, sharing a cut, hold
 * every packet exactly once. The cuts go half a frame before the picture's: each segment's audio then starts
 * on the source's frame nearest its picture and ends on the next one's (within half a frame of
 * the join, as the encoded audio does; a frame past it stalled Chromium,
 * docs/playback-design.md).
 */
const copiedAudio = ({ segment: s, input, audioFrameS }: SegmentJob) => {
  const half = (audioFrameS ?? AAC_FRAME_S) / 2;
  const cut = (t: number) => Math.max(0, t - half);
  return {
    input: ['-ss', sec(cut(s.start)), ...(s.videoEnd === undefined ? [] : ['-to', sec(cut(s.end))]), '-i', input],
    codec: ['-c:a', 'copy'],
  };
};

/**
 * Everything converted: an accurate seek to the cut (on the source's frame grid), the segment's
 * length, the output moved to the segment's place on the timeline. Each run starts x264 afresh,
 * so each segment opens on a keyframe of its own.
 */
const transcode = (job: SegmentJob): string[] => {
  const { segment: s, input, audioTrack } = job;
  const video =
    job.video === 'none'
      ? ['-vn']
      : [
          '-map',
          '0:v:0',
          // Even dimensions (4:2:0), no taller than asked, 8-bit: what every H.264 decoder takes.
          '-vf',
          `scale=-2:'trunc(min(ih,${job.maxHeight})/2)*2',format=yuv420p`,
          '-c:v',
          'libx264',
          '-preset',
          job.preset,
          '-crf',
          '22',
          '-profile:v',
          'high',
          '-maxrate',
          '12M',
          '-bufsize',
          '24M',
        ];
  // Whole frames to within half a frame of the segment's end: the next one's audio starts there.
  const audio =
    audioTrack === null
      ? ['-an']
      : ['-map', `0:a:${audioTrack}`, ...AAC_STEREO, '-frames:a', String(Math.max(1, Math.round((s.end - s.start) / AAC_FRAME_S)))];
  // Without an index the input seek lands anywhere: it goes a little earlier, and the output seek
  // decodes from there to the cut exactly.
  const seekIn = Math.max(0, s.start - (job.prerollS ?? 0));
  const seekOut = s.start - seekIn > 1e-6 ? ['-ss', sec(s.start - seekIn)] : [];
  return [
    ...BASE,
    '-ss',
    sec(seekIn),
    '-i',
    input,
    ...seekOut,
    '-t',
    sec(s.end - s.start),
    ...video,
    ...audio,
    '-sn',
    '-dn',
    '-output_ts_offset',
    sec(s.start),
    ...OUTPUT,
    job.output,
  ];
};

export const segmentCommand = (job: SegmentJob): string[] => (job.video === 'copy' ? remux(job) : transcode(job));
