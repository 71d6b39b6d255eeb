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
  /** Transcodes: the tallest picture sent, in lines. */
  maxHeight: number;
  /** Transcodes: seconds decoded before the cut where the container has no index (plan.ts). */
  prerollS?: number | undefined;
  /** x264's speed preset for transcodes (veryfast by measurement: 1.86x real time for 1080p here). */
  preset: string;
  output: string;
}

const sec = (s: number) => s.toFixed(6);
// The audio of a conversion is always encoded, even where the client plays the original: a
// copied stream cannot be cut exactly at a segment's start (copied AAC began 2 s early, at the
// keyframe the seek landed on), and AAC stereo costs little. The encoder's priming (1024
// samples) would put each segment's first audio packet 21 ms before its picture; a player
// takes the first segment's earliest packet as time zero, so every later segment's picture
// would start 21 ms after its place in the playlist, and Chromium's own HLS player, seeking
// exactly onto a segment's start, then waits for a picture that never comes. The audio is
// moved by the priming instead (a constant 21 ms, below what anyone hears).
const AAC_STEREO = ['-af', 'asetpts=PTS+1024/SR/TB', '-c:a', 'aac', '-ac', '2', '-b:a', '160k'];
const BASE = ['-nostdin', '-hide_banner', '-loglevel', 'error', '-y'];
// MPEG-TS segments (HLS version 3: every player reads them); ffmpeg's 1.4 s mux delay is in every
// segment alike, so they join.
const OUTPUT = ['-avoid_negative_ts', 'disabled', '-f', 'mpegts'];

/**
 * Video copied, audio converted (or copied): the video read from a keyframe with `-copyts
 * -copypriorss 0` (without them ffmpeg opens at the keyframe before, 3/23 s early), ended half a
 * frame before the next keyframe's DTS; the audio through a second input, decoded, so cut
 * exactly at the next segment's start.
 */
const remux = (job: SegmentJob): string[] => {
  const { segment: s, input, audioTrack } = job;
  const last = s.videoEnd === undefined;
  const videoIn = ['-ss', sec(s.start), ...(last ? [] : ['-to', sec(s.videoEnd!)]), '-i', input];
  const audioIn = audioTrack === null ? [] : ['-ss', sec(s.start), ...(last ? [] : ['-to', sec(s.end)]), '-i', input];
  return [
    ...BASE, ...videoIn, ...audioIn,
    '-copyts', '-copypriorss', '0',
    '-map', '0:v:0', ...(audioTrack === null ? ['-an'] : ['-map', `1:a:${audioTrack}`]),
    '-c:v', 'copy', ...(audioTrack === null ? [] : AAC_STEREO),
    '-sn', '-dn', ...OUTPUT, job.output,
  ];
};

/**
 * Everything converted: an accurate seek to the cut (on the source's frame grid), the segment's
 * length, the output moved to the segment's place on the timeline. Each run starts x264 afresh,
 * so each segment opens on a keyframe of its own.
 */
const transcode = (job: SegmentJob): string[] => {
  const { segment: s, input, audioTrack } = job;
  const video = job.video === 'none'
    ? ['-vn']
    : [
        '-map', '0:v:0',
        // Even dimensions (4:2:0), no taller than asked, 8-bit: what every H.264 decoder takes.
        '-vf', `scale=-2:'trunc(min(ih,${job.maxHeight})/2)*2',format=yuv420p`,
        '-c:v', 'libx264', '-preset', job.preset, '-crf', '22', '-profile:v', 'high', '-maxrate', '12M', '-bufsize', '24M',
      ];
  const audio = audioTrack === null ? ['-an'] : ['-map', `0:a:${audioTrack}`, ...AAC_STEREO];
  // Without an index the input seek lands anywhere: it goes a little earlier, and the output seek
  // decodes from there to the cut exactly.
  const seekIn = Math.max(0, s.start - (job.prerollS ?? 0));
  const seekOut = s.start - seekIn > 1e-6 ? ['-ss', sec(s.start - seekIn)] : [];
  return [
    ...BASE, '-ss', sec(seekIn), '-i', input, ...seekOut, '-t', sec(s.end - s.start),
    ...video, ...audio, '-sn', '-dn',
    '-output_ts_offset', sec(s.start), ...OUTPUT, job.output,
  ];
};

export const segmentCommand = (job: SegmentJob): string[] => (job.video === 'copy' ? remux(job) : transcode(job));
