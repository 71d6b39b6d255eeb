// A movie or a show described: its NFO (which wins field by field), then the provider, by id
// (from the NFO or the file name, or an IMDb id through /find), else by title and year above a
// confidence threshold; and which artwork the artwork phase should fetch. A title whose match
// someone chose (lib/catalog/match-lock.ts) is described from that record alone: no search, no
// NFO, no id in its name, no local pictures.
import type { ArtworkWanted } from '../../artwork/model';
import type { MatchLock } from '../../catalog/match-lock';
import type { ItemMetadata, MovieItem, ShowItem } from '../../catalog/model';
import { titleColors } from '../../media/mesh-gradient';
import { chooseMatch, type Candidate } from '../../metadata/match';
import type { ProviderIds } from '../../metadata/ids';
import type { NfoTitleFields } from '../../metadata/nfo';
import type { MovieCandidate, MovieDetails, ShowCandidate, ShowDetails } from '../../metadata/provider';
import { nextState, type EnrichSession } from './session';

const asCandidate = (c: MovieCandidate | ShowCandidate): Candidate =>
  'title' in c
    ? { id: c.tmdbId, title: c.title, originalTitle: c.originalTitle, year: c.year, popularity: c.popularity }
    : { id: c.tmdbId, title: c.name, originalTitle: c.originalName, year: c.year, popularity: c.popularity };

/**
 * A search hit as details: what browsing shows (titles, year, overview, genres, rating,
 * pictures) without what only the details say; undefined when the hit lacks its genres (an
 * answer cached before they were kept) or their names cannot be had.
 */
const briefFrom = async (session: EnrichSession, hit: MovieCandidate | ShowCandidate): Promise<MovieDetails | ShowDetails | undefined> => {
  if (hit.genreIds === undefined || hit.rating === undefined) return undefined;
  const movie = 'title' in hit;
  const names = await session.ask((p) => p.genreNames(movie ? 'movie' : 'tv')).catch(() => undefined);
  if (!names) return undefined;
  const common = {
    tmdbId: hit.tmdbId,
    imdbId: null,
    year: hit.year,
    overview: hit.overview ?? null,
    rating: hit.rating,
    genres: hit.genreIds.flatMap((id) => names.get(id) ?? []),
    certification: null,
    cast: [],
    alternativeTitles: [],
    posterPath: hit.posterPath,
    backdropPath: hit.backdropPath,
  };
  return movie
    ? {
        ...common,
        title: hit.title,
        originalTitle: hit.originalTitle,
        releaseDate: hit.releaseDate,
        tagline: null,
        runtimeMinutes: null,
        directors: [],
        collection: null,
      }
    : {
        ...common,
        name: hit.name,
        originalName: hit.originalName,
        firstAirDate: hit.firstAirDate,
        tvdbId: null,
        creators: [],
        seasons: [],
      };
};

/**
 * The provider's details for the item, and how sure the match is (1 by id). A match found by
 * searching is described from its search hit (`brief`): one request per title, so posters come
 * soon; the details phase asks for the rest later (lib/scan/phases/details.ts), by the id kept.
 */
const lookUp = async (
  session: EnrichSession,
  item: MovieItem | ShowItem,
  fields: NfoTitleFields | undefined,
  ids: ProviderIds,
  lock: MatchLock | undefined,
) => {
  const movie = item.entity === 'movie';
  const fetchDetails = (id: number) =>
    session.ask<MovieDetails | ShowDetails | null>((p) => (movie ? p.movieDetails(id) : p.showDetails(id)));
  let tmdbId = lock?.tmdbId ?? ids.tmdb ?? item.tmdbId ?? undefined;
  if (tmdbId === undefined && ids.imdb) {
    const found = await session.ask((p) => p.findByImdbId(ids.imdb!));
    tmdbId = (movie ? found?.movies[0] : found?.shows[0])?.tmdbId;
  }
  if (tmdbId !== undefined) {
    const details = (await fetchDetails(tmdbId)) ?? null;
    // The details of a brief match keep the confidence its search had; a match someone chose is sure.
    const confidence = !lock && item.metadata?.brief && tmdbId === item.tmdbId ? item.metadata.confidence : 1;
    return { details, confidence: details ? confidence : null, brief: false };
  }
  const title = fields?.title ?? item.title;
  const year = fields?.year ?? item.year;
  const search = async (y: number | null) =>
    (await session.ask<Array<MovieCandidate | ShowCandidate>>((p) => (movie ? p.searchMovies(title, y) : p.searchShows(title, y)))) ?? [];
  // With the year first (TMDB filters by it exactly), then without, so a year one off still matches.
  let hits = await search(year);
  let result = chooseMatch({ title, year }, hits.map(asCandidate));
  if (!result.match && year !== null) {
    hits = await search(null);
    result = chooseMatch({ title, year }, hits.map(asCandidate));
  }
  const hit = result.match && hits.find((h) => h.tmdbId === result.match.id);
  if (!hit) return { details: null, confidence: result.confidence, brief: false };
  const brief = await briefFrom(session, hit);
  if (brief) return { details: brief, confidence: result.confidence, brief: true };
  return { details: (await fetchDetails(hit.tmdbId)) ?? null, confidence: result.confidence, brief: false };
};

