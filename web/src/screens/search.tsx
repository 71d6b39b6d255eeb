// Search as one types: the query waits for a pause in typing (250 ms), the newest answer wins.
import { profileApi, unwrap } from '../api/client';
import { Show, useLoad } from '../ui/load';
import { PosterWall } from '../ui/posters';

export const Search = ({ query }: { query: string }) => {
  const trimmed = query.trim();
  const [loaded, retry] = useLoad(async () => {
    if (!trimmed) return null;
    return unwrap(profileApi.GET('/api/v1/search', { params: { query: { query: trimmed, limit: 40 } } }));
  }, [trimmed]);
  return (
    <main>
      <h1 class="screen-title">{trimmed ? `Search: ${trimmed}` : 'Search'}</h1>
      <Show loaded={loaded} retry={retry} label="Searching">
        {(result) =>
          !result ? (
            <p class="empty">Type a title, an original title or a name.</p>
          ) : result.data.length ? (
            <PosterWall entries={result.data} label="Search results" />
          ) : (
            <p class="empty">Nothing found for “{trimmed}”.</p>
          )
        }
      </Show>
    </main>
  );
};
