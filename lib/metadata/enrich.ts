// The scan's metadata phase for a batch of items: what the files beside a video say (a Kodi
// NFO, which wins field by field), what the provider knows (matched by id, else by title and
// year above a confidence threshold), and which artwork the artwork phase should fetch. A
// provider that fails for an item leaves that item waiting for the next scan, counted as
// failed; a refused key stops all provider calls for the rest of the scan.
import type { ArtworkWanted, CatalogItem, EnrichState, EpisodeItem, ItemMetadata, MovieItem, ShowItem } from '../catalog/model';
import type { DynamoCatalogStore } from '../catalog/store';
import { eachLimited } from '../each-limited';
import type { Log } from '../log';
import { titleColors } from '../media/mesh-gradient';
import type { MediaStorage } from '../storage';
import { chooseMatch, type Candidate } from './match';
import type { LocalFiles } from './local-files';
import { MAX_NFO_BYTES, parseNfo, pickEpisode, type NfoEpisodeFields, type NfoTitleFields } from './nfo';
import {
  ProviderAuthError,
  type MetadataProvider,
  type MovieCandidate,
  type MovieDetails,
  type SeasonDetails,
  type ShowCandidate,
  type ShowDetails,
} from './provider';

export interface EnrichDeps {
  catalog: DynamoCatalogStore;
  storage: MediaStorage;
  /** Null when no provider may be asked (fetching off, no key). */
  provider: MetadataProvider | null;
  log: Log;
}

export interface EnrichTally {
  matched: number;
  unmatched: number;
  failed: number;
  /** The provider refused the key: nothing more is asked of it in this scan. */
  keyRefused: boolean;
}

/** Items in flight: enough to keep the provider's 40 requests/s busy at a home connection's latency. */
const CONCURRENCY = 12;

const asCandidate = (c: MovieCandidate | ShowCandidate): Candidate =>
  'title' in c
    ? { id: c.tmdbId, title: c.title, originalTitle: c.originalTitle, year: c.year, popularity: c.popularity }
    : { id: c.tmdbId, title: c.name, originalTitle: c.originalName, year: c.year, popularity: c.popularity };

const EMPTY_METADATA: Omit<ItemMetadata, 'source' | 'matched' | 'confidence'> = {
  tagline: null, runtimeMinutes: null, releaseDate: null, certification: null, cast: [], directors: [], creators: [], imdbId: null, tvdbId: null,
};

/**
 * The items, enriched (not written: the caller writes them, so it can overlap the next batch's
 * provider calls with this one's writes). `shows` holds shows enriched in earlier batches of
 * the same scan, which their episodes need and the table may not have yet.
 */
