// A to Z and # (digits and symbols): the titles filed under one letter, the way the service
// files them ("The Matrix" under M). A letter no title of the others filters files under is
// disabled; All lets the letter go.
import type { components } from '../api/schema';
import { LETTERS, type Letter } from './browse-state';
import { counted } from './plural';

type LetterCounts = components['schemas']['Facets']['letters'];

export const LetterBar = ({
  letter,
  counts,
  noun,
  choose,
}: {
  letter: Letter | null;
  counts: LetterCounts | null;
  noun: [one: string, other: string];
  choose: (letter: Letter | null) => void;
}) => {
  const countOf = (l: Letter) => (counts ? (counts.find((c) => c.letter === l)?.count ?? 0) : null);
  return (
    <div class="letters" role="group" aria-label="First letter">
      <button type="button" aria-pressed={letter === null} onClick={() => choose(null)}>
        All
      </button>
      {LETTERS.map((l) => {
        const count = countOf(l);
        return (
          <button
            key={l}
            type="button"
            aria-pressed={letter === l}
            disabled={count === 0 && letter !== l}
            title={count === null ? undefined : `${l === '#' ? 'Digits and symbols' : l}: ${counted(count, ...noun)}`}
            onClick={() => choose(l)}
          >
            {l}
          </button>
        );
      })}
    </div>
  );
};
