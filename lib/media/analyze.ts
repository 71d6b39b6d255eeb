// Feeding one file to a MediaInfoLib instance through its buffer API, a step at a time, so
// that every step is bounded: each read by the time left and the caller's signal, each call
// into WebAssembly by callWithin, the whole by a byte budget. (mediainfo.js's analyzeData runs
// the same kind of loop with none of these limits.) MediaInfoLib parses what it is handed and
// may ask to go on elsewhere (an index at the end, a header it skipped), until it has seen enough.
import type { ByteSource } from '../storage/byte-source';
import type { MediaInfoInstance } from './mediainfo-pool';
import { ProbeError } from './probe-error';
import type { MediaInfoReport } from './technical-info';
import { callWithin, TimeLimitExceeded } from './time-limit';

/** Bytes per read: one ranged GET each on object storage. */
export const READ_CHUNK_BYTES = 256 * 1024;

/** MediaInfoLib reads the headers, the index and the first frames of each stream: far less than this. */
const byteBudget = (size: number) => 2 * size + 64 * 1024 * 1024;

/** `deadline` is a performance.now() instant. */
export interface Limits {
  deadline: number;
  signal?: AbortSignal;
}

/** MediaInfoLib's report on the source; throws ProbeError, after which the instance must not be reused. */
export const analyzeSource = async (instance: MediaInfoInstance, source: ByteSource, limits: Limits): Promise<MediaInfoReport> => {
  const { size } = source;
  const step = <T>(call: () => T): T => callWithin(timeLeft(limits), call);
  try {
    step(() => {
      instance.reset();
      instance.openBufferInit(size, 0);
    });
    let offset = 0;
    let lastJump = -1;
    let handed = 0;
    while (offset < size) {
      const bytes = await readWithin(source, offset, Math.min(READ_CHUNK_BYTES, size - offset), limits);
      if (bytes.length === 0) break;
      handed += bytes.length;
      if (handed > byteBudget(size)) throw new ProbeError('analysis-failed', `MediaInfoLib asked for more than ${byteBudget(size)} bytes`);
      const { finished, jump } = step(() => ({
        finished: instance.openBufferContinue(bytes, bytes.length),
        jump: instance.openBufferContinueGotoGet(),
      }));
      if (jump === -1) {
        if (finished) break;
        offset += bytes.length;
        lastJump = -1;
        continue;
      }
      // A place past the end, or the same place twice in a row, cannot help: report what it has.
      if (jump >= size || jump === lastJump) break;
      // Size -1 moves the read position and keeps what the parser gathered; a parser that
      // already said it has finished needs the full size again to take more.
      step(() => instance.openBufferInit(finished ? size : -1, jump));
      offset = lastJump = jump;
    }
    const json = step(() => {
      instance.openBufferFinalize();
      return instance.inform();
    });
    return JSON.parse(json) as MediaInfoReport;
  } catch (error) {
    throw asProbeError(error);
  }
};

/**
 * Every container a player opens starts with a header within its first bytes (MP4 box sizes and
 * `ftyp`, Matroska's EBML id, RIFF, MPEG sync bytes). A file whose first 4 KiB are all zeros
 * (preallocated, never written, or zeroed by a failed copy) has none, and MediaInfoLib would read
 * on through the zeros looking for one: measured, 40-45 ms for each such 1 MiB file.
 */
export const HEAD_BYTES = 4096;
export const blankHead = (first: Uint8Array) => first.length > 0 && first.subarray(0, HEAD_BYTES).every((b) => b === 0);

const timeLeft = (limits: Limits) => {
  if (limits.signal?.aborted) throw aborted(limits.signal);
  const left = limits.deadline - performance.now();
  if (left <= 0) throw timedOut();
  return left;
};

/** `source.read`, given up on when the time is up or the signal fires (the read itself may go on). */
export const readWithin = (source: ByteSource, offset: number, length: number, limits: Limits): Promise<Uint8Array> =>
  new Promise((resolve, reject) => {
    const { signal } = limits;
    const settle =
      <T>(finish: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        finish(value);
      };
    const timer = setTimeout(settle(reject), timeLeft(limits), timedOut());
    const onAbort = () => settle(reject)(aborted(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    source
      .read(offset, length)
      .then(settle(resolve), (error: unknown) =>
        settle(reject)(new ProbeError('read-failed', `Reading ${length} bytes at ${offset} failed`, { cause: error })),
      );
  });

const timedOut = () => new ProbeError('timeout', 'The probe ran out of time');
const aborted = (signal: AbortSignal) => new ProbeError('aborted', 'The probe was aborted', { cause: signal.reason });

const asProbeError = (error: unknown): ProbeError => {
  if (error instanceof ProbeError) return error;
  if (error instanceof TimeLimitExceeded) return new ProbeError('timeout', 'MediaInfoLib ran out of time on this file', { cause: error });
  return new ProbeError('analysis-failed', 'MediaInfoLib failed on this file', { cause: error });
};