export const enrichMetadata = async (
  deps: EnrichDeps,
  root: string,
  ids: string[],
  tally: EnrichTally,
  known: {
    shows?: ReadonlyMap<string, CatalogItem>;
    /** Items whose local files changed since they were written: their new ones. */
    relocated?: ReadonlyMap<string, { local: LocalFiles; localStamp: string }>;
  } = {},
): Promise<CatalogItem[]> => {
  const shows = known.shows ?? new Map<string, CatalogItem>();
  const items = (await deps.catalog.getMany(ids)).map((item) => {
    const moved = known.relocated?.get(item.id);
    if (!moved) return item;
    // Pictures from local files are read again (one may have been edited in place).
    const artwork = Object.fromEntries(Object.entries(item.artwork ?? {}).filter(([, a]) => a.source !== 'local'));
    return { ...item, local: moved.local, localStamp: moved.localStamp, artwork } as CatalogItem;
  });
  const byId = new Map(items.map((i) => [i.id, i]));
  const updated = new Map<string, CatalogItem>();
  const seasons = new Map<string, Promise<SeasonDetails | null>>();
  const provider = () => (tally.keyRefused ? null : deps.provider);

  /** Runs a provider call; undefined when there is no provider or it refused the key (noted once). */
  const ask = async <T>(call: (p: MetadataProvider) => Promise<T>): Promise<T | undefined> => {
    const p = provider();
    if (!p) return undefined;
    try {
      return await call(p);
    } catch (err) {
      if (err instanceof ProviderAuthError) {
        if (!tally.keyRefused) deps.log.warn({ status: err.status }, 'the metadata provider refused the API key; the scan goes on without it');
        tally.keyRefused = true;
        return undefined;
      }
      throw err;
    }
  };

  const readNfo = async (relPath: string | undefined) => {
    if (!relPath) return undefined;
    const bytes = await deps.storage.readSmall(root, relPath, MAX_NFO_BYTES);
    if (!bytes) return undefined;
    const nfo = parseNfo(bytes);
    if (!nfo.ok) {
      tally.failed++;
      deps.log.warn({ file: relPath, reason: nfo.reason }, 'NFO file not readable; ignored');
      return undefined;
    }
    return nfo;
  };

  const nextState = (wanted: ArtworkWanted, asked: boolean): EnrichState => (Object.keys(wanted).length ? 'artwork' : asked ? 'done' : 'local');

  const titled = async (item: MovieItem | ShowItem) => {
    const nfo = await readNfo(item.local?.nfo);
    const fields: NfoTitleFields | undefined = nfo && (nfo.kind === 'movie' || nfo.kind === 'tvshow') ? nfo.fields : undefined;
    const ids = nfo?.kind === 'link' ? nfo.fields.ids : fields?.ids ?? {};
    const asked = provider() !== null;
    let details: MovieDetails | ShowDetails | null = null;
    let confidence: number | null = null;
    const movie = item.entity === 'movie';
    const fetchDetails = (id: number) =>
      ask<MovieDetails | ShowDetails | null>((p) => (movie ? p.movieDetails(id) : p.showDetails(id)));
    let tmdbId = ids.tmdb ?? item.tmdbId ?? undefined;
    if (tmdbId === undefined && ids.imdb) {
      const found = await ask((p) => p.findByImdbId(ids.imdb!));
      tmdbId = (movie ? found?.movies[0] : found?.shows[0])?.tmdbId;
    }
    if (tmdbId !== undefined) {
      details = (await fetchDetails(tmdbId)) ?? null;
      confidence = details ? 1 : null;
    } else {
      const title = fields?.title ?? item.title;
      const year = fields?.year ?? item.year;
      const search = (y: number | null) =>
        ask<Array<MovieCandidate | ShowCandidate>>((p) => (movie ? p.searchMovies(title, y) : p.searchShows(title, y)));
      // With the year first (TMDB filters by it exactly), then without, so a year one off still matches.
      let result = chooseMatch({ title, year }, ((await search(year)) ?? []).map(asCandidate));
      if (!result.match && year !== null) result = chooseMatch({ title, year }, ((await search(null)) ?? []).map(asCandidate));
      confidence = result.confidence;
      if (result.match) details = (await fetchDetails(result.match.id)) ?? null;
    }
    const m = details && 'title' in details ? details : null;
    const s = details && 'name' in details ? details : null;
    const title = fields?.title ?? m?.title ?? s?.name ?? item.title;
    const metadata: ItemMetadata = {
      ...EMPTY_METADATA,
      source: details ? 'provider' : fields ? 'nfo' : 'file',
      matched: details !== null,
      confidence,
      tagline: fields?.tagline ?? m?.tagline ?? null,
      runtimeMinutes: fields?.runtimeMinutes ?? m?.runtimeMinutes ?? null,
      releaseDate: m?.releaseDate ?? s?.firstAirDate ?? null,
      certification: details?.certification ?? null,
      cast: details?.cast ?? [],
      directors: m?.directors ?? [],
      creators: s?.creators ?? [],
      imdbId: ids.imdb ?? details?.imdbId ?? null,
      tvdbId: ids.tvdb ?? s?.tvdbId ?? null,
    };
    const wanted: ArtworkWanted = {};
    const poster = item.local?.poster ? { source: 'local' as const, from: item.local.poster } : details?.posterPath ? { source: 'provider' as const, from: details.posterPath } : undefined;
    const backdrop = item.local?.backdrop ? { source: 'local' as const, from: item.local.backdrop } : details?.backdropPath ? { source: 'provider' as const, from: details.backdropPath } : undefined;
    if (poster) wanted.poster = poster;
    if (backdrop) wanted.backdrop = backdrop;
    const next = {
      ...item,
      title,
      originalTitle: fields?.originalTitle ?? m?.originalTitle ?? s?.originalName ?? item.originalTitle,
      year: fields?.year ?? details?.year ?? item.year,
      overview: fields?.overview ?? details?.overview ?? item.overview,
      genres: fields?.genres.length ? fields.genres : details?.genres ?? item.genres,
      rating: fields?.rating ?? details?.rating ?? item.rating,
      tmdbId: details?.tmdbId ?? ids.tmdb ?? item.tmdbId,
      // Title colours follow the title until a poster gives its own, and again once it has none.
      meshGradientColors: poster && item.colorsFrom ? item.meshGradientColors : titleColors(title),
      colorsFrom: poster ? item.colorsFrom : undefined,
      metadata,
      artworkWanted: wanted,
      providerAsked: asked && !tally.keyRefused,
      enrich: nextState(wanted, asked && !tally.keyRefused),
    };
    if (details) tally.matched++;
    else if (asked && !tally.keyRefused) tally.unmatched++;
    return next;
  };

  const episode = async (item: EpisodeItem) => {
    const show = (updated.get(item.showId) ?? shows.get(item.showId) ?? byId.get(item.showId) ?? (await deps.catalog.get(item.showId))) as ShowItem | undefined;
    const nfo = await readNfo(item.local?.nfo);
    const fields: NfoEpisodeFields | undefined = nfo?.kind === 'episode' ? pickEpisode(nfo.fields, item.seasonNumber, item.episodeNumber) : undefined;
    // The provider was there to ask: an episode of a show it did not match is done all the same.
    const asked = provider() !== null;
    let season: SeasonDetails | null | undefined;
    if (asked && show?.tmdbId != null) {
      const key = `${show!.tmdbId}#${item.seasonNumber}`;
      if (!seasons.has(key)) seasons.set(key, ask((p) => p.seasonDetails(show!.tmdbId!, item.seasonNumber)).then((s) => s ?? null));
      season = await seasons.get(key)!;
    }
    const found = season?.episodes.find((e) => e.episodeNumber === item.episodeNumber);
    const wanted: ArtworkWanted = {};
    if (item.local?.still) wanted.still = { source: 'local', from: item.local.still };
    else if (found?.stillPath) wanted.still = { source: 'provider', from: found.stillPath };
    return {
      ...item,
      title: fields?.title ?? found?.name ?? item.title,
      overview: fields?.overview ?? found?.overview ?? item.overview,
      airDate: fields?.airDate ?? found?.airDate ?? item.airDate,
      artworkWanted: wanted,
      providerAsked: asked && !tally.keyRefused,
      enrich: nextState(wanted, asked && !tally.keyRefused),
    };
  };

  const enrichOne = async (item: CatalogItem) => {
    try {
      updated.set(item.id, item.entity === 'episode' ? await episode(item) : await titled(item));
    } catch (err) {
      // The provider failed for this item after its retries (or answered nonsense): it keeps what
      // it has and waits for the next scan that can ask.
      tally.failed++;
      deps.log.warn({ err, itemId: item.id }, 'metadata for an item failed; it will be asked again on the next scan');
      updated.set(item.id, { ...item, enrich: 'local' });
    }
  };
  // Shows before their episodes: an episode needs its show's provider id.
  await eachLimited(items.filter((i) => i.entity !== 'episode'), CONCURRENCY, enrichOne);
  await eachLimited(items.filter((i) => i.entity === 'episode'), CONCURRENCY, enrichOne);
  return [...updated.values()];
};
