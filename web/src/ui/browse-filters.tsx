// The Films and Shows screens' controls: the sort and its order, watched or not, favourites or
// not, the years (a decade, or from and to), and the genres as chips with how many titles each
// keeps. Each change is a new state for the address; nothing is kept here.
import type { components } from '../api/schema';
import { defaultOrder, SORTS, type BrowseState, type Order, type Sort } from './browse-state';

type Facets = components['schemas']['Facets'];

/** What ascending and descending mean for each sort. */
const ORDER_WORDS: Record<Sort, Record<Order, string>> = {
  title: { asc: 'A to Z', desc: 'Z to A' },
  added: { asc: 'Oldest first', desc: 'Newest first' },
  year: { asc: 'Oldest first', desc: 'Newest first' },
  released: { asc: 'Oldest first', desc: 'Newest first' },
  rating: { asc: 'Lowest first', desc: 'Highest first' },
  lastPlayed: { asc: 'Longest ago first', desc: 'Most recent first' },
};

type Change = (next: Partial<BrowseState>) => void;

const valueOf = (event: Event) => (event.currentTarget as HTMLInputElement | HTMLSelectElement).value;

/** A yes-or-no filter of the current profile's as a select: either, yes, no. */
const YesNo = ({
  label,
  name,
  value,
  words,
  change,
}: {
  label: string;
  name: 'played' | 'favorite';
  value: boolean | null;
  words: [string, string];
  change: Change;
}) => (
  <label>
    {label}
    <select
      name={name}
      value={value === null ? '' : String(value)}
      onChange={(e) => change({ [name]: valueOf(e) === '' ? null : valueOf(e) === 'true' })}
    >
      <option value="">All</option>
      <option value="true">{words[0]}</option>
      <option value="false">{words[1]}</option>
    </select>
  </label>
);

const yearInput = (value: string): number | null => (/^\d{1,4}$/.test(value.trim()) ? Number(value) : null);

/** The decades the titles are from, newest first, with how many are from each. */
const decadesOf = (years: Facets['years']) => {
  const counts = new Map<number, number>();
  for (const { year, count } of years) counts.set(year - (year % 10), (counts.get(year - (year % 10)) ?? 0) + count);
  return [...counts].sort(([a], [b]) => b - a);
};

const Years = ({ state, years, change }: { state: BrowseState; years: Facets['years'] | null; change: Change }) => {
  const { yearFrom: from, yearTo: to } = state;
  const decade = from !== null && to === from + 9 && from % 10 === 0 ? String(from) : from === null && to === null ? '' : 'range';
  const decades = decadesOf(years ?? []);
  return (
    <>
      <label>
        Years
        <select
          value={decade}
          onChange={(e) => {
            const start = valueOf(e);
            change(start ? { yearFrom: Number(start), yearTo: Number(start) + 9 } : { yearFrom: null, yearTo: null });
          }}
        >
          <option value="">Any</option>
          {decade === 'range' && (
            <option value="range" disabled>
              {from ?? '…'}–{to ?? '…'}
            </option>
          )}
          {decade !== '' && decade !== 'range' && !decades.some(([d]) => String(d) === decade) && <option value={decade}>{decade}s</option>}
          {decades.map(([d, count]) => (
            <option key={d} value={String(d)}>
              {d}s ({count})
            </option>
          ))}
        </select>
      </label>
      <label class="year">
        From
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={9999}
          name="yearFrom"
          value={from ?? ''}
          onChange={(e) => change({ yearFrom: yearInput(valueOf(e)) })}
        />
      </label>
      <label class="year">
        To
        <input
          type="number"
          inputMode="numeric"
          min={0}
          max={9999}
          name="yearTo"
          value={to ?? ''}
          onChange={(e) => change({ yearTo: yearInput(valueOf(e)) })}
        />
      </label>
    </>
  );
};

export const BrowseControls = ({ state, years, change }: { state: BrowseState; years: Facets['years'] | null; change: Change }) => {
  const order = state.order ?? defaultOrder(state.sort);
  return (
    <div class="browse-controls">
      <label>
        Sort by
        <select name="sort" value={state.sort} onChange={(e) => change({ sort: valueOf(e) as Sort, order: null })}>
          {SORTS.map(([sort, label]) => (
            <option key={sort} value={sort}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Order
        <select name="order" value={order} onChange={(e) => change({ order: valueOf(e) as Order })}>
          {(['asc', 'desc'] as const).map((o) => (
            <option key={o} value={o}>
              {ORDER_WORDS[state.sort][o]}
            </option>
          ))}
        </select>
      </label>
      <YesNo label="Watched" name="played" value={state.played} words={['Watched', 'Not watched']} change={change} />
      <YesNo label="Favourites" name="favorite" value={state.favorite} words={['Favourites', 'Not favourites']} change={change} />
      <Years state={state} years={years} change={change} />
    </div>
  );
};

/**
 * A chip per genre with how many titles it keeps among those shown (pressing one keeps only
 * those; several keep the titles with every one); chosen genres stay even when none has them,
 * so they can be let go.
 */
export const GenreChips = ({ chosen, genres, change }: { chosen: string[]; genres: Facets['genres'] | null; change: Change }) => {
  const known = new Set((genres ?? []).map((g) => g.name.toLowerCase()));
  const chips = [...(genres ?? []), ...chosen.filter((g) => !known.has(g.toLowerCase())).map((name) => ({ name, count: 0 }))];
  if (!chips.length) return null;
  const isChosen = (name: string) => chosen.some((g) => g.toLowerCase() === name.toLowerCase());
  return (
    <div class="chips" role="group" aria-label="Genres">
      {chips.map(({ name, count }) => {
        const on = isChosen(name);
        return (
          <button
            key={name}
            type="button"
            class="chip"
            aria-pressed={on}
            onClick={() => change({ genres: on ? chosen.filter((g) => g.toLowerCase() !== name.toLowerCase()) : [...chosen, name] })}
          >
            {name} <span class="chip-count">{count}</span>
          </button>
        );
      })}
    </div>
  );
};
