// How well one text matches a query, and the rank that gives a hit: levels (as typed, then with
// typos), the field the text comes from, and whether the query names the item's year. Fixed
// numbers, so the index compares ranks, never texts, once the texts have been matched.
import type { MatchedOn } from './model';

// How well one text matches, best first: as typed, then with typos. Texts are compared with their
// spaces taken out, so "spiderman" is the exact title "Spider-Man" and "walle" the exact title "WALL·E".
const EXACT = 0; // the whole text
const PREFIX = 1; // the start of it: "the dark" for "The Dark Knight"
const WORDS = 2; // each query word starts some word of it, in any order: "kni dark"
export const TYPO_ONE = 3; // the whole text within one edit: "matirx" for "Matrix"
export const TYPO_TWO = 4; // the whole text within two (a query of 8 letters or more): "briddges" for "Bridge"
export const TYPO_WORDS = 5; // as WORDS, with some words within an edit or two of the text's: "matirx reloaded"
export type Level = typeof EXACT | typeof PREFIX | typeof WORDS | typeof TYPO_ONE | typeof TYPO_TWO | typeof TYPO_WORDS;

// The fields a text comes from, in the order they weigh at one level.
export const FIELDS: readonly MatchedOn[] = ['title', 'originalTitle', 'alternativeTitle', 'person'];
export const PERSON = 3;

/**
 * The rank of a match, 1 first. Matches as typed come before matches with typos; within each,
 * titles before people (someone typing "heat" means the film before the actor Heather Graham,
 * someone typing "hanks" the actor before the title "Hawks"); then an item whose year a query
 * word names ("heat 1995", "dark knight 2012"); then the level; then, among titles, the field.
 */
export const rankOf = (level: Level, field: number, yearNamed: boolean): number => {
  const typo = level >= TYPO_ONE ? 1 : 0;
  const person = field === PERSON ? 1 : 0;
  const named = yearNamed ? 0 : 1;
  return (((typo * 2 + person) * 2 + named) * 3 + (level % 3)) * 3 + (person ? 0 : field) + 1;
};
export const RANKS = 2 * 2 * 2 * 3 * 3;

/** A four-digit number a film could be from: it may name the year rather than a word of the title. */
export const yearIn = (word: string): number | undefined => {
  if (!/^\d{4}$/u.test(word)) return undefined;
  const year = Number(word);
  return year >= 1870 && year <= new Date().getFullYear() + 3 ? year : undefined;
};

export const levelOf = (text: string, query: string): Level => (text === query ? EXACT : text.startsWith(query) ? PREFIX : WORDS);

// A leading article is left out as often as typed: "matrix" is the whole title "The Matrix".
const ARTICLES = new Set(['the', 'a', 'an', 'le', 'la', 'les', 'l', 'el', 'los', 'las', 'der', 'die', 'das', 'il', 'lo', 'gli']);
/** Words run together without a leading article (when more words follow it). */
export const bare = (words: readonly string[]) => (words.length > 1 && ARTICLES.has(words[0]!) ? words.slice(1) : words).join('');
