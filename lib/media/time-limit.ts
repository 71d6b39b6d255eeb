// Stopping synchronous code that runs too long. A WebAssembly call that loops forever never
// returns to the event loop, so no timer or signal can reach it (a corrupted file sent
// MediaInfoLib into such a loop). V8 can terminate a script that overruns: node:vm's `timeout`
// starts a watchdog thread for the run, and a function called from that script is under it
// too. About 50 µs per call.
import { createContext, Script } from 'node:vm';

export class TimeLimitExceeded extends Error {
  constructor(readonly limitMs: number) {
    super(`Stopped after ${limitMs} ms`);
    this.name = new.target.name;
  }
}

// createContext answers the object it was given, contextified (typed only as a bag of any).
const sandbox = createContext({ guarded: undefined }) as { guarded: (() => unknown) | undefined };
const callGuarded = new Script('guarded()');

/** `fn()`, terminated with TimeLimitExceeded if it runs longer than `limitMs`. Errors it throws pass through. */
export const callWithin = <T>(limitMs: number, fn: () => T): T => {
  const timeout = Math.max(1, Math.min(Math.ceil(limitMs), 2 ** 31 - 1));
  const previous = sandbox.guarded;
  sandbox.guarded = fn;
  try {
    return callGuarded.runInContext(sandbox, { timeout }) as T;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw new TimeLimitExceeded(timeout);
    throw error;
  } finally {
    sandbox.guarded = previous;
  }
};
