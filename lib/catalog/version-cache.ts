// A value computed from the catalogue and kept per process until the catalogue's version
// stamp moves (one GetItem to check). Concurrent callers share one computation, and a failed
// one is forgotten so the next call tries again. `recheckAfterMs` lets a value that may lag a
// little (a list's total) skip the check for that long.
//
// A stamp moved by a running scan's chunk is quiet (CatalogStore.bumpVersion): callers then
// get the last value while the next one is computed behind them, one computation at a time,
// so a list or a search never waits for a rebuild every chunk of a scan. Any other move (a
// scan's end, a match fixed, a library removed) is waited for, so what a person changed is
// what they see next.
export interface VersionState {
  version: number;
  /** Moved by a running scan: a reader may be answered from the last value while the next is made. */
  quiet: boolean;
}

export interface Versioned {
  version(): Promise<number>;
  versionState?(): Promise<VersionState>;
}

const stateOf = async (stamp: Versioned): Promise<VersionState> => (stamp.versionState ? stamp.versionState() : { version: await stamp.version(), quiet: false });

export const versionCached = <A, T>(compute: (arg: A) => Promise<T>, { recheckAfterMs = 0, clock = Date.now } = {}) => {
  let cached: { version: number; checkedAt: number; value: Promise<T>; settled: boolean } | undefined;
  /** The last value computed, for quiet moves. */
  let ready: { version: number; value: T } | undefined;
  const start = (version: number, arg: A, checkedAt: number) => {
    const value = compute(arg);
    const entry = { version, checkedAt, value, settled: false };
    cached = entry;
    value.then(
      (v) => {
        entry.settled = true;
        if (!ready || ready.version < version) ready = { version, value: v };
      },
      () => {
        entry.settled = true;
        if (cached === entry) cached = undefined;
      },
    );
    return entry;
  };
  return async (stamp: Versioned, arg: A): Promise<T> => {
    if (cached && recheckAfterMs > 0 && clock() - cached.checkedAt < recheckAfterMs) return cached.value;
    const checkedAt = clock();
    const { version, quiet } = await stateOf(stamp);
    if (quiet && ready) {
      if (ready.version === version) return ready.value;
      // One computation at a time behind the readers (every reader of this stamp, not only the
      // first, is answered from the last value meanwhile); a newer stamp waits for it to end.
      if (!cached || cached.settled) start(version, arg, checkedAt).value.catch(() => undefined);
      return ready.value;
    }
    if (cached?.version === version) {
      cached.checkedAt = checkedAt;
      return cached.value;
    }
    return start(version, arg, checkedAt).value;
  };
};
