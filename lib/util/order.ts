// The one order of plain values the code sorts by where the result must not depend on the
// machine's locale (paths, ids, keys): strings by UTF-16 code unit, which is the order of
// Array#sort without a comparer and the same on every machine (and far cheaper than a
// locale's collation), and numbers by value. Text shown to people is ordered with
// localeCompare where it is shown (the subtitle menu's labels), not with this.

/** Negative when `a` comes first, positive when `b` does, 0 when neither. */
export const ascending = <V extends string | number>(a: V, b: V): number => (a < b ? -1 : a > b ? 1 : 0);
