// In-memory title search over movies and TV shows, behind GET /api/v1/search. Everything a query
// needs is worked out when the index is built (normalised tokens in a sorted table, the recency
// order), so a search is two binary searches per query word and one walk over the postings of its
// most selective word. Pure: no I/O, no dependencies; rebuild it when the catalogue changes.
import { editsFor, FuzzyTrie, withinEdits } from './fuzzy';
import { tokenize } from './normalize';
import { mostRecentFirst } from './order';
import { TokenTable, type TokenRange } from './token-table';
import { titleTokens } from './tokens';

export { normalize, tokenize } from './normalize';

export interface Searchable {
  id: string;
  type: 'movie' | 'tvshow'; // the catalogue's MediaKind
  title: string;
  originalTitle: string | null;
  year: number | null;
  /** ISO 8601: the later of two same-year, same-level matches comes first. */
  addedAt: string;
}

export interface SearchOptions {
  /** Only items of this type; both when absent. */
  type?: Searchable['type'];
  /** At most this many results (fractions round down); below 1 gives none. */
  limit?: number;
}

export const DEFAULT_LIMIT = 20;

// How well one title matches, best first. Titles are compared with their spaces taken out, so
// "spiderman" is the exact title "Spider-Man" and "walle" the exact title "WALL·E".
const EXACT = 1; // the whole title
const PREFIX = 2; // the start of the title: "the dark" for "The Dark Knight"
const WORDS = 3; // each query word starts some word of the title, in any order: "kni dark"
const TYPO_TITLE = 4; // the whole title within an edit or two: "matirx" for "Matrix"
const TYPO = 5; // as WORDS, with some words within an edit or two of the title's: "matirx reloaded"
type Level = typeof EXACT | typeof PREFIX | typeof WORDS | typeof TYPO_TITLE | typeof TYPO;

/** What one query word matches: the tokens it starts, and the tokens within its edits (lib/search/fuzzy.ts). */
interface WordMatch {
  exact: TokenRange;
  near: TokenRange[];
  /** Postings to walk for it: how selective it is. */
  count: number;
}

// An item whose year a query word names comes before every other, level by level ("heat 1995",
// "dark knight 2012"): ranks 1..5 for those, 6..10 for the rest.
const rankOf = (level: Level, yearNamed: boolean) => (yearNamed ? level : level + 5);
const RANKS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];

/** A four-digit number a film could be from: it may name the year rather than a word of the title. */
const yearIn = (word: string): number | undefined => {
  if (!/^\d{4}$/u.test(word)) return undefined;
  const year = Number(word);
  return year >= 1870 && year <= new Date().getFullYear() + 3 ? year : undefined;
};

/** A query word that may be a year: it matches the title's tokens or the item's year, and is not needed to match. */
interface YearWord {
  word: string;
  year: number;
  range: TokenRange;
}

const levelOf = (title: string, query: string): Level =>
  title === query ? EXACT : title.startsWith(query) ? PREFIX : WORDS;

// A leading article is left out as often as typed: "matrix" is the whole title "The Matrix".
const ARTICLES = new Set(['the', 'a', 'an', 'le', 'la', 'les', 'l', 'el', 'los', 'las', 'der', 'die', 'das', 'il', 'lo', 'gli']);
/** Words run together without a leading article (when more words follow it). */
const bare = (words: readonly string[]) => (words.length > 1 && ARTICLES.has(words[0]!) ? words.slice(1) : words).join('');

export class SearchIndex<T extends Searchable> {
  /** Most recent first: within a level, results come in this order. */
  private readonly items: T[];
  // One entry per distinct title of an item: its title, and its original title when that differs.
  // An item matches at the better level of its entries; a query is matched against one title at a
  // time, never words of one with words of the other.
  private readonly entryItem: Uint32Array; // entry → position in items
  private readonly entryTitle: string[]; // normalised, spaces taken out
  private readonly entryBare: string[]; // the same without a leading article
  private readonly table: TokenTable;
  private readonly trie: FuzzyTrie;

  constructor(items: Iterable<T>) {
    this.items = mostRecentFirst(items);
    const entryItem: number[] = [];
    const entryTokens: string[][] = [];
    this.entryTitle = [];
    this.entryBare = [];
    this.items.forEach((item, position) => {
      for (const title of [item.title, item.originalTitle]) {
        if (title === null) continue;
        const words = tokenize(title);
        const joined = words.join('');
        if (joined === '' || (entryItem.at(-1) === position && this.entryTitle.at(-1) === joined)) continue;
        entryItem.push(position);
        this.entryTitle.push(joined);
        this.entryBare.push(bare(words));
        entryTokens.push(titleTokens(title));
      }
    });
    this.entryItem = Uint32Array.from(entryItem);
    this.table = new TokenTable(entryTokens);
    this.trie = new FuzzyTrie(this.table.all);
  }

