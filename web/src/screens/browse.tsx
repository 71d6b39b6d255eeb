// Films and Shows: every title of one kind, sorted and filtered as the address says (ui/browse-state.ts),
// with the genres, years and letters the service counts for the titles the other filters keep.
// The next page comes as the end of the wall nears (a "More" button does it too, for a keyboard
// or a TV remote). Each change replaces the address, so a view can be bookmarked, reloaded or
// shared, and the back button leaves the screen rather than undoing filters one by one.
import { useEffect, useRef, useState } from 'preact/hooks';
import { asApiError, profileApi, unwrap, type ApiError, type MediaEntry } from '../api/client';
import { BrowseControls, GenreChips } from '../ui/browse-filters';
import { defaultOrder, filtersOf, isFiltered, parseBrowse, queryOf, unfiltered, type BrowseState } from '../ui/browse-state';
import { useEvents } from '../ui/events';
import { LetterBar } from '../ui/letter-bar';
import { ProblemView, Show, useLoad } from '../ui/load';
import { counted } from '../ui/plural';
import { PosterWall } from '../ui/posters';
import { navigate } from '../ui/router';

const PAGE = 30;

/** What differs between the two screens: their addresses and their words. */
const KINDS = {
  movies: { address: '/movies', list: '/api/v1/movies', facets: '/api/v1/movies/facets', title: 'Films', noun: ['film', 'films'] },
  shows: { address: '/shows', list: '/api/v1/tvshows', facets: '/api/v1/tvshows/facets', title: 'Shows', noun: ['show', 'shows'] },
} as const;

export type BrowseKind = keyof typeof KINDS;
type Kind = (typeof KINDS)[BrowseKind];

const listQuery = (state: BrowseState, cursor?: string) => ({
  ...filtersOf(state),
  sort: state.sort,
  order: state.order ?? defaultOrder(state.sort),
  limit: PAGE,
  cursor,
});

/**
 * The first page and the counts. Each filter's own counts leave that filter out (a letter chosen
 * still shows which other letters have titles); genres keep theirs, as chosen genres narrow together.
 */
const loadView = async (kind: Kind, state: BrowseState) => {
  const filters = filtersOf(state);
  const facets = (query: typeof filters) => unwrap(profileApi.GET(kind.facets, { params: { query } })).then((f) => f.data);
  const [first, all, anyLetter, anyYear] = await Promise.all([
    unwrap(profileApi.GET(kind.list, { params: { query: listQuery(state) } })),
    facets(filters),
    state.letter ? facets({ ...filters, letter: undefined }) : null,
    state.yearFrom !== null || state.yearTo !== null ? facets({ ...filters, yearFrom: undefined, yearTo: undefined }) : null,
  ]);
  return { first, genres: all.genres, letters: (anyLetter ?? all).letters, years: (anyYear ?? all).years };
};

type First = Awaited<ReturnType<typeof loadView>>['first'];

/** The wall, a page more each time the sentinel after it comes near the screen or More is pressed. */
const Results = ({ kind, state, first }: { kind: Kind; state: BrowseState; first: First }) => {
  const [pages, setPages] = useState<{ entries: MediaEntry[]; cursor: string | null }>({
    entries: first.data,
    cursor: first.meta.nextCursor,
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const asking = useRef(false);
  const sentinel = useRef<HTMLDivElement>(null);
  const loadMore = async () => {
    const { cursor } = pages;
    if (!cursor || asking.current) return;
    asking.current = true;
    setBusy(true);
    setError(null);
    try {
      const page = await unwrap(profileApi.GET(kind.list, { params: { query: listQuery(state, cursor) } }));
      setPages((p) => ({ entries: [...p.entries, ...page.data], cursor: page.meta.nextCursor }));
    } catch (e) {
      setError(asApiError(e, 'The next page did not load'));
    } finally {
      asking.current = false;
      setBusy(false);
    }
  };
  // A new observer for each page: it reports at once whether the sentinel is still in reach
  // (a tall screen the first pages do not fill). None after a failure: More tries again.
  useEffect(() => {
    const target = sentinel.current;
    if (!target || !pages.cursor || error || typeof IntersectionObserver === 'undefined') return undefined;
    const observer = new IntersectionObserver((seen) => seen.some((s) => s.isIntersecting) && void loadMore(), {
      rootMargin: '0px 0px 400px 0px',
    });
    observer.observe(target);
    return () => observer.disconnect();
  }, [pages.cursor, error]);
  const { entries, cursor } = pages;
  if (!entries.length)
    return (
      <p class="empty">
        {isFiltered(state) ? `No ${kind.noun[1]} match these filters.` : `No ${kind.noun[1]} yet: add a library and scan it.`}
      </p>
    );
  return (
    <>
      <PosterWall entries={entries} label={kind.title} />
      {cursor && <div ref={sentinel} class="sentinel" aria-hidden="true" />}
      {error && <ProblemView error={error} retry={() => void loadMore()} />}
      {cursor && !error && (
        <button type="button" class="more" disabled={busy} onClick={() => void loadMore()}>
          {busy ? 'Loading…' : `More (${Math.max(0, first.meta.total - entries.length)} left)`}
        </button>
      )}
    </>
  );
};

export const Browse = ({ kind: which, query }: { kind: BrowseKind; query: string }) => {
  const kind = KINDS[which];
  const state = parseBrowse(new URLSearchParams(query));
  const address = queryOf(state);
  // An address with values left out or spelled otherwise ("letter=m") is replaced by the view's own.
  useEffect(() => {
    if (query !== address) navigate(`${kind.address}${address}`, { replace: true });
  }, [query, address]);
  const [version, setVersion] = useState(0);
  useEvents((event) => {
    if (event.type === 'scan:complete' || event.type === 'library:updated' || event.type === 'library:deleted') setVersion((v) => v + 1);
  });
  const view = `${address}#${version}`;
  const [loaded, retry] = useLoad(async () => ({ view, state, ...(await loadView(kind, state)) }), [which, view]);
  const change = (next: Partial<BrowseState>) => navigate(`${kind.address}${queryOf({ ...state, ...next })}`, { replace: true });
  const shown = loaded.state === 'done' ? loaded.value : null;
  // The counts of the view shown, while the next one loads.
  const stale = shown !== null && shown.view !== view;
  return (
    <main class="browse">
      <div class="browse-head">
        <h1 class="screen-title">{kind.title}</h1>
        {shown && (
          <p class="browse-total" role="status">
            {counted(shown.first.meta.total, kind.noun[0], kind.noun[1])}
          </p>
        )}
      </div>
      <BrowseControls state={state} years={shown?.years ?? null} change={change} />
      <GenreChips chosen={state.genres} genres={shown?.genres ?? null} change={change} />
      <LetterBar
        letter={state.letter}
        counts={shown?.letters ?? null}
        noun={[kind.noun[0], kind.noun[1]]}
        choose={(letter) => change({ letter })}
      />
      {isFiltered(state) && (
        <button type="button" class="link clear-filters" onClick={() => change(unfiltered(state))}>
          Clear the filters
        </button>
      )}
      <div class="browse-results" aria-busy={stale}>
        <Show loaded={loaded} retry={retry} label={`Loading the ${kind.noun[1]}`}>
          {(value) => <Results key={value.view} kind={kind} state={value.state} first={value.first} />}
        </Show>
      </div>
    </main>
  );
};
