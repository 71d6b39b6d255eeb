// In-memory search over movies and TV shows, behind GET /api/v1/search: their titles, original and
// alternative titles, and the people who made them. Everything a query needs is worked out when
// the index is built (normalised tokens in a sorted table, the recency order), so a search is two
// binary searches and a trie walk per query word, and one walk over the postings of its most
// selective word. Pure: no I/O, no dependencies; rebuild it when the catalogue changes.
import { editsFor, editsWithin, FuzzyTrie } from './fuzzy';
import { tokenize } from '../text/normalize';
import { mostRecentFirst } from './order';
import { TokenTable, type TokenRange } from './token-table';
import { titleTokens } from './tokens';
import { nextTurn } from '../util/pace';

export { normalize, tokenize } from '../text/normalize';

export interface Searchable {
  id: string;
  type: 'movie' | 'tvshow'; // the catalogue's MediaKind
  title: string;
  originalTitle: string | null;
  year: number | null;
  /** ISO 8601: the later of two same-year, same-level matches comes first. */
  addedAt: string;
  /** Other names the provider knows the title by (other countries, working titles). */
  alternativeTitles?: readonly string[];
  /** Directors (or a show's creators) first, then the first billed cast. */
  people?: readonly string[];
}

export interface SearchOptions {
  /** Only items of this type; both when absent. */
  type?: Searchable['type'];
  /** At most this many results (fractions round down); below 1 gives none. */
  limit?: number;
}

/** What a hit was found by. */
export type MatchedOn = 'title' | 'originalTitle' | 'alternativeTitle' | 'person';

export interface SearchHit<T> {
  item: T;
  matchedOn: MatchedOn;
  /** The title or name that matched, as the item has it. */
  matchedText: string;
}

export const DEFAULT_LIMIT = 20;

// How well one text matches, best first: as typed, then with typos. Texts are compared with their
// spaces taken out, so "spiderman" is the exact title "Spider-Man" and "walle" the exact title "WALL·E".
const EXACT = 0; // the whole text
const PREFIX = 1; // the start of it: "the dark" for "The Dark Knight"
const WORDS = 2; // each query word starts some word of it, in any order: "kni dark"
const TYPO_ONE = 3; // the whole text within one edit: "matirx" for "Matrix"
const TYPO_TWO = 4; // the whole text within two (a query of 8 letters or more): "briddges" for "Bridge"
const TYPO_WORDS = 5; // as WORDS, with some words within an edit or two of the text's: "matirx reloaded"
type Level = typeof EXACT | typeof PREFIX | typeof WORDS | typeof TYPO_ONE | typeof TYPO_TWO | typeof TYPO_WORDS;

// The fields a text comes from, in the order they weigh at one level.
const FIELDS: readonly MatchedOn[] = ['title', 'originalTitle', 'alternativeTitle', 'person'];
const PERSON = 3;

/**
 * The rank of a match, 1 first. Matches as typed come before matches with typos; within each,
 * titles before people (someone typing "heat" means the film before the actor Heather Graham,
 * someone typing "hanks" the actor before the title "Hawks"); then an item whose year a query
 * word names ("heat 1995", "dark knight 2012"); then the level; then, among titles, the field.
 */
const rankOf = (level: Level, field: number, yearNamed: boolean): number => {
  const typo = level >= TYPO_ONE ? 1 : 0;
  const person = field === PERSON ? 1 : 0;
  const named = yearNamed ? 0 : 1;
  return (((typo * 2 + person) * 2 + named) * 3 + (level % 3)) * 3 + (person ? 0 : field) + 1;
};
const RANKS = 2 * 2 * 2 * 3 * 3;

/** What one query word matches: the tokens it starts, and the tokens within its edits (lib/search/fuzzy.ts). */
interface WordMatch {
  exact: TokenRange;
  near: TokenRange[];
  /** Postings to walk for it: how selective it is. */
  count: number;
}

/** A four-digit number a film could be from: it may name the year rather than a word of the title. */
const yearIn = (word: string): number | undefined => {
  if (!/^\d{4}$/u.test(word)) return undefined;
  const year = Number(word);
  return year >= 1870 && year <= new Date().getFullYear() + 3 ? year : undefined;
};

