// Typo tolerance: the tokens within a few edits of a query word. A trie over the token table's
// sorted tokens (each node knows the run of token ids below it) is walked with one row of the
// optimal-string-alignment distance per node (a transposition is one edit), cut off as soon as no
// cell of a row is within reach. A word matches whole tokens; the last word typed also matches
// tokens that start with something within reach. docs/search-typos.md has why a trie: 0.5-0.8 ms
// p99 and 12 MiB at 100,000 titles, against 178 MiB and no prefixes for a deletion index.
import type { TokenRange } from './token-table';

/** Edits allowed for a query word: none below 4 letters, one up to 7, two from 8. */
export const editsFor = (word: string): number => (word.length < 4 || !/^\p{L}+$/u.test(word) ? 0 : word.length < 8 ? 1 : 2);

/**
 * The edits from `a` to `b` (optimal string alignment: a swap of neighbours is one edit) when
 * they are at most `edits`, else Infinity; stops as soon as a row is out of reach.
 */
export const editsWithin = (a: string, b: string, edits: number): number => {
  if (Math.abs(a.length - b.length) > edits) return Infinity;
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      let d = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      next.push(d);
      if (d < best) best = d;
    }
    if (best > edits) return Infinity;
    before = row;
    row = next;
  }
  return row[b.length]! <= edits ? row[b.length]! : Infinity;
};

export class FuzzyTrie {
  // Node 0 is the root. Children of a node are consecutive siblings, in token order.
  private readonly char: Uint16Array;
  private readonly firstChild: Int32Array;
  private readonly nextSibling: Int32Array;
  /** The token ids below the node (its own first, when a token ends there): [lo, hi). */
  private readonly lo: Uint32Array;
  private readonly hi: Uint32Array;
  private readonly ends: Uint8Array;

  /** `tokens` sorted, distinct: the token table's. */
  constructor(tokens: readonly string[]) {
    const char = [0];
    const firstChild = [-1];
    const nextSibling = [-1];
    const lastChild = [-1];
    const lo = [0];
    const hi = [tokens.length];
    const ends = [0];
    const path = [0]; // the nodes of the previous token, by depth
    let previous = '';
    tokens.forEach((token, id) => {
      let shared = 0;
      while (shared < token.length && shared < previous.length && token.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      path.length = shared + 1;
      for (let depth = shared; depth < token.length; depth++) {
        const parent = path[depth]!;
        const node = char.length;
        char.push(token.charCodeAt(depth));
        firstChild.push(-1);
        nextSibling.push(-1);
        lastChild.push(-1);
        lo.push(id);
        hi.push(id + 1);
        ends.push(0);
        if (lastChild[parent] === -1) firstChild[parent] = node;
        else nextSibling[lastChild[parent]!] = node;
        lastChild[parent] = node;
        path.push(node);
      }
      for (let depth = 1; depth <= token.length; depth++) hi[path[depth]!] = id + 1;
      ends[path[token.length]!] = 1;
      previous = token;
    });
    this.char = Uint16Array.from(char);
    this.firstChild = Int32Array.from(firstChild);
    this.nextSibling = Int32Array.from(nextSibling);
    this.lo = Uint32Array.from(lo);
    this.hi = Uint32Array.from(hi);
    this.ends = Uint8Array.from(ends);
  }

  /** The token runs within `edits` of `word` (whole tokens, or with `prefix` tokens starting within reach of it). */
  near(word: string, edits: number, prefix: boolean): TokenRange[] {
    const found: TokenRange[] = [];
    if (edits === 0) return found;
    const m = word.length;
    const first = Array.from({ length: m + 1 }, (_, j) => j);
    const visit = (node: number, depth: number, previousChar: number, before: number[] | null, row: number[]) => {
      for (let child = this.firstChild[node]!; child !== -1; child = this.nextSibling[child]!) {
        const c = this.char[child]!;
        const next = new Array<number>(m + 1);
        next[0] = depth + 1;
        let best = next[0];
        for (let j = 1; j <= m; j++) {
          const w = word.charCodeAt(j - 1);
          let d = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (c === w ? 0 : 1));
          if (before && j > 1 && c === word.charCodeAt(j - 2) && previousChar === w) d = Math.min(d, before[j - 2]! + 1);
          next[j] = d;
          if (d < best) best = d;
        }
        if (best > edits) continue;
        if (prefix && next[m]! <= edits) {
          found.push({ lo: this.lo[child]!, hi: this.hi[child]! });
          continue; // every token below starts within reach
        }
        if (!prefix && this.ends[child] && next[m]! <= edits) found.push({ lo: this.lo[child]!, hi: this.lo[child]! + 1 });
        visit(child, depth + 1, c, row, next);
      }
    };
    visit(0, 0, -1, null, first);
    return found;
  }
}
