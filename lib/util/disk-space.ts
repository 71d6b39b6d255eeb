// Free space on a disk, when it counts as low, the errors that mean "no space left", and a
// reserve: a file of a few MiB kept on the disk so that, when the disk fills, the writes that
// record the fact (a paused job, a status) still find room once the reserve is given up.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { existsSync, rmSync, statfsSync } from 'node:fs';
import { join } from 'node:path';

export interface DiskSpace {
  freeBytes: number;
  totalBytes: number;
}

/**
 * The space of the disk holding `dir` (as an unprivileged user sees it); undefined when it cannot
 * be read (no such folder). With `reserveBytes`, a reserve kept in `dir` that was given up counts
 * as used: the space is not free until the reserve is back, so a disk that filled does not look
 * healthy again on the strength of the reserve alone.
 */
export const diskSpace = (dir: string, reserveBytes = 0): DiskSpace | undefined => {
  try {
    const s = statfsSync(dir);
    const missing = reserveBytes > 0 && !existsSync(reserveFile(dir)) ? reserveBytes : 0;
    return { freeBytes: Math.max(0, s.bavail * s.bsize - missing), totalBytes: s.blocks * s.bsize };
  } catch {
    return undefined;
  }
};

/** Below which free space is low: the smaller of `percent` of the disk and `bytes`. */
export interface LowSpaceLimits {
  bytes: number;
  percent: number;
}

export const lowSpaceBelow = (totalBytes: number, limits: LowSpaceLimits) =>
  Math.min(limits.bytes, Math.floor((totalBytes * limits.percent) / 100));

/** Less free than this and a write that failed without saying why failed for space (a database's own files). */
export const NEARLY_FULL_BYTES = 4 * 1024 * 1024;

const NO_SPACE_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** A file-system error that says the disk (or the user's quota) is full. */
export const isNoSpace = (err: unknown) => NO_SPACE_CODES.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');

/** The reserve's file in a folder; its name starts with a dot so no listing of the folder takes it for data. */
export const reserveFile = (dir: string) => join(dir, '.space-reserve');

/** Gives the reserve's space back to the disk (at once, synchronously: the caller is about to write). True when there was one. */
export const releaseReserve = (dir: string): boolean => {
  try {
    rmSync(reserveFile(dir));
    return true;
  } catch {
    return false;
  }
};

const CHUNK = 1024 * 1024;

/**
 * Writes the reserve (real blocks, not a sparse file) under a temporary name and renames it into
 * place; false when the disk has no room for it, which leaves nothing behind.
 */
export const keepReserve = async (dir: string, bytes: number): Promise<boolean> => {
  const temp = join(dir, `.space-reserve.${randomBytes(4).toString('hex')}.tmp`);
  try {
    const file = await open(temp, 'wx');
    try {
      const chunk = Buffer.alloc(Math.min(CHUNK, bytes), 0x5a);
      for (let written = 0; written < bytes; written += chunk.length) await file.write(chunk, 0, Math.min(chunk.length, bytes - written));
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, reserveFile(dir));
    return true;
  } catch {
    await rm(temp, { force: true });
    return false;
  }
};
