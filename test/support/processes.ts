// Looking for processes from the outside, as a user with `ps` would.
import { readdirSync, readFileSync } from 'node:fs';

export { isAlive } from '../../infra/runner/managed-process';

/** Live processes whose command line or environment mentions `needle` (e.g. a DATA_DIR). */
export const processesMentioning = (needle: string): number[] =>
  readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d) && Number(d) !== process.pid)
    .filter((d) => {
      try {
        const cmdline = readFileSync(`/proc/${d}/cmdline`, 'utf8');
        const environ = readFileSync(`/proc/${d}/environ`, 'utf8');
        const state = /State:\s+(\w)/.exec(readFileSync(`/proc/${d}/status`, 'utf8'))?.[1];
        return state !== 'Z' && (cmdline.includes(needle) || environ.includes(needle));
      } catch {
        return false;
      }
    })
    .map(Number);
