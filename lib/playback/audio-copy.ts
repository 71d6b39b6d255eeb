// Whether a conversion copies the audio the decision says the client plays, or encodes it
// anyway. Pure, so each rule is tested on facts alone. The decision (decide.ts) guarantees the
// client decodes the codec at its channel count; what it cannot know is what the segments carry
// and how ffmpeg cuts a copied stream, hence the rules here.
import type { ConversionKind } from './session-id';
import type { VideoTiming } from './plan';

/**
 * What HLS carries in MPEG-TS segments (RFC 8216 §3.2, Apple's authoring spec): ADTS AAC, MP3,
 * AC-3 and E-AC-3. Opus, FLAC or Vorbis a browser plays as a file have no place in a transport
 * stream that players read, so they are encoded.
 */
const CARRIED_IN_TS = new Set(['aac', 'mp3', 'ac3', 'eac3']);

export interface AudioPlan {
  audio: 'copy' | 'convert' | 'none';
  /** Copies: one audio frame of the track, seconds (where its cuts are placed, commands.ts). */
  audioFrameS?: number;
}

/**
 * Copied only in a remux of a file whose timestamps start at zero. A transcode's output is moved
 * onto the timeline with -output_ts_offset, and ffmpeg 5.1 drops copied packets before that
 * output's zero, so its copied audio could only start at or after the cut and would run up to a
 * frame past each join, which stalls Chromium's HLS player (docs/playback-design.md). And under
 * -copyts ffmpeg 5.1 drops a copied stream's packets before the seek counted from zero, not
 * from the file's start: from an MPEG-TS (1.4 s in) each segment's audio began up to a second
 * early (measured), overlapping the one before.
 */
export const audioPlan = (
  decided: 'copy' | 'convert' | 'none',
  kind: ConversionKind,
  timing: VideoTiming,
  track: number | null,
): AudioPlan => {
  if (track === null) return { audio: 'none' };
  const stream = timing.audio?.[track];
  const startsAtZero = timing.fileStartS !== undefined && Math.abs(timing.fileStartS) < 0.0005;
  if (decided === 'copy' && kind === 'remux' && stream && startsAtZero && CARRIED_IN_TS.has(stream.codec))
    return { audio: 'copy', audioFrameS: stream.frameS };
  return { audio: 'convert' };
};
