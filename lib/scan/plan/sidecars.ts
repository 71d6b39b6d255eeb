// The files beside the videos (NFOs, artwork, subtitles): which belong to each item, a stamp of their names
// and times so a rescan notices one added, removed or edited, and where an item's enrichment
// starts given what it has.
import type { ArtworkWanted } from '../../artwork/model';
import type { CatalogItem, EnrichState, IndexEntry } from '../../catalog/model';
import type { MediaKind } from '../../library/model';
import {
  episodeLocalFiles,
  movieLocalFiles,
  ownNames,
  showLocalFiles,
  subtitlesByVideo,
  SUBS_FOLDERS,
  type LocalFiles,
  type SubsFolder,
} from '../../naming/sidecars';
import { parseEpisode, showDirOf } from '../../naming';
import { lastSegment, parentPath, splitExtension } from '../../naming/path';
import { DEFAULT_RULES } from '../../naming/rules';
import { splitPart } from '../../naming/stack';
import type { DiscoveredFile } from '../../storage/discover';
import { ascending } from '../../util/order';
import { inScope } from './removals';

export interface SidecarInput {
  mediaType: MediaKind;
  /** The video files, library-relative. */
  files: DiscoveredFile[];
  /** NFO, image and subtitle files found beside the videos (library-relative), with their times. */
  sidecars: DiscoveredFile[];
  index: IndexEntry[];
  /** Show folders seen in this scan's files (they win over the index's). */
  showDirs: Map<string, string>;
  /** The library's own folder name, to read the index's show folders as the scan's files were read. */
  rootName?: string;
}

type Holder = Pick<IndexEntry, 'id' | 'entity' | 'files'>;

export interface Sidecars {
  /** An item's local files and their stamp: a changed stamp means a changed file. */
  localOf(item: Holder): { local: LocalFiles; localStamp: string };
}

/** An item kept as it is whose local files changed (added, removed, edited): the metadata phase takes it up again with these. */
export interface SidecarChange {
  id: string;
  local: LocalFiles;
  localStamp: string;
}

const isSubs = (name: string) => SUBS_FOLDERS.has(name.toLowerCase());

/** The `Subs/` folders (and folders inside them) among these, by the video folder they serve. */
const subsFoldersOf = (folders: ReadonlyMap<string, string[]>): Map<string, SubsFolder[]> => {
  const byVideoDir = new Map<string, SubsFolder[]>();
  for (const [dir, files] of folders) {
    const parent = parentPath(dir);
    const at =
      isSubs(lastSegment(dir)) && dir !== ''
        ? { videoDir: parent, inner: null }
        : isSubs(lastSegment(parent)) && parent !== ''
          ? { videoDir: parentPath(parent), inner: lastSegment(dir) }
          : undefined;
    if (at) byVideoDir.set(at.videoDir, [...(byVideoDir.get(at.videoDir) ?? []), { dir, inner: at.inner, files }]);
  }
  return byVideoDir;
};

