// Moves and renames keep identity. A movie or episode whose files are gone from their paths,
// and a new one found in the same scan whose files have the same sizes and modification times,
// are one item that moved: it keeps its id, addedAt, metadata and artwork, and goes back to the
// metadata phase only when its name now reads as another title, year or episode. A show whose
// episodes moved to a new show folder keeps its identity the same way. Pure, like the rest of
// the plan: a resumed scan pairs the same files again.
import { episodeId } from '../../catalog/ids';
import type { CatalogItem, FileRef, IndexEntry } from '../../catalog/model';
import { parseEpisode, parseMovie } from '../../naming';
import { nfc } from './items';
import type { PlannedWrite } from './writes';

/** Sizes and times, whatever the paths: what stays the same when a file is moved or renamed. */
const fingerprint = (entity: string, files: readonly FileRef[]) =>
  `${entity}|${files
    .map((f) => `${f.size}:${f.mtimeMs}`)
    .sort()
    .join('|')}`;

const firstPath = (files: readonly FileRef[] | undefined) => files?.[0]?.relPath ?? '';

/** What an old path's name said: the title and year of a movie, the numbers of an episode. */
const oldName = (libraryId: string, entry: IndexEntry): string | undefined => {
  const path = firstPath(entry.files);
  if (entry.entity === 'movie') {
    const name = parseMovie(path);
    return name.ok ? `${nfc(name.title).toLowerCase()}|${name.year ?? ''}` : undefined;
  }
  const name = parseEpisode(path);
  if (!name.ok) return undefined;
  // A file holding two episodes gave two items: which one this is, its id says.
  const pathId = entry.pathKey ?? entry.id;
  const episode = name.episodes.find((n) => episodeId(libraryId, path, name.season, n) === pathId) ?? name.episodes[0];
  return `${name.season}|${episode}`;
};

const newName = (item: CatalogItem) =>
  item.entity === 'movie'
    ? `${nfc(item.title).toLowerCase()}|${item.year ?? ''}`
    : item.entity === 'episode'
      ? `${item.seasonNumber}|${item.episodeNumber}`
      : '';

/** Local files (NFO, artwork) stamped by name and time only: they moved along with the video when these are equal. */
const localNames = (stamp: string | undefined) =>
  (stamp ?? '')
    .split('|')
    .map((part) => part.replace(/:[^@]*\//u, ':'))
    .join('|');

export interface MoveInput {
  libraryId: string;
  writes: PlannedWrite[];
  removals: IndexEntry[];
  index: readonly IndexEntry[];
}

const onlyOne = <T>(list: T[]): T | undefined => (list.length === 1 ? list[0] : undefined);

/** The writes and removals with each move found made into one write of the item that moved. */
export const pairMoves = ({ libraryId, writes, removals, index }: MoveInput): { writes: PlannedWrite[]; removals: IndexEntry[] } => {
  const known = new Map(index.map((e) => [e.id, e]));
  const gone = new Map<string, IndexEntry[]>();
  for (const entry of removals) {
    if (entry.entity === 'tvshow' || !entry.files?.length) continue;
    const key = fingerprint(entry.entity, entry.files);
    gone.set(key, [...(gone.get(key) ?? []), entry]);
  }
  const paired = new Set<string>();
  /** The show each new show id stands for, from the episodes that moved into it. */
  const showMoves = new Map<string, string>();
  const moved = (w: PlannedWrite, from: IndexEntry): PlannedWrite => {
    const renamed = oldName(libraryId, from) !== newName(w.item);
    const localMoved = localNames(from.localStamp) === localNames(w.item.localStamp);
    const item = {
      ...w.item,
      id: from.id,
      addedAt: from.addedAt,
      lastChange: 'moved' as const,
      ...(w.item.id !== from.id ? { pathKey: w.item.pathKey ?? w.item.id } : {}),
      // Where its enrichment stands stays, unless the name or the local files say something new.
      ...(renamed || !localMoved ? {} : from.enrich ? { enrich: from.enrich } : { enrich: undefined }),
    } as CatalogItem;
    return { ...w, item, change: 'moved', renamed: renamed || !localMoved };
  };

  // Pairs by sizes and times: one gone and one found is a move; where several share them (a
  // restore that stamped one time on all), only a name read the same pairs them, one to one.
  const found = new Map<string, number[]>();
  writes.forEach((w, i) => {
    if (w.change === 'added' && w.item.entity !== 'tvshow') {
      const key = fingerprint(w.item.entity, w.item.files);
      found.set(key, [...(found.get(key) ?? []), i]);
    }
  });
  const pairs = new Map<number, IndexEntry>();
  for (const [key, indices] of found) {
    const candidates = gone.get(key) ?? [];
    for (const i of indices) {
      const from =
        candidates.length === 1 && indices.length === 1
          ? candidates[0]
          : onlyOne(candidates.filter((e) => !paired.has(e.id) && oldName(libraryId, e) === newName(writes[i]!.item)));
      if (!from) continue;
      paired.add(from.id);
      pairs.set(i, from);
    }
  }

  const result = writes.map((w, i) => {
    if (w.item.entity === 'tvshow') return w;
    // Renamed in place: the same id (a stack's folder), the same files under other names.
    const before = known.get(w.item.id);
    if (w.change === 'updated' && before?.files && fingerprint(before.entity, before.files) === fingerprint(w.item.entity, w.item.files))
      return moved(w, before);
    const from = pairs.get(i);
    if (!from) return w;
    if (w.item.entity === 'episode' && from.showId && from.showId !== w.item.showId && !showMoves.has(w.item.showId))
      showMoves.set(w.item.showId, from.showId);
    return moved(w, from);
  });

  // A show folder renamed: the new show takes the old one's identity when the old one is left without episodes.
  const removedShows = new Map(removals.filter((e) => e.entity === 'tvshow').map((e) => [e.id, e]));
  const taken = new Set<string>();
  const showOf = new Map<string, string>();
  for (const [newShow, oldShow] of showMoves) {
    const added = result.find((w) => w.item.id === newShow && w.change === 'added');
    if (!added || !removedShows.has(oldShow) || taken.has(oldShow)) continue;
    taken.add(oldShow);
    showOf.set(newShow, oldShow);
  }
  const linked = result.map((w) => {
    if (w.item.entity === 'tvshow' && showOf.has(w.item.id)) {
      const from = removedShows.get(showOf.get(w.item.id)!)!;
      const item = { ...w.item, id: from.id, addedAt: from.addedAt, lastChange: 'moved' as const, pathKey: w.item.pathKey ?? w.item.id };
      return { ...w, item, change: 'moved' as const, renamed: true };
    }
    if (w.item.entity === 'episode' && showOf.has(w.item.showId)) return { ...w, item: { ...w.item, showId: showOf.get(w.item.showId)! } };
    return w;
  });
  return { writes: linked, removals: removals.filter((e) => !paired.has(e.id) && !taken.has(e.id)) };
};
