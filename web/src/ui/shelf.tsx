// A shelf: a titled wall of films or shows from one of the list endpoints, a page at a time
// (`meta.nextCursor`), with a button for the next page. Home shows the newest; the unmatched
// screen those the provider could not describe (`matched: false`). A link beside the title
// may lead to the whole list (home's to the Films and Shows screens).
import { useState } from 'preact/hooks';
import { profileApi, unwrap, type MediaEntry } from '../api/client';
import { Show, useLoad } from './load';
import { PosterWall } from './posters';

const PAGE = 30;

export type ShelfPath = '/api/v1/movies' | '/api/v1/tvshows';

export const Shelf = ({
  path,
  title,
  version,
  matched,
  empty,
  all,
}: {
  path: ShelfPath;
  title: string;
  version: number;
  matched?: boolean;
  empty: string;
  all?: { href: string; label: string };
}) => {
  const [more, setMore] = useState<{ entries: MediaEntry[]; cursor: string | null } | null>(null);
  const [loaded, retry] = useLoad(async () => {
    setMore(null);
    return unwrap(profileApi.GET(path, { params: { query: { limit: PAGE, matched } } }));
  }, [path, version, matched]);
  const loadMore = async (cursor: string) => {
    const page = await unwrap(profileApi.GET(path, { params: { query: { limit: PAGE, cursor, matched } } }));
    setMore((m) => ({ entries: [...(m?.entries ?? []), ...page.data], cursor: page.meta.nextCursor }));
  };
  return (
    <section class="shelf">
      <div class="shelf-head">
        <h2>{title}</h2>
        {all && (
          <a class="see-all" href={all.href}>
            {all.label}
            <span aria-hidden="true"> →</span>
          </a>
        )}
      </div>
      <Show loaded={loaded} retry={retry} label={`Loading ${title.toLowerCase()}`}>
        {(first) => {
          const entries = [...first.data, ...(more?.entries ?? [])];
          const cursor = more ? more.cursor : first.meta.nextCursor;
          if (!entries.length) return <p class="empty">{empty}</p>;
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
