// What a scan must write and remove, worked out in memory from the files on disk and the
// library's index, before anything is written. Pure: the same inputs give the same plan, so
// a resumed job recomputes it and finds its own earlier writes already in place (unchanged),
// which is what makes a rescan or a resume unable to duplicate anything.
import { parseEpisode, parseMovie } from '../naming';
import { lastSegment, splitExtension } from '../naming/path';
import { DEFAULT_RULES } from '../naming/rules';
import { splitPart } from '../naming/stack';
import { episodeLocalFiles, movieLocalFiles, showLocalFiles, type LocalFiles } from '../metadata/local-files';
import { titleColors, type Colors } from '../media/mesh-gradient';
import type { DiscoveredFile } from '../storage/discover';
import { episodeId, movieId, showId } from './ids';
import type { CatalogItem, Change, EnrichState, EpisodeItem, FileRef, IndexEntry, MediaKind, MovieItem } from './model';

export interface PlanInput {
  libraryId: string;
  mediaType: MediaKind;
  jobId: string;
  now: string;
  /** The folder scanned, relative to the library root ('' for all of it): only its items can be removed. */
  scope: string;
  /** Library-relative paths, as discovered. */
  files: DiscoveredFile[];
  index: IndexEntry[];
  /** NFO and image files found beside the videos (library-relative), with their times. */
  sidecars?: DiscoveredFile[];
  /** Whether this scan can ask a metadata provider (fetching on, a key set). */
  providerOn?: boolean;
}

export interface PlannedWrite {
  item: CatalogItem;
  change: Change;
  /** Files this write accounts for (a double-episode file is counted once, on its first episode). */
  files: number;
}

export interface LibraryCounts {
  movies: number;
  tvShows: number;
  seasons: number;
  episodes: number;
  totalSizeBytes: number;
  /** Of the files whose duration could be read. */
  totalDurationSeconds?: number;
}

export interface Plan {
  /** Shows first (their episodes refer to them), then the rest in path order. */
  writes: PlannedWrite[];
  /** Movies and episodes whose files are gone, then shows left without episodes. */
  removals: IndexEntry[];
  /** Files whose items are already up to date. */
  unchangedFiles: number;
  /** Items this job wrote in an earlier run (a resume): counted, not written again. */
  carried: Record<Change, number>;
  /** The files of those items whose headers were read, and those that could not be: a resume's probe counts start here. */
  carriedProbes: { probed: number; failed: number };
  failed: { relPath: string; reason: string }[];
  /** The library's index once the plan is applied (for its manifest). */
  index: IndexEntry[];
  /**
   * Items kept as they are whose NFO or artwork files changed (added, removed, edited): the
   * metadata phase takes them up again with these.
   */
  relocated: Array<{ id: string; local: LocalFiles; localStamp: string }>;
}

const nfc = (s: string) => s.normalize('NFC');
const ref = (f: DiscoveredFile, part: number | null): FileRef => ({ relPath: f.relPath, size: f.size, mtimeMs: f.mtimeMs, part });
const sameFiles = (a: FileRef[] | undefined, b: FileRef[]) =>
  a !== undefined &&
  a.length === b.length &&
  a.every((f, i) => f.relPath === b[i]!.relPath && f.size === b[i]!.size && f.mtimeMs === b[i]!.mtimeMs && (f.part ?? null) === b[i]!.part);
const inScope = (scope: string) => (relPath: string) => scope === '' || relPath.startsWith(`${scope}/`);
const showKeyOf = (title: string, year: number | null) => `${nfc(title).toLowerCase()}\u0000${year ?? ''}`;

// Colours are derived when an item is written (withColors); unchanged items keep theirs.
const NO_COLORS: Colors = ['#000000', '#000000', '#000000', '#000000'];

const titled = (title: string, year: number | null, tmdbId: number | null) => ({
  title: nfc(title),
  originalTitle: null,
  year,
  overview: null,
  genres: [],
  rating: null,
  meshGradientColors: NO_COLORS,
  tmdbId,
});

const withColors = (item: CatalogItem): CatalogItem => (item.entity === 'episode' ? item : { ...item, meshGradientColors: titleColors(item.title) });

