// Random access to a file's bytes, whatever holds them: a file on this machine, or an object
// in a bucket read with ranged GETs. The prober asks only for the ranges MediaInfoLib wants
// (headers, an index at the end, the first frames of each stream), never the whole file.
import { open, stat, type FileHandle } from 'node:fs/promises';

export interface ByteSource {
  /** Bytes in the file. */
  readonly size: number;
  /** Up to `length` bytes from `offset`; fewer only at the end of the file. */
  read(offset: number, length: number): Promise<Uint8Array>;
}

/** A source that holds something open until closed (its creator closes it). */
export interface ClosableByteSource extends ByteSource {
  close(): Promise<void>;
}

/**
 * A local file as a source. It is opened at the first read, not before, so a list of sources
 * holds no descriptors; `close()` releases it. `size` comes from a `stat` unless the caller
 * knows it already (a scan has it from discovery).
 */
export const fileByteSource = async (path: string, size?: number): Promise<ClosableByteSource> => {
  const bytes = size ?? (await stat(path)).size;
  let handle: Promise<FileHandle> | undefined;
  return {
    size: bytes,
    async read(offset, length) {
      handle ??= open(path, 'r');
      const file = await handle;
      const buffer = new Uint8Array(Math.max(0, Math.min(length, bytes - offset)));
      let filled = 0;
      while (filled < buffer.length) {
        const { bytesRead } = await file.read(buffer, filled, buffer.length - filled, offset + filled);
        if (bytesRead === 0) break; // the file shrank since its size was taken
        filled += bytesRead;
      }
      return buffer.subarray(0, filled);
    },
    async close() {
      const opened = handle;
      handle = undefined;
      if (opened) await (await opened.catch(() => undefined))?.close();
    },
  };
};
