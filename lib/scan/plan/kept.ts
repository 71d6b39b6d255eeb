// Which index entries stay as they are: every file of theirs is on disk with the same size and
// mtime, so a rescan of an unchanged library parses nothing. A file is skipped only when every
// entry holding it is kept (a double episode has two).
import type { IndexEntry } from '../../catalog/model';
import type { DiscoveredFile } from '../../storage/discover';
import { desiredItems, type DesiredItems, type ItemsInput } from './items';

export interface Unchanged {
  kept: Map<string, IndexEntry>;
  /** The paths of the kept entries' files: not read again. */
  skipped: Set<string>;
}

/** Entries whose files are all unchanged; `keptPaths` gives the paths only kept entries hold (as `kept` is now). */
export const unchangedEntries = (files: DiscoveredFile[], index: IndexEntry[]) => {
  const onDisk = new Map(files.map((f) => [f.relPath, f]));
  const kept = new Map<string, IndexEntry>();
  const holders = new Map<string, IndexEntry[]>();
  for (const entry of index) {
    if (entry.entity === 'tvshow' || !entry.files?.length) continue;
    for (const f of entry.files) holders.set(f.relPath, [...(holders.get(f.relPath) ?? []), entry]);
    const same = entry.files.every((f) => {
      const disk = onDisk.get(f.relPath);
      return disk !== undefined && disk.size === f.size && disk.mtimeMs === f.mtimeMs;
    });
    if (same) kept.set(entry.id, entry);
  }
  const keptPaths = () => new Set([...holders].filter(([, entries]) => entries.every((e) => kept.has(e.id))).map(([path]) => path));
  return { kept, keptPaths };
};

/**
 * The items the changed files call for, and what stays. A kept movie that gained a part (or a
 * name that now reads as a kept item) is no longer kept: its files are read whole again, until
 * no desired item is a kept one.
 */
export const splitUnchanged = (input: ItemsInput, index: IndexEntry[], { partialIndex = false } = {}): Unchanged & DesiredItems => {
  // A file holding two episodes is written as two items, which a stopped scan may have written
  // only one of: then the entry it wrote looks complete. In a TV library whose index may hold
  // such a half (not a completed scan's manifest) every file is read again; what is unchanged
  // still writes nothing.
  if (partialIndex && input.mediaType === 'tvshow') return { kept: new Map(), skipped: new Set(), ...desiredItems(input) };
  const { kept, keptPaths } = unchangedEntries(input.files, index);
  let skipped = keptPaths();
  let desired = desiredItems({ ...input, files: input.files.filter((f) => !skipped.has(f.relPath)) });
  for (
    let merged = [...desired.items.keys()].filter((id) => kept.has(id));
    merged.length;
    merged = [...desired.items.keys()].filter((id) => kept.has(id))
  ) {
    merged.forEach((id) => kept.delete(id));
    skipped = keptPaths();
    desired = desiredItems({ ...input, files: input.files.filter((f) => !skipped.has(f.relPath)) });
  }
  return { kept, skipped, ...desired };
};