/** Code-unit order: the same on every machine and far cheaper than a locale's collation. */
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The items the files on disk call for, by id, with the files each accounts for. */
const desiredItems = (input: PlanInput) => {
  const { libraryId, jobId, now } = input;
  const stamp = (id: string) => ({ id, libraryId, addedAt: now, updatedAt: now, lastJob: jobId, lastChange: 'added' as Change });
  const items = new Map<string, CatalogItem>();
  const showDirs = new Map<string, string>();
  const failed: Plan['failed'] = [];

  if (input.mediaType === 'movie') {
    for (const f of input.files) {
      const name = parseMovie(f.relPath);
      if (!name.ok) {
        failed.push({ relPath: f.relPath, reason: name.reason });
        continue;
      }
      const id = movieId(libraryId, nfc(name.stackKey));
      const existing = items.get(id) as MovieItem | undefined;
      if (existing) {
        existing.files.push(ref(f, name.part));
        existing.files.sort((a, b) => (a.part ?? 0) - (b.part ?? 0) || byCodeUnit(a.relPath, b.relPath));
      } else {
        items.set(id, { ...stamp(id), entity: 'movie', ...titled(name.title, name.year, name.tmdbId), files: [ref(f, name.part)] });
      }
    }
    return { items, failed, showDirs };
  }

  for (const f of input.files) {
    const name = parseEpisode(f.relPath);
    if (!name.ok) {
      failed.push({ relPath: f.relPath, reason: name.reason });
      continue;
    }
    const show = showId(libraryId, showKeyOf(name.showTitle, name.showYear));
    if (!items.has(show)) items.set(show, { ...stamp(show), entity: 'tvshow', ...titled(name.showTitle, name.showYear, name.tmdbId) });
    // The show's own folder holds tvshow.nfo and its artwork (files loose at the root have none).
    if (f.relPath.includes('/') && !showDirs.has(show)) showDirs.set(show, f.relPath.slice(0, f.relPath.indexOf('/')));
    for (const episode of name.episodes) {
      const id = episodeId(libraryId, f.relPath, name.season, episode);
      const item: EpisodeItem = {
        ...stamp(id), entity: 'episode', showId: show, seasonNumber: name.season, episodeNumber: episode,
        title: null, overview: null, airDate: null, files: [ref(f, null)],
      };
      items.set(id, item);
    }
  }
  return { items, failed, showDirs };
};

/**
 * Index entries whose every file is on disk with the same size and mtime stay as they are,
 * and their files are not read again: a rescan of an unchanged library parses nothing. A
 * file is skipped only when every entry holding it is kept (a double episode has two).
 */
