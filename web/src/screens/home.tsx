// Home: where the current profile left off (Continue watching, Next up: ui/watch-rows.tsx), then
// the films and shows added last, newest first, a page at a time, each with a link to all of
// them (screens/browse.tsx); a scan that finishes or a library that changes brings the new ones
// in without a reload.
import { useState } from 'preact/hooks';
import { useEvents } from '../ui/events';
import { Shelf } from '../ui/shelf';
import { WatchRows } from '../ui/watch-rows';

const EMPTY = 'Nothing here yet: add a library and scan it.';

export const Home = () => {
  const [version, setVersion] = useState(0);
  useEvents((event) => {
    if (event.type === 'scan:complete' || event.type === 'library:updated' || event.type === 'library:deleted') setVersion((v) => v + 1);
  });
  return (
    <main>
      <WatchRows version={version} />
      <Shelf
        path="/api/v1/movies"
        title="Recently added films"
        version={version}
        empty={EMPTY}
        all={{ href: '/movies', label: 'All films' }}
      />
      <Shelf
        path="/api/v1/tvshows"
        title="Recently added shows"
        version={version}
        empty={EMPTY}
        all={{ href: '/shows', label: 'All shows' }}
      />
    </main>
  );
};
