// Home: the films and shows added last, newest first, a page at a time; a scan that finishes
// or a library that changes brings the new ones in without a reload.
import { useState } from 'preact/hooks';
import { api, unwrap, type MediaEntry } from '../api/client';
import { useEvents } from '../ui/events';
import { Show, useLoad } from '../ui/load';
import { PosterWall } from '../ui/posters';

const PAGE = 30;

type Kind = '/api/v1/movies' | '/api/v1/tvshows';

const Recent = ({ path, title, version }: { path: Kind; title: string; version: number }) => {
  const [more, setMore] = useState<{ entries: MediaEntry[]; cursor: string | null } | null>(null);
  const [loaded, retry] = useLoad(async () => {
    setMore(null);
    return unwrap(api.GET(path, { params: { query: { limit: PAGE } } }));
  }, [path, version]);
  const loadMore = async (cursor: string) => {
    const page = await unwrap(api.GET(path, { params: { query: { limit: PAGE, cursor } } }));
    setMore((m) => ({ entries: [...(m?.entries ?? []), ...page.data], cursor: page.meta.nextCursor }));
  };
  return (
    <section class="shelf">
      <h2>{title}</h2>
      <Show loaded={loaded} retry={retry} label={`Loading ${title.toLowerCase()}`}>
        {(first) => {
          const entries = [...first.data, ...(more?.entries ?? [])];
          const cursor = more ? more.cursor : first.meta.nextCursor;
          if (!entries.length) return <p class="empty">Nothing here yet: add a library and scan it.</p>;
          return (
            <>
              <PosterWall entries={entries} label={title} />
              {cursor && (
                <button type="button" class="more" onClick={() => void loadMore(cursor)}>
                  More ({first.meta.total - entries.length} left)
                </button>
              )}
            </>
          );
        }}
      </Show>
    </section>
  );
};

export const Home = () => {
  const [version, setVersion] = useState(0);
  useEvents((event) => {
    if (event.type === 'scan:complete' || event.type === 'library:updated' || event.type === 'library:deleted') setVersion((v) => v + 1);
  });
  return (
    <main>
      <Recent path="/api/v1/movies" title="Recently added films" version={version} />
      <Recent path="/api/v1/tvshows" title="Recently added shows" version={version} />
    </main>
  );
};
