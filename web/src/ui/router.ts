// The page's address is the screen: history API navigation, no reload. The box serves
// index.html at each of these paths (infra/gateway/web-assets.ts), so a reload or a shared link works.
import { useEffect, useState } from 'preact/hooks';
import { CLIENT_ROUTES } from '../routes';

export type Route =
  | { screen: 'home' }
  | { screen: 'search'; query: string }
  | { screen: 'movie'; id: string }
  | { screen: 'show'; id: string }
  /** Every film or show, sorted and filtered as `query` (the address's ?…) says: screens/browse.tsx. */
  | { screen: 'browse'; kind: 'movies' | 'shows'; query: string }
  | { screen: 'collections' }
  | { screen: 'collection'; id: string }
  | { screen: 'play'; id: string; at: number }
  | { screen: 'playEpisode'; showId: string; episodeId: string; at: number }
  | { screen: 'libraries' }
  | { screen: 'unmatched' }
  | { screen: 'settings' }
  | { screen: 'logs'; level: string | null }
  | { screen: 'missing' };

export const parseRoute = (url: URL): Route => {
  const path = url.pathname;
  if (CLIENT_ROUTES.home.test(path)) return { screen: 'home' };
  if (CLIENT_ROUTES.search.test(path)) return { screen: 'search', query: url.searchParams.get('q') ?? '' };
  if (CLIENT_ROUTES.movies.test(path)) return { screen: 'browse', kind: 'movies', query: url.search };
  if (CLIENT_ROUTES.shows.test(path)) return { screen: 'browse', kind: 'shows', query: url.search };
  if (CLIENT_ROUTES.collections.test(path)) return { screen: 'collections' };
  const collection = CLIENT_ROUTES.collection.exec(path);
  if (collection) return { screen: 'collection', id: collection[1]! };
  const movie = CLIENT_ROUTES.movie.exec(path);
  if (movie) return { screen: 'movie', id: movie[1]! };
  const show = CLIENT_ROUTES.show.exec(path);
  if (show) return { screen: 'show', id: show[1]! };
  const at = Math.max(0, Number(url.searchParams.get('t')) || 0);
  const play = CLIENT_ROUTES.play.exec(path);
  if (play) return { screen: 'play', id: play[1]!, at };
  const episode = CLIENT_ROUTES.playEpisode.exec(path);
  if (episode) return { screen: 'playEpisode', showId: episode[1]!, episodeId: episode[2]!, at };
  if (CLIENT_ROUTES.libraries.test(path)) return { screen: 'libraries' };
  if (CLIENT_ROUTES.unmatched.test(path)) return { screen: 'unmatched' };
  if (CLIENT_ROUTES.settings.test(path)) return { screen: 'settings' };
  if (CLIENT_ROUTES.logs.test(path)) return { screen: 'logs', level: url.searchParams.get('level') };
  return { screen: 'missing' };
};

const listeners = new Set<() => void>();

export const navigate = (to: string, { replace = false } = {}) => {
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  listeners.forEach((l) => l());
};

export const useRoute = (): Route => {
  const [route, setRoute] = useState(() => parseRoute(new URL(location.href)));
  useEffect(() => {
    const update = () => setRoute(parseRoute(new URL(location.href)));
    listeners.add(update);
    addEventListener('popstate', update);
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', update);
    };
  }, []);
  return route;
};

/** A plain link that navigates in the page (a modified click opens a tab, as links do). */
export const onLinkClick = (event: MouseEvent) => {
  const link = (event.target as Element | null)?.closest('a');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const url = new URL(link.href);
  if (url.origin !== location.origin || link.target) return;
  event.preventDefault();
  navigate(url.pathname + url.search);
};
