// The "Fix match" dialog: a search of the provider (the title prefilled, a year if one wants),
// the records it finds with their posters, and choosing one. A real modal <dialog>: focus stays
// inside, Escape closes it, and the arrow keys (a TV remote's) move between the records.
import { useEffect, useRef, useState } from 'preact/hooks';
import { asApiError, type ApiError, type MatchCandidate } from '../api/client';
import { ProblemView } from './load';

type Results = { state: 'searching' } | { state: 'done'; candidates: MatchCandidate[] } | { state: 'failed'; error: ApiError };

const onArrow = (event: KeyboardEvent) => {
  if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
  const from = (event.target as Element).closest<HTMLElement>('.candidate');
  const items = [...(event.currentTarget as HTMLElement).querySelectorAll<HTMLElement>('.candidate')];
  const next = from && items[items.indexOf(from) + (event.key === 'ArrowDown' ? 1 : -1)];
  if (!next) return;
  event.preventDefault();
  next.focus();
};

const Candidate = ({
  candidate: c,
  current,
  busy,
  onChoose,
}: {
  candidate: MatchCandidate;
  current: boolean;
  busy: boolean;
  onChoose: () => void;
}) => {
  const name = c.year === null ? c.title : `${c.title} (${c.year})`;
  const overviewId = `candidate-${c.tmdbId}-overview`;
  return (
    <li>
      <button
        type="button"
        class="candidate"
        aria-label={`Choose ${name}`}
        aria-describedby={c.overview ? overviewId : undefined}
        aria-disabled={busy}
        onClick={() => !busy && onChoose()}
      >
        <span class="candidate-poster">
          {c.posterUrl && <img src={c.posterUrl} alt={`Poster of ${name}`} loading="lazy" decoding="async" width={92} height={138} />}
        </span>
        <span class="candidate-text">
          <span class="candidate-title">
            {c.title} {c.year !== null && <span class="year">({c.year})</span>}
            {current && <span class="candidate-current"> · matched now</span>}
          </span>
          {c.originalTitle && c.originalTitle !== c.title && <span class="candidate-original">{c.originalTitle}</span>}
          {c.overview && (
            <span class="candidate-overview" id={overviewId}>
              {c.overview}
            </span>
          )}
        </span>
      </button>
    </li>
  );
};

export const FixMatchDialog = ({
  noun,
  title,
  current,
  search,
  choose,
  onClose,
}: {
  noun: string;
  /** The title the search starts from. */
  title: string;
  /** The record the item is matched to now, marked in the list. */
  current: number | null;
  search: (query: string, year: number | undefined) => Promise<MatchCandidate[]>;
  /** Matches the item to the record; the dialog closes when it is done, and says why when it fails. */
  choose: (tmdbId: number) => Promise<void>;
  onClose: () => void;
}) => {
  const dialog = useRef<HTMLDialogElement>(null);
  const field = useRef<HTMLInputElement>(null);
  const [query, setQuery] = useState(title);
  // No year at first: the item's year may be the wrong record's, which would hide the right one.
  const [year, setYear] = useState('');
  const [results, setResults] = useState<Results>({ state: 'searching' });
  const [choosing, setChoosing] = useState<number | null>(null);
  const [failure, setFailure] = useState<ApiError | null>(null);
  // Only the newest search's answer is shown.
  const asked = useRef(0);

  const run = async (text: string, yearText: string) => {
    const n = ++asked.current;
    setResults({ state: 'searching' });
    setFailure(null);
    try {
      const candidates = await search(text.trim(), yearText ? Number(yearText) : undefined);
      if (n === asked.current) setResults({ state: 'done', candidates });
    } catch (e) {
      if (n === asked.current) setResults({ state: 'failed', error: asApiError(e, 'The search did not work') });
    }
  };

  useEffect(() => {
    dialog.current?.showModal();
    field.current?.focus();
    field.current?.select();
    // The title as it is is the likeliest search: its results come without a click.
    void run(title, '');
  }, []);

  const close = () => dialog.current?.close();

  const pick = async (tmdbId: number) => {
    setChoosing(tmdbId);
    setFailure(null);
    try {
      await choose(tmdbId);
      close();
    } catch (e) {
      setFailure(asApiError(e, 'The match was not changed'));
    } finally {
      setChoosing(null);
    }
  };

  return (
    // A click on the backdrop lands on the <dialog> itself (its body fills the box): it closes.
    <dialog
      ref={dialog}
      class="fix-match"
      aria-labelledby="fix-match-title"
      onClose={onClose}
      onClick={(e) => e.target === e.currentTarget && close()}
    >
      <div class="fix-match-body">
        <div class="fix-match-head">
          <h2 id="fix-match-title">Fix the match</h2>
          <button type="button" class="close" aria-label="Close" onClick={close}>
            ✕
          </button>
        </div>
        <p class="fix-match-hint">Search TMDB for this {noun} and choose it. The choice stays through rescans until it is unlocked.</p>
        <form
          class="fix-match-search"
          role="search"
          onSubmit={(e) => {
            e.preventDefault();
            void run(query, year);
          }}
        >
          <label>
            Title
            {/* Not type=search: Escape there empties the field instead of closing the dialog. */}
            <input
              ref={field}
              type="text"
              name="query"
              enterKeyHint="search"
              autoComplete="off"
              required
              maxLength={200}
              value={query}
              onInput={(e) => setQuery(e.currentTarget.value)}
            />
          </label>
          <label>
            Year
            <input
              type="number"
              name="year"
              min={1870}
              max={2100}
              inputMode="numeric"
              placeholder="Any"
              value={year}
              onInput={(e) => setYear(e.currentTarget.value)}
            />
          </label>
          <button type="submit">Search</button>
        </form>
        {failure && <ProblemView error={failure} retry={() => setFailure(null)} />}
        <div class="fix-match-results" aria-busy={results.state === 'searching'}>
          {results.state === 'searching' ? (
            <p class="loading">Searching TMDB…</p>
          ) : results.state === 'failed' ? (
            <ProblemView error={results.error} retry={() => void run(query, year)} />
          ) : results.candidates.length === 0 ? (
            <p class="empty">
              TMDB knows no {noun} by that name{year ? ` from ${year}` : ''}. Try another title, its original title, or no year.
            </p>
          ) : (
            <>
              <p class="match-note" role="status">
                {choosing !== null ? 'Matching…' : `${results.candidates.length} found. Choose one:`}
              </p>
              <ul class="candidates" aria-label="Candidates" onKeyDown={onArrow}>
                {results.candidates.map((c) => (
                  <Candidate
                    key={c.tmdbId}
                    candidate={c}
                    current={c.tmdbId === current}
                    busy={choosing !== null}
                    onChoose={() => void pick(c.tmdbId)}
                  />
                ))}
              </ul>
            </>
          )}
        </div>
      </div>
    </dialog>
  );
};
