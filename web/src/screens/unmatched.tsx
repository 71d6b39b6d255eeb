// Unmatched: the films and shows the provider could not describe (they keep their files'
// names), each a link to its page, where "Fix match" chooses its record. A match fixed, a scan
// or a library changed elsewhere reads the lists again.
import { useState } from 'preact/hooks';
import { api, unwrap } from '../api/client';
import { useEvents, type ServiceEvent } from '../ui/events';
import { useLoad } from '../ui/load';
import { Shelf } from '../ui/shelf';

const changesLists = (event: ServiceEvent) =>
  event.type === 'scan:complete' || event.type === 'library:updated' || event.type === 'library:deleted';

export const Unmatched = () => {
  const [version, setVersion] = useState(0);
  useEvents((event) => changesLists(event) && setVersion((v) => v + 1));
  return (
    <main>
      <h1 class="screen-title">Unmatched titles</h1>
      <p class="screen-hint">
        TMDB could not say which film or show these are, so they keep their files’ names. Open one and use “Fix match” to choose.
      </p>
      <Shelf path="/api/v1/movies" title="Unmatched films" matched={false} version={version} empty="Every film is matched." />
      <Shelf path="/api/v1/tvshows" title="Unmatched shows" matched={false} version={version} empty="Every show is matched." />
    </main>
  );
};

/** "Unmatched titles (N)" for the libraries screen: the two lists' totals, read again when `version` changes. Nothing while loading or when it fails: the libraries are what that screen is for. */
export const UnmatchedLink = ({ version }: { version: number }) => {
  const [loaded] = useLoad(async () => {
    const query = { limit: 1, matched: false };
    const [movies, shows] = await Promise.all([
      unwrap(api.GET('/api/v1/movies', { params: { query } })),
      unwrap(api.GET('/api/v1/tvshows', { params: { query } })),
    ]);
    return movies.meta.total + shows.meta.total;
  }, [version]);
  if (loaded.state !== 'done') return null;
  return (
    <p class="unmatched-link">
      <a href="/unmatched">Unmatched titles ({loaded.value})</a>
    </p>
  );
};
