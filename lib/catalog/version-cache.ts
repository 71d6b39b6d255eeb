// A value computed from the catalogue and kept per process until the catalogue's version
// stamp moves (one GetItem to check). Concurrent callers share one computation, and a failed
// one is forgotten so the next call tries again. `recheckAfterMs` lets a value that may lag a
// little (a list's total) skip the check for that long.
interface Versioned {
  version(): Promise<number>;
}

export const versionCached = <A, T>(compute: (arg: A) => Promise<T>, { recheckAfterMs = 0, clock = Date.now } = {}) => {
  let cached: { version: number; checkedAt: number; value: Promise<T> } | undefined;
  return async (stamp: Versioned, arg: A): Promise<T> => {
    if (cached && recheckAfterMs > 0 && clock() - cached.checkedAt < recheckAfterMs) return cached.value;
    const checkedAt = clock();
    const version = await stamp.version();
    if (!cached || cached.version !== version) {
      const value = compute(arg);
      cached = { version, checkedAt, value };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    } else {
      cached.checkedAt = checkedAt;
    }
    return cached.value;
  };
};
