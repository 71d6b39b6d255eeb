// A value computed from the catalogue and kept per process until the catalogue's version
// stamp moves (one GetItem to check). Concurrent callers share one computation, and a failed
// one is forgotten so the next call tries again.
interface Versioned {
  version(): Promise<number>;
}

export const versionCached = <A, T>(compute: (arg: A) => Promise<T>) => {
  let cached: { version: number; value: Promise<T> } | undefined;
  return async (stamp: Versioned, arg: A): Promise<T> => {
    const version = await stamp.version();
    if (!cached || cached.version !== version) {
      const value = compute(arg);
      cached = { version, value };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
};