export const describeTitle = async <T extends MovieItem | ShowItem>(session: EnrichSession, item: T, lock?: MatchLock): Promise<T> => {
  const nfo = lock ? undefined : await session.readNfo(item.local?.nfo);
  const fields: NfoTitleFields | undefined = nfo && (nfo.kind === 'movie' || nfo.kind === 'tvshow') ? nfo.fields : undefined;
  const ids = nfo?.kind === 'link' ? nfo.fields.ids : (fields?.ids ?? {});
  const asked = session.canAsk();
  const { details, confidence, brief } = await lookUp(session, item, fields, ids, lock);
  const local = lock ? undefined : item.local;
  const m = details && 'title' in details ? details : null;
  const s = details && 'name' in details ? details : null;
  const title = fields?.title ?? m?.title ?? s?.name ?? item.title;
  const metadata: ItemMetadata = {
    source: details ? 'provider' : fields ? 'nfo' : 'file',
    matched: details !== null,
    confidence,
    tagline: fields?.tagline ?? m?.tagline ?? null,
    runtimeMinutes: fields?.runtimeMinutes ?? m?.runtimeMinutes ?? null,
    releaseDate: m?.releaseDate ?? s?.firstAirDate ?? null,
    certification: details?.certification ?? null,
    cast: fields?.cast.length ? fields.cast : (details?.cast ?? []),
    directors: fields?.directors.length ? fields.directors : (m?.directors ?? []),
    creators: s?.creators ?? [],
    alternativeTitles: details?.alternativeTitles ?? [],
    imdbId: ids.imdb ?? details?.imdbId ?? null,
    tvdbId: ids.tvdb ?? s?.tvdbId ?? null,
    ...(brief ? { brief: true } : {}),
    ...(lock ? { matchLocked: true } : {}),
    // An NFO's set counts only with the provider's collection id (nfo-fields.ts readSet).
    ...(item.entity === 'movie' ? { collection: fields?.collection ?? m?.collection ?? null } : {}),
  };
  const wanted: ArtworkWanted = {};
  const poster = local?.poster
    ? { source: 'local' as const, from: local.poster }
    : details?.posterPath
      ? { source: 'provider' as const, from: details.posterPath }
      : undefined;
  const backdrop = local?.backdrop
    ? { source: 'local' as const, from: local.backdrop }
    : details?.backdropPath
      ? { source: 'provider' as const, from: details.backdropPath }
      : undefined;
  if (poster) wanted.poster = poster;
  if (backdrop) wanted.backdrop = backdrop;
  const answered = asked && !session.tally.keyRefused;
  if (details) session.tally.matched++;
  else if (answered) session.tally.unmatched++;
  return {
    ...item,
    title,
    originalTitle: fields?.originalTitle ?? m?.originalTitle ?? s?.originalName ?? item.originalTitle,
    year: fields?.year ?? details?.year ?? item.year,
    overview: fields?.overview ?? details?.overview ?? item.overview,
    genres: fields?.genres.length ? fields.genres : (details?.genres ?? item.genres),
    rating: fields?.rating ?? details?.rating ?? item.rating,
    tmdbId: details?.tmdbId ?? lock?.tmdbId ?? ids.tmdb ?? item.tmdbId,
    // Title colours follow the title until a poster gives its own, and again once it has none.
    meshGradientColors: poster && item.colorsFrom ? item.meshGradientColors : titleColors(title),
    colorsFrom: poster ? item.colorsFrom : undefined,
    metadata,
    artworkWanted: wanted,
    providerAsked: answered,
    enrich: nextState(wanted, answered, brief),
  };
};
