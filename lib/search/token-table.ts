// Prefix lookup over every indexed token. Tokens are sorted, so all tokens with a given prefix form
// one contiguous run of ids, and their postings one contiguous slice: a query word costs two binary
// searches, and "does this entry have a token with that prefix" is an integer range test.
import { firstWhere } from '../util/first-where';

/** Token ids [lo, hi): the tokens starting with one query word. */
export interface TokenRange {
  readonly lo: number;
  readonly hi: number;
}

export class TokenTable {
  /** Distinct tokens in code-unit order, the order `startsWith` runs are contiguous in. */
  private readonly tokens: string[];
  /** The entries holding token i are postings[postingStart[i] .. postingStart[i + 1]). */
  private readonly postingStart: Uint32Array;
  private readonly postings: Uint32Array;
  /** The token ids of entry e are entryTokens[entryStart[e] .. entryStart[e + 1]), ascending. */
  private readonly entryStart: Uint32Array;
  private readonly entryTokens: Uint32Array;

  /** Entry e is tokensByEntry[e]; its tokens must be distinct. */
  constructor(tokensByEntry: readonly (readonly string[])[]) {
    this.tokens = [...new Set(tokensByEntry.flat())].sort();
    const idOf = new Map(this.tokens.map((token, id) => [token, id]));

    this.entryStart = new Uint32Array(tokensByEntry.length + 1);
    this.entryTokens = new Uint32Array(tokensByEntry.reduce((sum, tokens) => sum + tokens.length, 0));
    const perToken = new Uint32Array(this.tokens.length);
    let at = 0;
    tokensByEntry.forEach((tokens, entry) => {
      const ids = tokens.map((token) => idOf.get(token) ?? 0).sort((a, b) => a - b);
      this.entryTokens.set(ids, at);
      at += ids.length;
      this.entryStart[entry + 1] = at;
      for (const id of ids) perToken[id] = (perToken[id] ?? 0) + 1;
    });

    this.postingStart = new Uint32Array(this.tokens.length + 1);
    let total = 0;
    perToken.forEach((count, id) => {
      total += count;
      this.postingStart[id + 1] = total;
    });
    this.postings = new Uint32Array(total);
    const free = this.postingStart.slice(0, -1); // token i's next free slot in postings
    for (let entry = 0; entry < tokensByEntry.length; entry++) {
      for (const id of this.tokenIdsOf(entry)) {
        const slot = free[id] ?? 0;
        this.postings[slot] = entry;
        free[id] = slot + 1;
      }
    }
  }

  /** Every token, in id order (sorted). */
  get all(): readonly string[] {
    return this.tokens;
  }

  /** The tokens starting with `prefix`. */
  range(prefix: string): TokenRange {
    const lo = this.firstIndex((token) => token >= prefix);
    const hi = this.firstIndex((token) => !token.startsWith(prefix), lo);
    return { lo, hi };
  }

  /** How many postings the range has: the cost of walking it, the measure of how selective it is. */
  count({ lo, hi }: TokenRange): number {
    return (this.postingStart[hi] ?? 0) - (this.postingStart[lo] ?? 0);
  }

  /** The entries holding a token in the range; an entry holding several appears once for each. */
  entriesIn({ lo, hi }: TokenRange): Uint32Array {
    return this.postings.subarray(this.postingStart[lo], this.postingStart[hi]);
  }

  /** Whether the entry holds a token in the range. */
  holds(entry: number, { lo, hi }: TokenRange): boolean {
    for (const id of this.tokenIdsOf(entry)) {
      if (id >= hi) return false; // ids ascend
      if (id >= lo) return true;
    }
    return false;
  }

  private tokenIdsOf(entry: number): Uint32Array {
    return this.entryTokens.subarray(this.entryStart[entry], this.entryStart[entry + 1]);
  }

  /** The first index from `from` where `past` holds; `past` must be false then true along the tokens. */
  private firstIndex(past: (token: string) => boolean, from = 0): number {
    return firstWhere(this.tokens, (token) => past(token ?? ''), from);
  }
}
