// A file written whole or not at all: the bytes go to a temporary name in the same folder
// (a dot name no caller's file has), are flushed to disk, then renamed over the path. A reader
// sees the old file or the whole new one; a crash or a full disk leaves at most the temporary
// file, never half a file under the path.
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export const writeWhole = async (path: string, data: string | Uint8Array): Promise<void> => {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const file = await open(temp, 'wx');
    try {
      await file.writeFile(data);
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
};
