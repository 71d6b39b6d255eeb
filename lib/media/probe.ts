// A video file's technical info (duration, container, codecs, resolution, HDR, audio and
// subtitle languages) for the scan's analyzing phase. MediaInfoLib, built to WebAssembly by
// mediainfo.js, asks for the byte ranges it needs and reads them from a ByteSource, so a file
// on this machine and an object in a bucket are probed alike. Every failure is a ProbeError
// with a reason, and no probe outlives its timeout, not even one stuck inside WebAssembly.
import { analyzeSource, blankHead, HEAD_BYTES, readWithin } from './analyze';
import { fileByteSource, type ByteSource } from '../storage/byte-source';
import { MediaInfoPool, type Lease } from './mediainfo-pool';
import { ProbeError } from './probe-error';
import { toTechnicalInfo, type TechnicalInfo } from './technical-info';

export { fileByteSource, type ByteSource, type ClosableByteSource } from '../storage/byte-source';
export { ProbeError, type ProbeFailure } from './probe-error';
export type { AudioStream, HdrFormat, SubtitleStream, TechnicalInfo, VideoStream } from './technical-info';

export interface ProbeOptions {
  /** Longest one probe may run once an instance is free for it. */
  timeoutMs?: number;
  /** Stops the probe (a scan that is cancelled or out of time). */
  signal?: AbortSignal;
}

/** Generous: a local file takes milliseconds, an object in a bucket a few ranged GETs. */
export const PROBE_TIMEOUT_MS = 30_000;

/**
 * Measured by a bench since retired (docs/benchmarks-history.md; measureProbePool, 16 probes in flight, a busy 2-core box): a
 * second instance parses one file while another waits for its bytes, 1.1-1.3x the files per
 * second from local disk and 1.7-1.9x with 20 ms per read (about a ranged GET on S3); four gave
 * 1.1-1.5x and 2.3-3.4x. Each reserves ~36 MB of WebAssembly memory, though the process's RSS
 * after probing was 140-155 MiB with one, two or four. Two is the default; more pays only on slow reads.
 */
export const PROBE_INSTANCES = 2;

export interface Prober {
  probe(source: ByteSource, options?: ProbeOptions): Promise<TechnicalInfo>;
  /** How long each MediaInfoLib instance took to start, in ms. */
  readonly startupMs: readonly number[];
}

export const createProber = (instances = PROBE_INSTANCES): Prober => {
  const pool = new MediaInfoPool(instances);
  return {
    startupMs: pool.startupMs,
    async probe(source, { timeoutMs = PROBE_TIMEOUT_MS, signal } = {}) {
      if (source.size <= 0) throw new ProbeError('empty', 'The file is empty');
      // Checked before an instance is taken: a failed probe costs the instance a restart.
      const head = await readWithin(source, 0, Math.min(HEAD_BYTES, source.size), {
        deadline: performance.now() + timeoutMs,
        ...(signal ? { signal } : {}),
      });
      if (blankHead(head)) throw new ProbeError('not-media', 'The file starts with nothing but zeros: no container header');
      const info = toTechnicalInfo(await analyze(pool, source, timeoutMs, signal));
      if (!info) throw new ProbeError('not-media', 'No audio or video stream was recognised');
      return info;
    },
  };
};

const shared = createProber();

/** The technical info of the media in `source`, read by the process's shared MediaInfoLib instances. */
export const probeMedia = (source: ByteSource, options?: ProbeOptions): Promise<TechnicalInfo> => shared.probe(source, options);

/** probeMedia for a local file, which is opened for the probe and closed after it. */
export const probeFile = async (path: string, options?: ProbeOptions & { size?: number }): Promise<TechnicalInfo> => {
  const source = await fileByteSource(path, options?.size).catch((error: unknown) => {
    throw new ProbeError('read-failed', `Cannot read ${path}`, { cause: error });
  });
  try {
    return await probeMedia(source, options);
  } finally {
    await source.close().catch(() => undefined);
  }
};

const analyze = async (pool: MediaInfoPool, source: ByteSource, timeoutMs: number, signal?: AbortSignal) => {
  const lease = await borrow(pool);
  try {
    // The clock starts once an instance is free: time spent waiting for one is not this file's.
    const report = await analyzeSource(lease.instance, source, { deadline: performance.now() + timeoutMs, signal });
    lease.release();
    return report;
  } catch (error) {
    // Whatever failed, the instance is not lent again: a restart costs tens of ms on a rare
    // path, and one left interrupted mid-call inside WebAssembly is never reused.
    lease.retire();
    throw error;
  }
};

const borrow = (pool: MediaInfoPool): Promise<Lease> =>
  pool.lease().catch((error: unknown) => {
    throw new ProbeError('unavailable', 'MediaInfoLib could not be started', { cause: error });
  });
