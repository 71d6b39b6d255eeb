// In-memory search over movies and TV shows, behind GET /api/v1/search: their titles, original and
// alternative titles, and the people who made them. Everything a query needs is worked out when
// the index is built (normalised tokens in a sorted table, the recency order), so a search is two
// binary searches and a trie walk per query word, and one walk over the postings of its most
// selective word. Pure: no I/O, no dependencies; rebuild it when the catalogue changes.
import { tokenize } from '../text/normalize';
import { nextTurn } from '../util/pace';
import { finish, gather, Gathered } from './builder';
import { editsFor, editsWithin, FuzzyTrie } from './fuzzy';
import { DEFAULT_LIMIT, type SearchHit, type Searchable, type SearchOptions } from './model';
import { bare, FIELDS, levelOf, rankOf, RANKS, TYPO_ONE, TYPO_TWO, TYPO_WORDS, yearIn, type Level } from './ranking';
import type { TokenRange, TokenTable } from './token-table';

/** What one query word matches: the tokens it starts, and the tokens within its edits (lib/search/fuzzy.ts). */
interface WordMatch {
  exact: TokenRange;
  near: TokenRange[];
  /** Postings to walk for it: how selective it is. */
  count: number;
}

/** A query word that may be a year: it matches the text's tokens or the item's year, and is not needed to match. */
interface YearWord {
  word: string;
  year: number;
  range: TokenRange;
}

export class SearchIndex<T extends Searchable> {
  /** Most recent first: within a rank, results come in this order. */
  private readonly items: T[];
  // One entry per distinct text of a field (a title, an original or alternative title, a name),
  // and the items that have it, ascending. An item matches at the best rank of its entries; a
  // query is matched against one text at a time, never words of one with words of another.
  private readonly entryField: Uint8Array;
  private readonly entryText: string[]; // as the item has it, for the hit
  private readonly entryJoined: string[]; // normalised, spaces taken out
  private readonly entryBare: string[]; // the same without a leading article
  private readonly entryItemStart: Uint32Array;
  private readonly entryItems: Uint32Array;
  private readonly table: TokenTable;
  private readonly trie: FuzzyTrie;

  constructor(items: Iterable<T> | Gathered<T>) {
    const { sorted, entries, table } = items instanceof Gathered ? items : finish(gather(items));
    this.items = sorted;
    this.entryField = Uint8Array.from(entries.field);
    this.entryText = entries.text;
    this.entryJoined = entries.joined;
    this.entryBare = entries.bare;
    this.entryItemStart = new Uint32Array(entries.items.length + 1);
    entries.items.forEach((list, entry) => (this.entryItemStart[entry + 1] = this.entryItemStart[entry]! + list.length));
    this.entryItems = Uint32Array.from(entries.items.flat());
    this.table = table;
    this.trie = new FuzzyTrie(this.table.all);
  }

  /**
   * The same index, built with a pause (a turn of the event loop) after every few thousand items,
   * so a process serving requests goes on serving them while a big catalogue is indexed.
   */
  static async build<T extends Searchable>(items: Iterable<T>, pause: () => Promise<void> = nextTurn): Promise<SearchIndex<T>> {
    const steps = gather(items);
    for (let step = steps.next(); ; step = steps.next()) {
      if (step.done) return new SearchIndex(step.value);
      await pause();
    }
  }

  get size(): number {
    return this.items.length;
  }

  /** Best match first; [] when the query has no letters or digits. */
  search(query: string, { type, limit = DEFAULT_LIMIT }: SearchOptions = {}): SearchHit<T>[] {
    const words = tokenize(query);
    const max = Math.floor(limit);
    if (words.length === 0 || !(max > 0)) return [];
    // The last word may still be being typed: it matches the starts of words, typos included.
    const last = words.at(-1)!;
    const distinct = [...new Set(words)];
    // Years lift the items from them; a query of years alone is a title ("2012").
    const yearWords = distinct.filter((w) => yearIn(w) !== undefined);
    const years =
      yearWords.length < distinct.length ? yearWords.map((word) => ({ word, year: yearIn(word)!, range: this.table.range(word) })) : [];
    const matches = distinct
      .filter((word) => !years.some((y) => y.word === word))
      .map((word) => this.wordMatch(word, word === last))
      .sort((a, b) => a.count - b.count);
    if (matches[0]!.count === 0) return []; // a word no text has, nor anything near it
    const found = this.match(matches, years, words, type);
    return this.first(max, found);
  }