  get size(): number {
    return this.items.length;
  }

  /** Best match first; [] when the query has no letters or digits. */
  search(query: string, { type, limit = DEFAULT_LIMIT }: SearchOptions = {}): T[] {
    const words = tokenize(query);
    const max = Math.floor(limit);
    if (words.length === 0 || !(max > 0)) return [];
    // The last word may still be being typed: it matches the starts of words, typos included.
    const last = words.at(-1)!;
    const distinct = [...new Set(words)];
    // Years lift the items from them; a query of years alone is a title ("2012").
    const yearWords = distinct.filter((w) => yearIn(w) !== undefined);
    const years = yearWords.length < distinct.length ? yearWords.map((word) => ({ word, year: yearIn(word)!, range: this.table.range(word) })) : [];
    const matches = distinct
      .filter((word) => !years.some((y) => y.word === word))
      .map((word) => this.wordMatch(word, word === last))
      .sort((a, b) => a.count - b.count);
    if (matches[0]!.count === 0) return []; // a word no title has, nor anything near it
    const { levels, counts } = this.match(matches, years, words, type);
    return this.first(max, levels, counts);
  }

  private wordMatch(word: string, last: boolean): WordMatch {
    const exact = this.table.range(word);
    const near = this.trie.near(word, editsFor(word), last);
    return { exact, near, count: near.reduce((n, r) => n + this.table.count(r), this.table.count(exact)) };
  }

  /**
   * The level each item matches at (0: none), by position, and how many items matched at each
   * level. Candidates come from the most selective word's postings; the other words are checked
   * on each candidate's own tokens.
   */
  private match(matches: WordMatch[], years: readonly YearWord[], words: readonly string[], type: Searchable['type'] | undefined) {
    const levels = new Uint8Array(this.items.length);
    const counts = new Array<number>(RANKS.length + 1).fill(0);
    const [rarest] = matches;
    if (rarest === undefined) return { levels, counts };
    // An entry holding several tokens the rarest word matches comes up once for each.
    for (const range of [rarest.exact, ...rarest.near]) {
      for (const entry of this.table.entriesIn(range)) {
        const position = this.entryItem[entry]!;
        const was = levels[position]!;
        if (was === RANKS[0]) continue; // nothing to improve on
        if (type !== undefined && this.items[position]!.type !== type) continue;
        const held = this.held(entry, matches);
        if (held === 'none') continue;
        const title = this.entryTitle[entry]!;
        // A year word counts as typed when the title has it; else it may name the item's year.
        const inTitle = years.filter((y) => this.table.holds(entry, y.range));
        const yearNamed = years.some((y) => !inTitle.includes(y) && this.items[position]!.year === y.year);
        const typed = words.filter((w) => !years.some((y) => y.word === w && !inTitle.includes(y)));
        const query = typed.join('');
        const asTyped = () => Math.min(levelOf(title, query), levelOf(this.entryBare[entry]!, bare(typed))) as Level;
        const level = rankOf(held === 'exact' ? asTyped() : withinEdits(query, title, editsFor(query)) ? TYPO_TITLE : TYPO, yearNamed);
        if (was !== 0 && was <= level) continue;
        if (was !== 0) counts[was]!--;
        counts[level]!++;
        levels[position] = level;
      }
    }
    return { levels, counts };
  }

  /** Whether the entry holds every word: each as typed ('exact'), some only within their edits ('near'), or not ('none'). */
  private held(entry: number, matches: readonly WordMatch[]): 'exact' | 'near' | 'none' {
    let exact = true;
    for (const { exact: range, near } of matches) {
      if (this.table.holds(entry, range)) continue;
      if (!near.some((r) => this.table.holds(entry, r))) return 'none';
      exact = false;
    }
    return exact ? 'exact' : 'near';
  }

  /** The first `limit` matched items, level by level, in position order within a level. */
  private first(limit: number, levels: Uint8Array, counts: readonly number[]): T[] {
    const found: T[] = [];
    for (const level of RANKS) {
      // Stop scanning a level as soon as all its matches, or all that fit, are in.
      let wanted = Math.min(counts[level]!, limit - found.length);
      for (let position = 0; wanted > 0; position++) {
        if (levels[position] !== level) continue;
        found.push(this.items[position]!);
        wanted--;
      }
    }
    return found;
  }
}
