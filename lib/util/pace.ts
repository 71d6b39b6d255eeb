// Handing the event loop back during long work, so a process serving requests goes on serving
// them while it walks a big tree or builds a big index: a turn of the loop runs whatever I/O
// callbacks are waiting before the work goes on.

/** Resolves on the next turn of the event loop, after the I/O callbacks waiting there. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Hands the event loop back every `every` steps, counted across all the work in flight: each
 * read of a walk resumes in its own callback, and a count per read would let many of them run
 * in one turn. Everyone waiting goes on in one `setImmediate`, in the order they stopped.
 */
export class Pacer {
  private steps = 0;
  private waiting: Array<() => void> | undefined;

  constructor(readonly every: number) {}

  /** True when this turn's share is used up: stop, and go on from `resume` (or `nextTurn`). */
  spent(steps = 1): boolean {
    return this.waiting !== undefined || (this.steps += steps) >= this.every;
  }

  nextTurn(): Promise<void> {
    return new Promise((next) => this.resume(next));
  }

  /** Calls `next` on the next turn of the event loop, after whatever else is waiting there. */
  resume(next: () => void) {
    if (this.waiting === undefined) {
      const waiting: Array<() => void> = (this.waiting = []);
      setImmediate(() => {
        this.waiting = undefined;
        this.steps = 0;
        for (const go of waiting) go();
      });
    }
    this.waiting.push(next);
  }
}
