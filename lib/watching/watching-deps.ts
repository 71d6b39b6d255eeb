// What the parts of watch state are given (lib/deps.ts builds them once for the process).
import type { CatalogStore } from '../catalog/store';
import type { EventSink } from '../events/sink';
import type { Log } from '../log';
import type { Thresholds } from './rules';
import type { ProfileStore, WatchStore } from './watch-store';

export interface WatchingDeps {
  profiles: ProfileStore;
  store: WatchStore;
  catalog: CatalogStore;
  /** The thresholds as the settings have them now. */
  thresholds: () => Promise<Thresholds>;
  events: EventSink;
  log: Log;
  /**
   * Every handler in one long-lived process (lib/runtime.ts, `shared-process`): a report of an
   * item it knows is answered at once and written right behind the answer (coalesced to one
   * write a second), and each profile's film and show states are kept; every reader goes through
   * this one service, so each sees what is pending. In a Lambda (frozen once it has answered, and
   * one of many) every report is written before its answer and lists read what they show.
   */
  sharedProcess?: boolean;
  clock?: () => number;
  newId?: () => string;
}

/** The time now by the deps' clock (the wall clock unless a test gives one). */
export const nowOf = (deps: Pick<WatchingDeps, 'clock'>): number => (deps.clock ?? Date.now)();