const keptEntries = (input: PlanInput) => {
  const onDisk = new Map(input.files.map((f) => [f.relPath, f]));
  const kept = new Map<string, IndexEntry>();
  const holders = new Map<string, IndexEntry[]>();
  for (const entry of input.index) {
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

export const planScan = (input: PlanInput): Plan => {
  const { kept, keptPaths } = keptEntries(input);
  let skipped = keptPaths();
  let { items, failed, showDirs } = desiredItems({ ...input, files: input.files.filter((f) => !skipped.has(f.relPath)) });
  // A kept movie that gained a part (or a name that now reads as a kept item) is read whole again.
  for (let merged = [...items.keys()].filter((id) => kept.has(id)); merged.length; merged = [...items.keys()].filter((id) => kept.has(id))) {
    merged.forEach((id) => kept.delete(id));
    skipped = keptPaths();
    ({ items, failed, showDirs } = desiredItems({ ...input, files: input.files.filter((f) => !skipped.has(f.relPath)) }));
  }

  const known = new Map(input.index.map((e) => [e.id, e]));
  const enrichment = enrichmentOf(input, showDirs);
  const writes: PlannedWrite[] = [];
  let unchangedFiles = skipped.size;
  const counted = new Set<string>();
  const newFiles = (item: CatalogItem) => {
    if (item.entity === 'tvshow') return 0;
    const fresh = item.files.filter((f) => !counted.has(f.relPath));
    fresh.forEach((f) => counted.add(f.relPath));
    return fresh.length;
  };

  const ordered = [...items.values()].sort((a, b) =>
    a.entity === 'tvshow' && b.entity !== 'tvshow' ? -1 : b.entity === 'tvshow' && a.entity !== 'tvshow' ? 1 : byCodeUnit(firstPath(a), firstPath(b)) || byCodeUnit(a.id, b.id),
  );
  for (const item of ordered) {
    const before = known.get(item.id);
    if (before !== undefined && (item.entity === 'tvshow' || sameFiles(before.files, item.files))) {
      unchangedFiles += newFiles(item);
      continue;
    }
    const change: Change = before ? 'updated' : 'added';
    const written = enrichment(withColors(before ? { ...item, addedAt: before.addedAt, lastChange: change } : item));
    writes.push({ item: written, change, files: newFiles(item) });
  }

  // Removals: what the scanned folder no longer holds, then shows left empty.
  const scoped = inScope(input.scope);
  const removals: IndexEntry[] = [];
  for (const entry of input.index) {
    if (entry.entity === 'tvshow' || items.has(entry.id) || kept.has(entry.id)) continue;
    if ((entry.files ?? []).some((f) => scoped(f.relPath))) removals.push(entry);
  }
  const removed = new Set(removals.map((e) => e.id));
  const showsWithEpisodes = new Set(
    [...input.index.filter((e) => !removed.has(e.id)), ...items.values()].flatMap((e) => (e.entity === 'episode' && e.showId ? [e.showId] : [])),
  );
  for (const entry of input.index) {
    if (entry.entity === 'tvshow' && !showsWithEpisodes.has(entry.id)) removals.push(entry);
  }

  // Items this job wrote in an earlier run and that stay as they are: counted, not redone.
  const carried = { added: 0, updated: 0 };
  const carriedFiles = new Map<string, boolean>();
  const redone = new Set([...writes.map((w) => w.item.id), ...removals.map((e) => e.id)]);
  for (const entry of input.index) {
    if (entry.lastJob !== input.jobId || !entry.lastChange || redone.has(entry.id)) continue;
    carried[entry.lastChange]++;
    // A file holding two episodes was read once.
    for (const f of entry.files ?? []) if (f.tech !== undefined) carriedFiles.set(f.relPath, f.tech !== null);
  }
  const carriedProbes = { probed: 0, failed: 0 };
  for (const read of carriedFiles.values()) carriedProbes[read ? 'probed' : 'failed']++;

  const finalIndex = [...input.index.filter((e) => !redone.has(e.id)), ...writes.map((w) => toEntry(w.item))];
  // Kept items whose local files changed. Only what this scan could see: items in the scanned
  // folder, and shows only when the whole library was scanned (their folder may lie outside).
  const relocated: Plan['relocated'] = [];
  for (const entry of input.index) {
    if (redone.has(entry.id)) continue;
    if (entry.entity === 'tvshow' ? input.scope !== '' : !scoped(entry.files?.[0]?.relPath ?? '')) continue;
    const { local, localStamp } = enrichment.localOf(entry);
    if (localStamp !== (entry.localStamp ?? '')) relocated.push({ id: entry.id, local, localStamp });
  }
  return { writes, removals, unchangedFiles, carried, carriedProbes, failed, index: finalIndex, relocated };
};

/**
 * The local files of each written item, and where its enrichment starts: with a provider, or
 * an NFO to read, at the metadata phase; with local artwork only, at the artwork phase; with
 * nothing, it waits ('local') for a scan that can ask a provider.
 */
const enrichmentOf = (input: PlanInput, written: Map<string, string>) => {
  const folders = new Map<string, string[]>();
  const times = new Map<string, number>();
  for (const { relPath: path, mtimeMs } of input.sidecars ?? []) {
    times.set(path, mtimeMs);
    const slash = path.lastIndexOf('/');
    const dir = slash === -1 ? '' : path.slice(0, slash);
    folders.set(dir, [...(folders.get(dir) ?? []), path.slice(slash + 1)]);
  }
  // Movies per folder, a stack's parts counting once: folder-wide names serve a lone movie only.
  const movieNames = new Map<string, Set<string>>();
  if (input.mediaType === 'movie') {
    for (const f of input.files) {
      const slash = f.relPath.lastIndexOf('/');
      const dir = slash === -1 ? '' : f.relPath.slice(0, slash);
      const base = splitExtension(lastSegment(f.relPath)).base;
      movieNames.set(dir, (movieNames.get(dir) ?? new Set()).add(splitPart(base, DEFAULT_RULES).name.trim().toLowerCase()));
    }
  }
  // A show's folder: from the files of this scan, else from its episodes in the index.
  const showDirs = new Map<string, string>();
  for (const e of input.index) {
    const path = e.entity === 'episode' ? e.files?.[0]?.relPath : undefined;
    if (e.showId && path?.includes('/') && !showDirs.has(e.showId)) showDirs.set(e.showId, path.slice(0, path.indexOf('/')));
  }
  for (const [id, dir] of written) showDirs.set(id, dir);
  const dirOf = (path: string) => (path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '');
  const filesOf = (item: Pick<IndexEntry, 'id' | 'entity' | 'files'>): LocalFiles => {
    if (item.entity === 'tvshow') {
      const dir = showDirs.get(item.id);
      return dir === undefined ? {} : showLocalFiles({ showDir: dir, folderFiles: folders.get(dir) ?? [] });
    }
    const videoPath = item.files?.[0]?.relPath;
    if (videoPath === undefined) return {};
    const folderFiles = folders.get(dirOf(videoPath)) ?? [];
    if (item.entity === 'episode') return episodeLocalFiles({ videoPath, folderFiles });
    return movieLocalFiles({ videoPath, folderFiles, moviesInFolder: movieNames.get(dirOf(videoPath))?.size ?? 1 });
  };
  /** The local files and a stamp of their names and times: a changed stamp means a changed file. */
  const localOf = (item: Pick<IndexEntry, 'id' | 'entity' | 'files'>) => {
    const local = filesOf(item);
    const localStamp = Object.entries(local)
      .sort(([a], [b]) => byCodeUnit(a, b))
      .map(([kind, path]) => `${kind}:${path}@${times.get(path) ?? 0}`)
      .join('|');
    return { local, localStamp };
  };
  const apply = <T extends CatalogItem>(item: T): T => {
    const { local, localStamp } = localOf(item);
    const enrich: EnrichState = input.providerOn || local.nfo ? 'metadata' : local.poster || local.backdrop || local.still ? 'artwork' : 'local';
    return { ...item, local, localStamp, enrich };
  };
  return Object.assign(apply, { localOf });
};

const toEntry = (item: CatalogItem): IndexEntry => ({
  id: item.id,
  entity: item.entity,
  addedAt: item.addedAt,
  lastJob: item.lastJob,
  lastChange: item.lastChange,
  ...(item.enrich ? { enrich: item.enrich } : {}),
  ...(item.localStamp ? { localStamp: item.localStamp } : {}),
  ...(item.entity === 'tvshow' ? {} : { files: item.files }),
  ...(item.entity === 'episode' ? { showId: item.showId, seasonNumber: item.seasonNumber } : {}),
});

const firstPath = (item: CatalogItem) => (item.entity === 'tvshow' ? '' : item.files[0]?.relPath ?? '');

/** Counts of the library's final index: every show left in it has episodes (emptied ones were removed). */
export const countsOf = (items: IndexEntry[]): LibraryCounts => {
  const counts: LibraryCounts = { movies: 0, tvShows: 0, seasons: 0, episodes: 0, totalSizeBytes: 0, totalDurationSeconds: 0 };
  const seasons = new Set<string>();
  const sized = new Set<string>();
  for (const item of items) {
    if (item.entity === 'movie') counts.movies++;
    if (item.entity === 'tvshow') counts.tvShows++;
    if (item.entity === 'episode') {
      counts.episodes++;
      seasons.add(`${item.showId}#${item.seasonNumber}`);
    }
    for (const f of item.files ?? []) {
      if (sized.has(f.relPath)) continue;
      sized.add(f.relPath);
      counts.totalSizeBytes += f.size;
      counts.totalDurationSeconds! += f.tech?.durationSeconds ?? 0;
    }
  }
  counts.seasons = seasons.size;
  return counts;
};
