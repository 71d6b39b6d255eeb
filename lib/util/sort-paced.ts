// Array#sort in slices, with pauses between them: sorting 100,000 paths in one go holds the
// event loop for tens of milliseconds. Sorted runs of one turn's share of work (the pacer's
// `every`), then merged pairwise.
import type { Pacer } from './pace';

/** The items in `order`, stably; pauses whenever the pacer says this turn's share is spent. */
export const sortPaced = async <T>(items: T[], order: (a: T, b: T) => number, pacer: Pacer): Promise<T[]> => {
  const run = pacer.every;
  let runs: T[][] = [];
  for (let start = 0; start < items.length; start += run) {
    runs.push(items.slice(start, start + run).sort(order));
    if (pacer.spent(run)) await pacer.nextTurn();
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let i = 0; i < runs.length; i += 2)
      merged.push(i + 1 < runs.length ? await mergePaced(runs[i]!, runs[i + 1]!, order, pacer) : runs[i]!);
    runs = merged;
  }
  return runs[0] ?? [];
};

/** Two sorted runs as one; on ties the first run's item first, so the sort stays stable. */
const mergePaced = async <T>(first: T[], second: T[], order: (a: T, b: T) => number, pacer: Pacer): Promise<T[]> => {
  const out: T[] = [];
  let i = 0;
  let j = 0;
  while (i < first.length && j < second.length) {
    if (pacer.spent()) await pacer.nextTurn();
    out.push(order(second[j]!, first[i]!) < 0 ? second[j++]! : first[i++]!);
  }
  while (i < first.length) out.push(first[i++]!);
  while (j < second.length) out.push(second[j++]!);
  return out;
};
