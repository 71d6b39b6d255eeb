// The incremental part of a build: items sorted by recency, their texts gathered into entries
// (one per distinct text of a field) and the entries' tokens into a table. A generator, so a
// build can pause between steps of a few milliseconds (SearchIndex.build) or run straight
// through (the SearchIndex constructor).
import { tokenize } from '../text/normalize';
import type { Searchable } from './model';
import { mostRecentFirst } from './order';
import { bare, FIELDS, PERSON } from './ranking';
import { TokenTable } from './token-table';
import { titleTokens } from './tokens';

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
export class Gathered<T> {
  constructor(
    readonly sorted: T[],
    readonly entries: EntryBuilder,
    readonly table: TokenTable,
  ) {}
}

/** Items between pauses of an incremental build: a few milliseconds of work. */
const GATHER_STEP = 2_000;

/** Gathers the items' texts into entries and tables their tokens, yielding between steps of a few milliseconds. */
export function* gather<T extends Searchable>(items: Iterable<T>): Generator<void, Gathered<T>> {
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
export const finish = <R>(steps: Generator<void, R>): R => {
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
};
