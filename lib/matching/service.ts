// Fixing a wrong match: the provider's candidates for a movie or a show, a match chosen by hand
// and kept for good (lib/catalog/match-lock.ts), unlocking it, and fetching an item's record and
// pictures again. Each re-describes the item at once the way a scan does (lib/scan/enrich,
// the artwork phase's collectArtwork), writes it, and says so on /ws.
import type { CollectionStore } from '../catalog/collections';
import type { MatchLockStore } from '../catalog/match-lock';
import type { CatalogItem, EpisodeItem, MovieItem, ShowItem } from '../catalog/model';
import type { CatalogStore } from '../catalog/store';
import type { ArtworkStore } from '../artwork/store';
import { notFound, providerNotConfigured, providerUnavailable, scanAlreadyRunning, unknownProviderId } from '../errors';
import type { EventSink } from '../events/sink';
import type { LibraryStore } from '../library/store';
import type { Log } from '../log';
import { ProviderAuthError, ProviderUnavailable, type FetchedImage, type MetadataProvider } from '../metadata/provider';
import { parseEpisode, parseMovie, rootFolderName } from '../naming';
import { enrichBatch, type EnrichTally } from '../scan/enrich/batch';
import type { ScanJobStore } from '../scan/job-store';
import { collectArtwork } from '../scan/phases/artwork';
import type { MediaStorage } from '../storage';
import { BoundedMap } from '../util/bounded-map';

export type TitleKind = 'movie' | 'tvshow';

/** The provider as the settings have it now: null with the reason (`why`) when none may be asked. */
export interface ProviderChoice {
  provider: MetadataProvider | null;
  why: string;
  artwork: boolean;
  meshGradients: boolean;
}

export interface MatchingDeps {
  catalog: CatalogStore;
  locks: MatchLockStore;
  /** Film collections: a film described again keeps its collection's copy current too. */
  collections: CollectionStore;
  libraries: LibraryStore;
  jobs: Pick<ScanJobStore, 'activeJobOf'>;
  storage: MediaStorage;
  artworks?: ArtworkStore | undefined;
  /** `fresh`: answers are fetched again, not taken from the provider cache (which they refresh). */
  provider(options: { fresh: boolean }): Promise<ProviderChoice>;
  events: EventSink;
  log: Log;
  clock?: () => number;
}

export interface Candidate {
  tmdbId: number;
  title: string;
  originalTitle: string;
  year: number | null;
  overview: string | null;
  /** The provider's poster path ("/abc.jpg"); the HTTP layer turns it into a URL of the service. */
  posterPath: string | null;
}

/** Posters in the candidates' list: small, and kept a while for a user searching again. */
const CANDIDATE_POSTER_SIZE = 'w185';
/**
 * Candidates' posters, fetched by the service (a browser on the LAN may not reach the provider's
 * image host) and kept for an hour: a "Fix match" dialog shows a page of them, and its user
 * searches again with another year or title. 4 MiB at most, least recently used out first.
 */
const posters = new BoundedMap<string, FetchedImage>({
  maxSize: 4 * 1024 * 1024,
  maxAgeMs: 60 * 60_000,
  weigh: (image) => image.bytes.length,
});

const what = (kind: TitleKind) => (kind === 'movie' ? 'Movie' : 'TV show');

/** The provider's failures in the contract's words: none of them is the service's fault. */
const asking = async <T>(call: () => Promise<T>): Promise<T> => {
  try {
    return await call();
  } catch (err) {
    if (err instanceof ProviderAuthError) throw providerNotConfigured('TMDB refused the API key that is set');
    if (err instanceof ProviderUnavailable) throw providerUnavailable(err.retryAfterSeconds ?? 30);
    throw err;
  }
};

export class MatchingService {
  constructor(private readonly deps: MatchingDeps) {}

  /** The provider's records that may be this title, in the provider's order (best first). */
  async candidates(kind: TitleKind, id: string, search: { query?: string | undefined; year?: number | undefined }): Promise<Candidate[]> {
    const item = await this.title(kind, id);
    const { provider } = await this.provider(false);
    const query = search.query?.trim() || item.title;
    const year = search.year ?? null;
    if (kind === 'movie') {
      const found = await asking(() => provider.searchMovies(query, year));
      return found.map((c) => ({
        tmdbId: c.tmdbId,
        title: c.title,
        originalTitle: c.originalTitle,
        year: c.year,
        overview: c.overview ?? null,
        posterPath: c.posterPath,
      }));
    }
    const found = await asking(() => provider.searchShows(query, year));
    return found.map((c) => ({
      tmdbId: c.tmdbId,
      title: c.name,
      originalTitle: c.originalName,
      year: c.year,
      overview: c.overview ?? null,
      posterPath: c.posterPath,
    }));
  }

  /** A candidate's small poster, through the service; null when the provider has none. */
  async poster(file: string): Promise<FetchedImage | null> {
    const kept = posters.use(file);
    if (kept) return kept;
    const { provider } = await this.provider(false);
    const image = await asking(() => provider.fetchImage(`/${file}`, CANDIDATE_POSTER_SIZE));
    // None (the provider has no such picture) is not kept.
    if (image) posters.set(file, image);
    return image;
  }

  /** Pins the title to a provider record and describes it from that record now (a show's episodes too). */
  async match(kind: TitleKind, id: string, tmdbId: number, by: string): Promise<void> {
    const item = await this.title(kind, id);
    await this.noScanOf(item);
    const choice = await this.provider(false);
    const record = await asking<unknown>(() =>
      kind === 'movie' ? choice.provider.movieDetails(tmdbId) : choice.provider.showDetails(tmdbId),
    );
    if (!record) throw unknownProviderId(kind, tmdbId);
    const now = (this.deps.clock ?? Date.now)();
    await this.deps.locks.put({ itemId: id, tmdbId, lockedAt: new Date(now).toISOString(), lockedBy: by });
    this.deps.log.info({ itemId: id, tmdbId, by }, 'match locked');
    await this.describe(item, choice, false);
  }

