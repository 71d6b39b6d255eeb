// A resumed job recomputes its plan and finds the items it wrote in an earlier run already in
// the index: they are counted as its own, not written again.
import type { Change, IndexEntry } from '../../catalog/model';

export interface Carried {
  /** Items this job wrote in an earlier run and that stay as they are. */
  carried: Record<Change, number>;
  /** The files of those items whose headers were read, and those that could not be: a resume's probe counts start here. */
  carriedProbes: { probed: number; failed: number };
}

/** `redone`: ids this run writes or removes again, which it counts itself. */
export const carriedWork = (index: IndexEntry[], jobId: string, redone: ReadonlySet<string>): Carried => {
  const carried = { added: 0, updated: 0, moved: 0 };
  const carriedFiles = new Map<string, boolean>();
  for (const entry of index) {
    if (entry.lastJob !== jobId || !entry.lastChange || redone.has(entry.id)) continue;
    carried[entry.lastChange]++;
    // A moved item's technical info came with it: this job read no header of it.
    if (entry.lastChange === 'moved') continue;
    // A file holding two episodes was read once.
    for (const f of entry.files ?? []) if (f.tech !== undefined) carriedFiles.set(f.relPath, f.tech !== null);
  }
  const carriedProbes = { probed: 0, failed: 0 };
  for (const read of carriedFiles.values()) carriedProbes[read ? 'probed' : 'failed']++;
  return { carried, carriedProbes };
};