/** A query word that may be a year: it matches the text's tokens or the item's year, and is not needed to match. */
interface YearWord {
  word: string;
  year: number;
  range: TokenRange;
}

const levelOf = (text: string, query: string): Level =>
  text === query ? EXACT : text.startsWith(query) ? PREFIX : WORDS;

// A leading article is left out as often as typed: "matrix" is the whole title "The Matrix".
const ARTICLES = new Set(['the', 'a', 'an', 'le', 'la', 'les', 'l', 'el', 'los', 'las', 'der', 'die', 'das', 'il', 'lo', 'gli']);
/** Words run together without a leading article (when more words follow it). */
const bare = (words: readonly string[]) => (words.length > 1 && ARTICLES.has(words[0]!) ? words.slice(1) : words).join('');

/** The texts an item is found by, with their fields: its own titles first. */
function* textsOf(item: Searchable): Generator<[field: number, text: string]> {
  yield [0, item.title];
  if (item.originalTitle !== null) yield [1, item.originalTitle];
  for (const title of item.alternativeTitles ?? []) yield [2, title];
  for (const name of item.people ?? []) yield [PERSON, name];
}

/** The entries being built: one per distinct text of a field, with the items that have it. */
class EntryBuilder {
  readonly field: number[] = [];
  readonly text: string[] = [];
  readonly joined: string[] = [];
  readonly bare: string[] = [];
  readonly tokens: string[][] = [];
  readonly items: number[][] = [];
  // Names recur across items (an actor's films), titles seldom (remakes): a text seen before is
  // looked up as given, before it is normalised again.
  private readonly byText = FIELDS.map(() => new Map<string, number>());
  private readonly byJoined = FIELDS.map(() => new Map<string, number>());

  /** The entry of a text of a field; -1 when it has nothing to search by. */
  entryFor(field: number, text: string): number {
    let entry = this.byText[field]!.get(text);
    if (entry !== undefined) return entry;
    const words = tokenize(text);
    const joined = words.join('');
    if (joined === '') entry = -1;
    else {
      entry = this.byJoined[field]!.get(joined);
      if (entry === undefined) {
        entry = this.field.length;
        this.byJoined[field]!.set(joined, entry);
        this.field.push(field);
        this.text.push(text);
        this.joined.push(joined);
        this.bare.push(bare(words));
        this.tokens.push(titleTokens(text, words));
        this.items.push([]);
      }
    }
    this.byText[field]!.set(text, entry);
    return entry;
  }

  /** Items come in position order, so a repeat is the last one. */
  link(entry: number, position: number): void {
    const items = this.items[entry]!;
    if (items.at(-1) !== position) items.push(position);
  }
}

/** Items gathered into entries and their tokens into a table, in recency order: all of a build but the trie. */
class Gathered<T> {
  constructor(
    readonly sorted: T[],
    readonly entries: EntryBuilder,
    readonly table: TokenTable,
  ) {}
}

/** Items between pauses of an incremental build: a few milliseconds of work. */
const GATHER_STEP = 2_000;

/** Gathers the items' texts into entries and tables their tokens, yielding between steps of a few milliseconds. */
function* gather<T extends Searchable>(items: Iterable<T>): Generator<void, Gathered<T>> {
  const sorted = mostRecentFirst(items);
  yield;
  const entries = new EntryBuilder();
  for (let position = 0; position < sorted.length; position++) {
    const titles: string[] = []; // an original or alternative title spelled as the title counts once
    for (const [field, text] of textsOf(sorted[position]!)) {
      const entry = entries.entryFor(field, text);
      if (entry < 0) continue;
      if (field !== PERSON) {
        const joined = entries.joined[entry]!;
        if (titles.includes(joined)) continue;
        titles.push(joined);
      }
      entries.link(entry, position);
    }
    if (position % GATHER_STEP === GATHER_STEP - 1) yield;
  }
  yield;
  const table = new TokenTable(entries.tokens);
  yield;
  return new Gathered(sorted, entries, table);
}

/** Runs a generator to its end without pausing. */
const finish = <R>(steps: Generator<void, R>): R => {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
};

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
    const years = yearWords.length < distinct.length ? yearWords.map((word) => ({ word, year: yearIn(word)!, range: this.table.range(word) })) : [];
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
          const rank = rankOf(level, field, named.some((y) => item.year === y.year));
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
