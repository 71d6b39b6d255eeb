// Fixing a film's or a show's match from its page: a line saying when the match was chosen by
// hand (with Unlock, which lets it be matched automatically again) or when there is none, "Fix
// match" (the dialog in fix-match-dialog.tsx), and "Refresh metadata". Each answer carries the
// whole item described anew, which the page shows at once instead of asking for it again.
import { useRef, useState } from 'preact/hooks';
import { api, asApiError, unwrap, type ApiError, type MatchCandidate, type MovieDetail, type ShowDetail } from '../api/client';
import { FixMatchDialog } from './fix-match-dialog';
import { ProblemView } from './load';

/** What a page can do about its item's match; T is the page's item (MovieDetail, ShowDetail). */
export interface Matching<T> {
  /** "film" or "show", for the sentences. */
  noun: string;
  // Functions, not methods: the controls pass them around on their own.
  candidates: (query: string, year: number | undefined) => Promise<MatchCandidate[]>;
  match: (tmdbId: number) => Promise<T>;
  unlock: () => Promise<T>;
  refresh: () => Promise<T>;
}

// Two sets of paths with the same shapes: written out per kind so each call stays typed by the API's own types.
export const movieMatching = (movieId: string): Matching<MovieDetail> => {
  const path = { movieId };
  return {
    noun: 'film',
    candidates: async (query, year) =>
      (await unwrap(api.GET('/api/v1/movies/{movieId}/candidates', { params: { path, query: { query, year } } }))).data,
    match: async (tmdbId) => (await unwrap(api.PUT('/api/v1/movies/{movieId}/match', { params: { path }, body: { tmdbId } }))).data,
    unlock: async () => (await unwrap(api.DELETE('/api/v1/movies/{movieId}/match', { params: { path } }))).data,
    refresh: async () => (await unwrap(api.POST('/api/v1/movies/{movieId}/refresh', { params: { path } }))).data,
  };
};

export const showMatching = (showId: string): Matching<ShowDetail> => {
  const path = { showId };
  return {
    noun: 'show',
    candidates: async (query, year) =>
      (await unwrap(api.GET('/api/v1/tvshows/{showId}/candidates', { params: { path, query: { query, year } } }))).data,
    match: async (tmdbId) => (await unwrap(api.PUT('/api/v1/tvshows/{showId}/match', { params: { path }, body: { tmdbId } }))).data,
    unlock: async () => (await unwrap(api.DELETE('/api/v1/tvshows/{showId}/match', { params: { path } }))).data,
    refresh: async () => (await unwrap(api.POST('/api/v1/tvshows/{showId}/refresh', { params: { path } }))).data,
  };
};

type Item = { media: { title: string }; metadata: { matched: boolean; matchLocked: boolean; tmdbId: number | null } };

export const MatchControls = <T extends Item>({
  item,
  matching,
  onDescribed,
}: {
  item: T;
  matching: Matching<T>;
  onDescribed: (item: T) => void;
}) => {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState<'unlock' | 'refresh' | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [note, setNote] = useState('');
  const opener = useRef<HTMLButtonElement>(null);
  const { metadata } = item;

  // The buttons stay enabled (a disabled button drops the focus a remote or keyboard had on it): a second press is ignored.
  const act = async (what: 'unlock' | 'refresh', call: () => Promise<T>, done: string) => {
    if (busy) return;
    setBusy(what);
    setError(null);
    setNote('');
    try {
      onDescribed(await call());
      setNote(done);
    } catch (e) {
      setError(asApiError(e, 'That did not work'));
    } finally {
      setBusy(null);
    }
  };

  return (
    <section class="match" aria-label="Match">
      {metadata.matchLocked ? (
        <p class="match-state">
          Match chosen by hand.{' '}
          <button
            type="button"
            class="link"
            aria-disabled={busy !== null}
            onClick={() => void act('unlock', matching.unlock, 'Unlocked: matched automatically again.')}
          >
            Unlock
          </button>
        </p>
      ) : (
        !metadata.matched && (
          <p class="match-state">Not matched: TMDB could not say which {matching.noun} this is, so it keeps its file’s name.</p>
        )
      )}
      <div class="actions">
        <button type="button" ref={opener} onClick={() => setOpen(true)}>
          Fix match
        </button>
        <button
          type="button"
          aria-disabled={busy !== null}
          onClick={() => void act('refresh', matching.refresh, 'Metadata fetched again.')}
        >
          {busy === 'refresh' ? 'Refreshing…' : 'Refresh metadata'}
        </button>
      </div>
      <p class="match-note" role="status">
        {busy === 'unlock' ? 'Unlocking…' : note}
      </p>
      {error && <ProblemView error={error} retry={() => setError(null)} />}
      {open && (
        <FixMatchDialog
          noun={matching.noun}
          title={item.media.title}
          current={metadata.matched ? metadata.tmdbId : null}
          search={matching.candidates}
          choose={async (tmdbId) => {
            onDescribed(await matching.match(tmdbId));
            setError(null);
            setNote('Match chosen.');
          }}
          onClose={() => {
            setOpen(false);
            opener.current?.focus();
          }}
        />
      )}
    </section>
  );
};
