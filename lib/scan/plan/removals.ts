// What must be removed: movies and episodes of the scanned folder whose files are gone, then
// shows left without episodes.
import type { CatalogItem, IndexEntry } from '../../catalog/model';

/** Whether a library-relative path lies in the scanned folder ('' is the whole library). */
export const inScope = (scope: string) => (relPath: string) => scope === '' || relPath.startsWith(`${scope}/`);

/**
 * `unreadable`: folders the scan could not read (library-relative). A file below one was not
 * seen, which is not the same as gone: its item stays.
 */
export const planRemovals = (
  index: IndexEntry[],
  items: Map<string, CatalogItem>,
  kept: Map<string, IndexEntry>,
  scope: string,
  unreadable: readonly string[] = [],
): IndexEntry[] => {
  const scoped = inScope(scope);
  const unseen = (relPath: string) => unreadable.some((folder) => relPath.startsWith(`${folder}/`));
  const removals: IndexEntry[] = [];
  for (const entry of index) {
    if (entry.entity === 'tvshow' || items.has(entry.id) || kept.has(entry.id)) continue;
    const files = entry.files ?? [];
    if (files.some((f) => scoped(f.relPath)) && !files.some((f) => unseen(f.relPath))) removals.push(entry);
  }
  const removed = new Set(removals.map((e) => e.id));
  const showsWithEpisodes = new Set(
    [...index.filter((e) => !removed.has(e.id)), ...items.values()].flatMap((e) => (e.entity === 'episode' && e.showId ? [e.showId] : [])),
  );
  for (const entry of index) {
    if (entry.entity === 'tvshow' && !showsWithEpisodes.has(entry.id)) removals.push(entry);
  }
  return removals;
};
