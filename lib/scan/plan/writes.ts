// What must be written: each desired item that is new, or whose files changed, with its
// colours and enrichment state; shows first (their episodes refer to them), then path order.
import type { CatalogItem, Change, FileRef, IndexEntry } from '../../catalog/model';
import { titleColors } from '../../media/mesh-gradient';
import { ascending } from '../../util/order';

export interface PlannedWrite {
  item: CatalogItem;
  change: Change;
  /** Files this write accounts for (a double-episode file is counted once, on its first episode). */
  files: number;
  /** A moved item whose name (or local files) now say something new: its metadata is looked up again. */
  renamed?: boolean;
}

const sameFiles = (a: FileRef[] | undefined, b: FileRef[]) =>
  a !== undefined &&
  a.length === b.length &&
  a.every((f, i) => f.relPath === b[i]!.relPath && f.size === b[i]!.size && f.mtimeMs === b[i]!.mtimeMs && (f.part ?? null) === b[i]!.part);

const firstPath = (item: CatalogItem) => (item.entity === 'tvshow' ? '' : (item.files[0]?.relPath ?? ''));

const writeOrder = (a: CatalogItem, b: CatalogItem) =>
  a.entity === 'tvshow' && b.entity !== 'tvshow'
    ? -1
    : b.entity === 'tvshow' && a.entity !== 'tvshow'
      ? 1
      : ascending(firstPath(a), firstPath(b)) || ascending(a.id, b.id);

const withColors = (item: CatalogItem): CatalogItem =>
  item.entity === 'episode' ? item : { ...item, meshGradientColors: titleColors(item.title) };

/**
 * The writes `items` call for against the index, and how many of their files are already up to
 * date (a show known already, an item whose files are the same). A changed item keeps its
 * `addedAt`. `enrich` sets each written item's local files and where its enrichment starts.
 */
export const planWrites = (items: Map<string, CatalogItem>, index: IndexEntry[], enrich: <T extends CatalogItem>(item: T) => T) => {
  const known = new Map(index.map((e) => [e.id, e]));
  const writes: PlannedWrite[] = [];
  let upToDateFiles = 0;
  const counted = new Set<string>();
  const newFiles = (item: CatalogItem) => {
    if (item.entity === 'tvshow') return 0;
    const fresh = item.files.filter((f) => !counted.has(f.relPath));
    fresh.forEach((f) => counted.add(f.relPath));
    return fresh.length;
  };
  for (const item of [...items.values()].sort(writeOrder)) {
    const before = known.get(item.id);
    if (before !== undefined && (item.entity === 'tvshow' || sameFiles(before.files, item.files))) {
      upToDateFiles += newFiles(item);
      continue;
    }
    const change: Change = before ? 'updated' : 'added';
    const written = enrich(withColors(before ? { ...item, addedAt: before.addedAt, lastChange: change } : item));
    writes.push({ item: written, change, files: newFiles(item) });
  }
  return { writes, upToDateFiles };
};
