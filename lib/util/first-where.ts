// The one binary search: the first index of an ordered list at which a test starts to hold.

/** The first index from `from` where `holds` is true; it must be false, then true, along `list`. */
export const firstWhere = <T>(list: ArrayLike<T>, holds: (value: T) => boolean, from = 0): number => {
  let lo = from;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (holds(list[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
};
