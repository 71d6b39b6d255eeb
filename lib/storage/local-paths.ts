// A folder a user names for a library or a scan: it must be absolute, exist, be a directory
// and be readable, else 422 with the reason. Paths are compared in their canonical form
// (symlinks resolved), so one folder reached two ways is still one library.
import { constants } from 'node:fs';
import { access, opendir, realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathNotUsable } from '../errors';

const REASONS: Record<string, string> = {
  ENOENT: 'does not exist',
  ENOTDIR: 'does not exist (a part of it is a file)',
  EACCES: 'cannot be read by the service',
  EPERM: 'cannot be read by the service',
  ELOOP: 'is a symbolic link loop',
  ENAMETOOLONG: 'is too long',
};

const reasonOf = (err: unknown) => REASONS[(err as NodeJS.ErrnoException).code ?? ''] ?? 'cannot be opened';

/** The canonical path of a readable directory, or a 422 problem saying why not. */
export const usableDirectory = async (input: string): Promise<string> => {
  if (input.includes('\0')) throw pathNotUsable(JSON.stringify(input), 'contains a NUL character');
  if (!isAbsolute(input)) throw pathNotUsable(input, 'is not an absolute path');
  let canonical: string;
  try {
    canonical = await realpath(resolve(input));
    if (!(await stat(canonical)).isDirectory()) throw pathNotUsable(input, 'is not a directory');
    await access(canonical, constants.R_OK | constants.X_OK);
    await (await opendir(canonical)).close();
  } catch (err) {
    if ((err as { status?: number }).status === 422) throw err;
    throw pathNotUsable(input, reasonOf(err));
  }
  return canonical;
};

/** `inner` relative to `outer` when inner is outer or below it ('' for the same folder), else undefined. */
export const within = (outer: string, inner: string): string | undefined => {
  const rel = relative(outer, inner);
  if (rel === '') return '';
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join('/');
};

/** Whether a folder holds anything, from its first entry alone (a root of 10,000 films is not listed to tell). Throws when it cannot be read. */
export const holdsEntries = async (folder: string): Promise<boolean> => {
  const dir = await opendir(folder, { bufferSize: 1 });
  try {
    return (await dir.read()) !== null;
  } finally {
    await dir.close().catch(() => undefined);
  }
};
