// Where a title files, the way people look for it on a shelf: "The Matrix" under M, "L'Avventura"
// under A, "Édith" under E, "2001" under #. Computed once per item when the browse index is built
// (lib/browse/), so a list sorts by comparing plain strings.
import { normalize } from './normalize';

/** A–Z, or '#' for a title that starts with a digit, a symbol or a letter outside A–Z. */
export type Letter =
  | 'A'
  | 'B'
  | 'C'
  | 'D'
  | 'E'
  | 'F'
  | 'G'
  | 'H'
  | 'I'
  | 'J'
  | 'K'
  | 'L'
  | 'M'
  | 'N'
  | 'O'
  | 'P'
  | 'Q'
  | 'R'
  | 'S'
  | 'T'
  | 'U'
  | 'V'
  | 'W'
  | 'X'
  | 'Y'
  | 'Z'
  | '#';

export const LETTERS: readonly Letter[] = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ#'] as Letter[];

export interface Filing {
  /** Normalised (lowercase, accents off), the leading article gone, numbers padded so 2 comes before 10. */
  sortTitle: string;
  letter: Letter;
}

// The contract's articles: English, French, German, Spanish, Italian, Dutch. One counts only when
// a word follows it after a space ("Theo", "Annie", "Elf", "Diehard", "De-Lovely" keep theirs).
// Without the item's language some English titles lose a word that only looks like one ("Die
// Hard" files under H); peers that get this right ask for a language per library.
const ARTICLE = /^(?:the|a|an|le|la|les|der|die|das|el|los|las|il|de|het)\s+(?=\S)/iu;
// "l'" elides before any letter, with whatever apostrophe the title was typed with.
const ELISION = /^l['\u0060\u2018\u2019\u02BB\u02BC\uFF07]\s*(?=\S)/iu;
// Quotes, brackets and dots before the first word ("...And Justice for All", "(500) Days") do not count.
const LEADING_PUNCTUATION = /^[^\p{L}\p{N}]+/u;
// Up to 12 digits cover every number a title has; a longer one keeps its length and sorts after.
const NUMBER = /\p{Nd}+/gu;
const PAD = 12;

/** The title without a leading article, when something is left once it is gone. */
const withoutArticle = (title: string): string => {
  const start = title.replace(LEADING_PUNCTUATION, '');
  const match = ARTICLE.exec(start) ?? ELISION.exec(start);
  if (!match) return start;
  const rest = start.slice(match[0].length);
  return normalize(rest) === '' ? start : rest;
};

export const filing = (title: string): Filing => {
  const sortTitle = normalize(withoutArticle(title)).replace(NUMBER, (n) => n.padStart(PAD, '0'));
  const first = sortTitle.charCodeAt(0);
  // normalize() leaves Latin letters lowercase and unaccented: a–z is the whole test.
  const letter = first >= 97 && first <= 122 ? (String.fromCharCode(first - 32) as Letter) : '#';
  return { sortTitle, letter };
};