export const sidecarsOf = (input: SidecarInput): Sidecars => {
  const folders = new Map<string, string[]>();
  const times = new Map<string, number>();
  for (const { relPath: path, mtimeMs } of input.sidecars) {
    times.set(path, mtimeMs);
    const list = folders.get(parentPath(path));
    if (list) list.push(lastSegment(path));
    else folders.set(parentPath(path), [lastSegment(path)]);
  }
  const subsFolders = subsFoldersOf(folders);
  // Movies per folder, a stack's parts counting once: folder-wide names serve a lone movie only.
  const movieNames = new Map<string, Set<string>>();
  // Every video's names per folder (a stack's too), so a subtitle goes to the video whose name it carries.
  const videoBases = new Map<string, string[]>();
  for (const f of input.files) {
    const base = splitExtension(lastSegment(f.relPath)).base;
    const list = videoBases.get(parentPath(f.relPath));
    if (list) list.push(...ownNames(base));
    else videoBases.set(parentPath(f.relPath), ownNames(base));
    if (input.mediaType === 'movie') {
      movieNames.set(
        parentPath(f.relPath),
        (movieNames.get(parentPath(f.relPath)) ?? new Set()).add(splitPart(base, DEFAULT_RULES).name.trim().toLowerCase()),
      );
    }
  }
  // A show's folder: from the files of this scan, else from its episodes in the index.
  const showDirs = new Map<string, string>();
  // Read once per show and top folder ('' for loose files): the answer depends on nothing else.
  const read = new Set<string>();
  for (const e of input.index) {
    const path = e.entity === 'episode' ? e.files?.[0]?.relPath : undefined;
    if (!e.showId || path === undefined || showDirs.has(e.showId)) continue;
    const key = `${e.showId}\u0000${path.slice(0, Math.max(0, path.indexOf('/')))}`;
    if (read.has(key)) continue;
    read.add(key);
    const name = parseEpisode(path, input.rootName);
    const dir = name.ok ? showDirOf(path, name.showFrom) : undefined;
    if (dir !== undefined) showDirs.set(e.showId, dir);
  }
  for (const [id, dir] of input.showDirs) showDirs.set(id, dir);
  // Each folder's subtitles are sorted out once, by the videos of the folder they serve.
  const subtitleOwners = new Map<string, ReadonlyMap<string, readonly string[]>>();
  const subtitlesIn = (videoDir: string) => (dir: string, files: readonly string[]) => {
    let owners = subtitleOwners.get(dir);
    if (!owners) subtitleOwners.set(dir, (owners = subtitlesByVideo(files, videoBases.get(videoDir) ?? [])));
    return owners;
  };
  const filesOf = (item: Holder): LocalFiles => {
    if (item.entity === 'tvshow') {
      const dir = showDirs.get(item.id);
      return dir === undefined ? {} : showLocalFiles({ showDir: dir, folderFiles: folders.get(dir) ?? [] });
    }
    const videoPath = item.files?.[0]?.relPath;
    if (videoPath === undefined) return {};
    const dir = parentPath(videoPath);
    // Nothing beside the video: nothing to look for (a third of a plan's time for 10,000 bare films).
    if (!folders.has(dir) && !subsFolders.has(dir)) return {};
    const beside = {
      videoPath,
      folderFiles: folders.get(dir) ?? [],
      subsFolders: subsFolders.get(dir) ?? [],
      subtitlesIn: subtitlesIn(dir),
    };
    if (item.entity === 'episode') return episodeLocalFiles(beside);
    return movieLocalFiles({ ...beside, moviesInFolder: movieNames.get(dir)?.size ?? 1 });
  };
  return {
    localOf: (item) => {
      const local = filesOf(item);
      const localStamp = Object.entries(local)
        .sort(([a], [b]) => ascending(a, b))
        .flatMap(([kind, paths]: [string, string | string[]]) => [paths].flat().map((path) => `${kind}:${path}@${times.get(path) ?? 0}`))
        .join('|');
      return { local, localStamp };
    },
  };
};

/**
 * A written item with its local files, and where its enrichment starts: with a provider, or an
 * NFO to read, at the metadata phase; with local artwork only, at the artwork phase; with
 * nothing, it waits ('local') for a scan that can ask a provider.
 */
export const withLocalFiles = <T extends CatalogItem>(sidecars: Sidecars, providerOn: boolean, item: T): T => {
  const { local, localStamp } = sidecars.localOf(item);
  const enrich: EnrichState = providerOn || local.nfo ? 'metadata' : local.poster || local.backdrop || local.still ? 'artwork' : 'local';
  // Straight to the artwork phase, which stores what is wanted: the pictures beside the video.
  return { ...item, local, localStamp, enrich, ...(enrich === 'artwork' ? { artworkWanted: localArtworkWanted(local) } : {}) };
};

const localArtworkWanted = (local: LocalFiles): ArtworkWanted => {
  const wanted: ArtworkWanted = {};
  for (const kind of ['poster', 'backdrop', 'still'] as const) {
    const from = local[kind];
    if (from) wanted[kind] = { source: 'local', from };
  }
  return wanted;
};

/**
 * Items left as they are whose local files changed. Only what this scan could see: items in the
 * scanned folder, and shows only when the whole library was scanned (their folder may lie outside).
 */
export const sidecarChanges = (sidecars: Sidecars, index: IndexEntry[], redone: ReadonlySet<string>, scope: string): SidecarChange[] => {
  const scoped = inScope(scope);
  const changes: SidecarChange[] = [];
  for (const entry of index) {
    if (redone.has(entry.id)) continue;
    if (entry.entity === 'tvshow' ? scope !== '' : !scoped(entry.files?.[0]?.relPath ?? '')) continue;
    const { local, localStamp } = sidecars.localOf(entry);
    if (localStamp !== (entry.localStamp ?? '')) changes.push({ id: entry.id, local, localStamp });
  }
  return changes;
};
