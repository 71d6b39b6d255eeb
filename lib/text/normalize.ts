// The form titles and queries are compared in: lowercase, accents gone, words separated by single
// spaces. Titles go through it once when the index is built and each query once per search, so the
// two sides always agree; any NFC/NFD or fullwidth/halfwidth difference in the input disappears.

const APOSTROPHES = "'\u0060\u2018\u2019\u02BB\u02BC\uFF07"; // ' ` ‘ ’ ʻ ʼ ＇
const APOSTROPHE = new RegExp(`[${APOSTROPHES}]`, 'gu');
const AN_APOSTROPHE = new RegExp(`[${APOSTROPHES}]`, 'u'); // not global: `test` keeps no state
// Between two letters an apostrophe joins ("Ocean's" → "oceans"); elsewhere it separates.
const INNER_APOSTROPHE = new RegExp(`(?<=[\\p{L}\\p{N}]\\p{M}*)[${APOSTROPHES}]+(?=[\\p{L}\\p{N}])`, 'gu');

// Soft hyphens, zero-width joiners, variation selectors: invisible, so not part of what was typed.
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

// NFKD spells "9½" as "91⁄2": the digit before a fraction slash starts a new number. Vulgar
// fractions have one-digit numerators, and working on the NFKD text keeps NFKC input alike.
const FRACTION_NUMERATOR = /(?<=\p{N})(?=\p{N}\u2044)/gu;

// Combining marks and the letter they sit on (none when they follow a space, digit or symbol).
const MARKED = /(\p{L})?\p{M}+/gu;
// Scripts whose marks are accents people leave out when typing ("amelie", "ежик" for "ёжик").
// Elsewhere a mark changes the letter (Devanagari vowel signs, kana voicing: か ≠ が), so it stays.
const ACCENTED_SCRIPT = /[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Arabic}\p{sc=Hebrew}]/u;

// Letters NFKD does not split, spelled the way they are typed on a plain keyboard.
const FOLDS: Readonly<Record<string, string>> = {
  æ: 'ae',
  œ: 'oe',
  ß: 'ss',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ħ: 'h',
  ŧ: 't',
  ı: 'i',
  ƒ: 'f',
  ς: 'σ', // final sigma is only a spelling of σ at the end of a word
};
const FOLDABLE = new RegExp(`[${Object.keys(FOLDS).join('')}]`, 'gu');

// "&" is read as "and", so "Pride & Prejudice" and "pride and prejudice" are one title.
const AMPERSAND = /&/gu;

// Kept marks count as part of their word, so a Devanagari or Thai word is never cut in two.
const NOT_WORD = /[^\p{L}\p{N}\p{M}]+/gu;

// Letters, digits and spaces of plain ASCII (most names, many titles) come out of the whole
// pipeline below lowercased with their spaces collapsed: that much is done directly.
const PLAIN = /^[A-Za-z0-9 ]*$/;
const SPACES = / +/g;

export function normalize(text: string): string {
  if (PLAIN.test(text)) return text.toLowerCase().replace(SPACES, ' ').trim();
  return text
    .normalize('NFKD') // accents off their letters, ligatures and fullwidth forms to plain letters
    .replace(FRACTION_NUMERATOR, ' ')
    .replace(INVISIBLE, '')
    .replace(INNER_APOSTROPHE, '')
    .replace(APOSTROPHE, ' ') // "ʼ" and "ʻ" are letters to Unicode, so NOT_WORD would keep them
    .toLowerCase()
    .replace(MARKED, (marked, base: string | undefined) => (base === undefined ? '' : ACCENTED_SCRIPT.test(base) ? base : marked))
    .replace(FOLDABLE, (letter) => FOLDS[letter] ?? letter)
    .replace(AMPERSAND, ' and ')
    .replace(NOT_WORD, ' ')
    .trim()
    .normalize('NFC'); // kana and Hangul back to the composed letters they were typed as
}

/** The words of a text, normalised: "Léon: The Professional" → ["leon", "the", "professional"]. */
export function tokenize(text: string): string[] {
  const normal = normalize(text);
  return normal === '' ? [] : normal.split(' ');
}

/**
 * The words with every apostrophe taken as a break: "L'Étranger" → ["l", "etranger"]. Indexed
 * beside `tokenize`'s words so French and Italian elisions are found by the word after them.
 */
export function tokenizeAtApostrophes(text: string): string[] {
  return tokenize(text.replace(APOSTROPHE, ' '));
}

/** Whether `tokenizeAtApostrophes` can find words `tokenize` does not: spares titles without one. */
export function hasApostrophe(text: string): boolean {
  return AN_APOSTROPHE.test(text);
}
