// A clock a test moves by hand, for the rules that go by time (a session's idle time, reports
// coalesced within a second): the code under test is given `now`, and the test `advance`s it
// instead of sleeping.
export interface FakeClock {
  now: () => number;
  advance: (ms: number) => void;
}

/** Starts at `start` (now, by default: a store may also stamp expiry times with it). */
export const fakeClock = (start = Date.now()): FakeClock => {
  let at = start;
  return {
    now: () => at,
    advance: (ms) => {
      at += ms;
    },
  };
};
