// Provider links in an NFO. Kodi accepts an NFO that is only a link to the title's page (a
// "parsing NFO"), or XML followed by such a link, to pin the scraper to one title. Release
// NFOs shipped with downloads often carry an IMDb link too, which names the same film.
import { asImdbId, asNumericId, compactIds, type ProviderIds } from './ids';

/** A TMDB id means nothing without its type: movie 603 and TV show 603 are different titles. */
export type TmdbType = 'movie' | 'tv';

export interface LinkIds {
  ids: ProviderIds;
  /** Which TMDB collection `ids.tmdb` belongs to; null when there is no TMDB link. */
  tmdbType: TmdbType | null;
}

// Each pattern is anchored on a fixed host and path and has no nested or lazy repetition, so it
// runs in linear time over the (size-capped) file.
// "https://www.themoviedb.org/movie/603-the-matrix", "themoviedb.org/tv/1399?language=de"
const TMDB_LINK = /themoviedb\.org\/(movie|tv)\/(\d{1,12})(?!\d)/i;
// "https://www.imdb.com/title/tt0133093/", "imdb.com/de/title/tt0133093", "m.imdb.com/title/..."
const IMDB_LINK = /imdb\.com\/(?:[a-z]{2}(?:-[a-z]{2})?\/)?title\/(tt\d{7,10})(?!\d)/i;
// "thetvdb.com/?tab=series&id=121361", "thetvdb.com/dereferrer/series/121361"
const TVDB_LINK = /thetvdb\.com\/(?:\?tab=series&(?:amp;)?id=|dereferrer\/series\/)(\d{1,12})(?!\d)/i;

/** The first link of each provider in `text`. */
export function idsFromLinks(text: string): LinkIds {
  const tmdb = TMDB_LINK.exec(text);
  const ids = compactIds({
    tmdb: asNumericId(tmdb?.[2]),
    imdb: asImdbId(IMDB_LINK.exec(text)?.[1]),
    tvdb: asNumericId(TVDB_LINK.exec(text)?.[1]),
  });
  const tmdbType = ids.tmdb === undefined ? null : tmdb?.[1]?.toLowerCase() === 'tv' ? 'tv' : 'movie';
  return { ids, tmdbType };
}
