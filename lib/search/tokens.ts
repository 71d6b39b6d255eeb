// What one title is findable by: a query word matches when it is a prefix of any of these.
import { hasApostrophe, tokenize, tokenizeAtApostrophes } from '../text/normalize';

const WHITESPACE = /\s+/u;
// A word character after punctuation: the chunk may hold several words. Saves normalising the
// plain chunks, most of them, a second time.
const JOINED = /[^\p{L}\p{N}\p{M}][\p{L}\p{N}]/u;
// Scripts written without spaces between words: a word there is found from any of its characters.
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}]/u;
// A letter with the marks on it (Thai vowel signs): a tail never starts with a bare mark.
const LETTER = /\P{M}\p{M}*/gu;

// Sequel numbers as people type them: "Rocky II" is found by "rocky 2", "Rocky 2" by "rocky ii".
// From 2 on ("I" is also a word), up to 20.
const ROMAN = [
  'ii',
  'iii',
  'iv',
  'v',
  'vi',
  'vii',
  'viii',
  'ix',
  'x',
  'xi',
  'xii',
  'xiii',
  'xiv',
  'xv',
  'xvi',
  'xvii',
  'xviii',
  'xix',
  'xx',
];
const NUMERAL = new Map<string, string>(
  ROMAN.flatMap((roman, i) => [
    [roman, String(i + 2)],
    [String(i + 2), roman],
  ]),
);

/**
 * The title's words, plus the other ways people type them:
 * - each pair of neighbouring words run together ("Spider-Man", "Toy Story" → "spiderman", "toystory");
 * - each punctuation-joined run together ("S.W.A.T." → "swat", "M*A*S*H" → "mash", "WALL·E" → "walle");
 * - the words either side of an apostrophe ("L'Étranger" → "etranger", beside "letranger");
 * - every tail of a word in an unspaced script, so a prefix of one is any substring of the word
 *   ("千と千尋の神隠し" → "神隠し");
 * - a sequel number in the other numerals ("Rocky II" → "2", "Rocky 2" → "ii").
 * Distinct, in no particular order.
 */
export function titleTokens(title: string, words: readonly string[] = tokenize(title)): string[] {
  const found = new Set(words);
  if (hasApostrophe(title)) for (const word of tokenizeAtApostrophes(title)) found.add(word);
  for (let i = 1; i < words.length; i++) found.add(`${words[i - 1]}${words[i]}`);
  for (const chunk of title.split(WHITESPACE)) {
    if (!JOINED.test(chunk)) continue;
    const joined = tokenize(chunk);
    if (joined.length > 2) found.add(joined.join('')); // two are already a pair
  }
  for (const word of words) {
    const numeral = NUMERAL.get(word);
    if (numeral !== undefined) found.add(numeral);
  }
  for (const word of words) {
    if (!UNSPACED.test(word)) continue;
    const letters = word.match(LETTER) ?? [];
    for (let i = 1; i < letters.length; i++) found.add(letters.slice(i).join(''));
  }
  return [...found];
}
