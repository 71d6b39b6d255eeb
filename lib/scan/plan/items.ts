// Files to items: the movies, shows and episodes the video files on disk call for, by id, with
// the files each accounts for. Ids come from the library and the names (lib/catalog/ids.ts), so
// the same files always give the same items.
import { episodeId, movieId, showId } from '../../catalog/ids';
import type { CatalogItem, Change, EpisodeItem, FileRef, MovieItem } from '../../catalog/model';
import type { MediaKind } from '../../library/model';
import type { Colors } from '../../media/mesh-gradient';
import { parseEpisode, parseMovie, showDirOf } from '../../naming';
import type { DiscoveredFile } from '../../storage/discover';
import { ascending } from '../../util/order';
import { NO_ALIASES, resolveId, type Aliases } from './aliases';

export interface ItemsInput {
  libraryId: string;
  mediaType: MediaKind;
  jobId: string;
  now: string;
  files: DiscoveredFile[];
  /** Ids of moved items, by the ids their paths give now. */
  aliases?: Aliases;
  /** The library's own folder name (rootFolderName): names the show when the root is a show's folder. */
  rootName?: string;
}

export interface DesiredItems {
  items: Map<string, CatalogItem>;
  /** Files whose names could not be read, with why. */
  failed: Array<{ relPath: string; reason: string }>;
  /** Each show's own folder (library-relative), from its episodes' paths: it holds tvshow.nfo and the show's artwork. */
  showDirs: Map<string, string>;
}

export const nfc = (s: string) => s.normalize('NFC');

const ref = (f: DiscoveredFile, part: number | null): FileRef => ({ relPath: f.relPath, size: f.size, mtimeMs: f.mtimeMs, part });
const showKeyOf = (title: string, year: number | null) => `${nfc(title).toLowerCase()}\u0000${year ?? ''}`;

// Colours are derived when an item is written (planWrites); unchanged items keep theirs.
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

const moviesOf = (input: ItemsInput, stamp: Stamper): DesiredItems => {
  const items = new Map<string, CatalogItem>();
  const failed: DesiredItems['failed'] = [];
  for (const f of input.files) {
    const name = parseMovie(f.relPath);
    if (!name.ok) {
      failed.push({ relPath: f.relPath, reason: name.reason });
      continue;
    }
    const id = stamp.resolve(movieId(input.libraryId, nfc(name.stackKey)));
    const existing = items.get(id) as MovieItem | undefined;
    if (existing) {
      existing.files.push(ref(f, name.part));
      existing.files.sort((a, b) => (a.part ?? 0) - (b.part ?? 0) || ascending(a.relPath, b.relPath));
    } else {
      items.set(id, { ...stamp.of(id), entity: 'movie', ...titled(name.title, name.year, name.tmdbId), files: [ref(f, name.part)] });
    }
  }
  return { items, failed, showDirs: new Map() };
};

const episodesOf = (input: ItemsInput, stamp: Stamper): DesiredItems => {
  const items = new Map<string, CatalogItem>();
  const showDirs = new Map<string, string>();
  const failed: DesiredItems['failed'] = [];
  for (const f of input.files) {
    const name = parseEpisode(f.relPath, input.rootName);
    if (!name.ok) {
      failed.push({ relPath: f.relPath, reason: name.reason });
      continue;
    }
    const show = stamp.resolve(showId(input.libraryId, showKeyOf(name.showTitle, name.showYear)));
    if (!items.has(show)) items.set(show, { ...stamp.of(show), entity: 'tvshow', ...titled(name.showTitle, name.showYear, name.tmdbId) });
    // A file loose at the root that names its own show has no show folder; the root's show has the root ('').
    const dir = showDirOf(f.relPath, name.showFrom);
    if (dir !== undefined && !showDirs.has(show)) showDirs.set(show, dir);
    for (const episode of name.episodes) {
      const id = stamp.resolve(episodeId(input.libraryId, f.relPath, name.season, episode));
      const item: EpisodeItem = {
        ...stamp.of(id),
        entity: 'episode',
        showId: show,
        seasonNumber: name.season,
        episodeNumber: episode,
        title: null,
        overview: null,
        airDate: null,
        files: [ref(f, null)],
      };
      items.set(id, item);
    }
  }
  return { items, failed, showDirs };
};

/** Ids for the names read, through the aliases of moved items, and a new item's stamp. */
interface Stamper {
  resolve(pathId: string): string;
  of(id: string): {
    id: string;
    libraryId: string;
    addedAt: string;
    updatedAt: string;
    lastJob: string;
    lastChange: Change;
    pathKey?: string;
  };
}

const stamperOf = (input: ItemsInput): Stamper => {
  const aliases = input.aliases ?? NO_ALIASES;
  const pathKeys = new Map<string, string>();
  return {
    resolve(pathId) {
      const id = resolveId(aliases, pathId);
      if (id !== pathId) pathKeys.set(id, pathId);
      return id;
    },
    of: (id) => ({
      id,
      libraryId: input.libraryId,
      addedAt: input.now,
      updatedAt: input.now,
      lastJob: input.jobId,
      lastChange: 'added',
      ...(pathKeys.has(id) ? { pathKey: pathKeys.get(id)! } : {}),
    }),
  };
};

/** The items `input.files` call for; a file whose name reads as nothing is in `failed`. */
export const desiredItems = (input: ItemsInput): DesiredItems => {
  const stamp = stamperOf(input);
  return input.mediaType === 'movie' ? moviesOf(input, stamp) : episodesOf(input, stamp);
};