  private wordMatch(word: string, last: boolean): WordMatch {
    const exact = this.table.range(word);
    const near = this.trie.near(word, editsFor(word), last);
    return { exact, near, count: near.reduce((n, r) => n + this.table.count(r), this.table.count(exact)) };
  }

  /**
   * The rank each item matches at (0: none) and the entry that gave it, by position, and how many
   * items matched at each rank. Candidates come from the most selective word's postings; the
   * other words are checked on each candidate's own tokens.
   */
  private match(matches: WordMatch[], years: readonly YearWord[], words: readonly string[], type: Searchable['type'] | undefined) {
    const ranks = new Uint8Array(this.items.length);
    const by = new Uint32Array(this.items.length);
    const counts = new Array<number>(RANKS + 1).fill(0);
    const [rarest] = matches;
    // An entry holding several tokens the rarest word matches comes up once for each.
    for (const range of [rarest!.exact, ...rarest!.near]) {
      for (const entry of this.table.entriesIn(range)) {
        const held = this.held(entry, matches);
        if (held === 'none') continue;
        // A year word counts as typed when the text has it; else it may name the item's year.
        const inText = years.filter((y) => this.table.holds(entry, y.range));
        const named = years.filter((y) => !inText.includes(y));
        const query = words.filter((w) => !named.some((y) => y.word === w));
        const level = held === 'exact' ? this.levelAsTyped(entry, query) : this.levelNear(entry, query.join(''));
        const field = this.entryField[entry]!;
        for (let at = this.entryItemStart[entry]!, end = this.entryItemStart[entry + 1]!; at < end; at++) {
          const position = this.entryItems[at]!;
          const item = this.items[position]!;
          if (type !== undefined && item.type !== type) continue;
          const rank = rankOf(
            level,
            field,
            named.some((y) => item.year === y.year),
          );
          const was = ranks[position]!;
          if (was !== 0 && was <= rank) continue;
          if (was !== 0) counts[was]!--;
          counts[rank]!++;
          ranks[position] = rank;
          by[position] = entry;
        }
      }
    }
    return { ranks, by, counts };
  }

  private levelAsTyped(entry: number, query: readonly string[]): Level {
    const joined = query.join('');
    return Math.min(levelOf(this.entryJoined[entry]!, joined), levelOf(this.entryBare[entry]!, bare(query))) as Level;
  }

  /** Typed with typos: the whole text (with or without its article) within one edit, or two, or only its words. */
  private levelNear(entry: number, query: string): Level {
    const edits = editsFor(query);
    const whole = Math.min(editsWithin(query, this.entryJoined[entry]!, edits), editsWithin(query, this.entryBare[entry]!, edits));
    return whole <= 1 ? TYPO_ONE : whole <= 2 ? TYPO_TWO : TYPO_WORDS;
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

  /** The first `limit` matched items, rank by rank, in position order within a rank. */
  private first(limit: number, { ranks, by, counts }: ReturnType<SearchIndex<T>['match']>): SearchHit<T>[] {
    const found: SearchHit<T>[] = [];
    for (let rank = 1; rank <= RANKS; rank++) {
      // Stop scanning a rank as soon as all its matches, or all that fit, are in.
      let wanted = Math.min(counts[rank]!, limit - found.length);
      for (let position = 0; wanted > 0; position++) {
        if (ranks[position] !== rank) continue;
        const entry = by[position]!;
        found.push({ item: this.items[position]!, matchedOn: FIELDS[this.entryField[entry]!]!, matchedText: this.entryText[entry]! });
        wanted--;
      }
    }
    return found;
  }
}