  /** Lets the title be matched automatically again, from its file's name, as a new file would be. */
  async unlock(kind: TitleKind, id: string): Promise<void> {
    const item = await this.title(kind, id);
    await this.noScanOf(item);
    if (!(await this.deps.locks.get(id))) return;
    // Asked first: without a provider the title would lose its description for nothing.
    const choice = await this.provider(false);
    await this.deps.locks.remove(id);
    this.deps.log.info({ itemId: id }, 'match unlocked');
    // The title, year and id the locked record gave it would find that record again.
    const named = await this.fromName(item);
    await this.deps.catalog.put([named]);
    await this.describe(named, choice, false);
  }

  /** Fetches the title's record (its pinned one when locked) and pictures again. */
  async refresh(kind: TitleKind, id: string): Promise<void> {
    const item = await this.title(kind, id);
    await this.noScanOf(item);
    await this.describe(item, await this.provider(true), true);
  }

  private async title(kind: TitleKind, id: string): Promise<MovieItem | ShowItem> {
    const item = await this.deps.catalog.get(id);
    if (!item || item.entity !== kind) throw notFound(`${what(kind)} ${id}`);
    return item;
  }

  private async provider(fresh: boolean): Promise<ProviderChoice & { provider: MetadataProvider }> {
    const choice = await this.deps.provider({ fresh });
    if (!choice.provider) throw providerNotConfigured(choice.why);
    return { ...choice, provider: choice.provider };
  }

  /** A scan describing the library meanwhile could write over what is done here: one at a time. */
  private async noScanOf(item: CatalogItem) {
    if (await this.deps.jobs.activeJobOf(item.libraryId)) {
      const library = await this.deps.libraries.get(item.libraryId);
      throw scanAlreadyRunning(library?.path ?? item.libraryId);
    }
  }

  /** The title as its file's name has it: what an automatic match starts from. */
  private async fromName(item: MovieItem | ShowItem): Promise<MovieItem | ShowItem> {
    if (item.entity === 'movie') {
      const name = item.files[0] ? parseMovie(item.files[0].relPath) : undefined;
      return name?.ok ? { ...item, title: name.title, year: name.year, tmdbId: name.tmdbId } : { ...item, tmdbId: null };
    }
    const [episode] = await this.deps.catalog.episodes(item.id);
    const library = await this.deps.libraries.get(item.libraryId);
    const name = episode?.files[0] ? parseEpisode(episode.files[0].relPath, library ? rootFolderName(library.path) : '') : undefined;
    return name?.ok ? { ...item, title: name.showTitle, year: name.showYear, tmdbId: name.tmdbId } : { ...item, tmdbId: null };
  }

  /** The title (and a show's episodes) described as the metadata and artwork phases would, written, and announced. */
  private async describe(item: MovieItem | ShowItem, choice: ProviderChoice, fresh: boolean): Promise<void> {
    const { deps } = this;
    const library = await deps.libraries.get(item.libraryId);
    if (!library) throw notFound(`${what(item.entity)} ${item.id}`);
    const episodes: EpisodeItem[] = item.entity === 'tvshow' ? await deps.catalog.episodes(item.id) : [];
    const tally: EnrichTally = { matched: 0, unmatched: 0, failed: 0, keyRefused: false };
    // Fetched again means its collection too (not only when its copy is old), pictures as the title's.
    const collections = {
      store: deps.collections,
      artworks: choice.artwork ? deps.artworks : undefined,
      refetch: fresh,
      clock: deps.clock,
    };
    const enrichDeps = {
      catalog: deps.catalog,
      locks: deps.locks,
      storage: deps.storage,
      provider: choice.provider,
      log: deps.log,
      collections,
    };
    const described = await asking(() => enrichBatch(enrichDeps, library.path, [item.id, ...episodes.map((e) => e.id)], tally));
    if (tally.keyRefused) throw providerNotConfigured('TMDB refused the API key that is set');

    const pictures = choice.provider && choice.artwork && deps.artworks;
    const c = pictures
      ? {
          storage: deps.storage,
          root: library.path,
          artworks: deps.artworks!,
          provider: choice.provider,
          meshGradients: choice.meshGradients,
          log: deps.log,
          tally: { stored: 0, failed: 0 },
        }
      : undefined;
    const written: CatalogItem[] = [];
    for (const one of described) {
      if (!c || one.enrich !== 'artwork') {
        written.push(one);
        continue;
      }
      // Fetched again means fetched again: the provider's pictures are asked for anew, and those
      // it cannot give now stay as they were.
      const kept = one.artwork ?? {};
      const start = fresh
        ? ({ ...one, artwork: Object.fromEntries(Object.entries(kept).filter(([, a]) => a.source !== 'provider')) } as CatalogItem)
        : one;
      const pictured = await collectArtwork(c, start);
      written.push({ ...pictured, artwork: { ...kept, ...pictured.artwork } });
    }
    await deps.catalog.put(written);
    await deps.events.emit({
      type: 'library:updated',
      libraryId: item.libraryId,
      changes: { added: 0, updated: written.length, moved: 0, removed: 0 },
      items: { added: [], updated: written.slice(0, 100).map((i) => i.id), moved: [], removed: [], truncated: written.length > 100 },
    });
    // The provider failed for the title after its retries: it waits for the next scan (or refresh) as it is.
    if (described.find((i) => i.id === item.id)?.enrich === 'local' && tally.failed) throw providerUnavailable();
  }
}
