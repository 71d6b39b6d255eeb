// The shapes of watch state: profiles (no passwords: the LAN is trusted), each profile's state of
// a film or an episode as stored, and what it has seen of a show. The rules over one item's state
// are in rules.ts; where they are stored, store.ts and profile-store.ts.
import type { WatchState } from './rules';

export interface Profile {
  id: string;
  name: string;
  createdAt: string;
}

/** There is always one: the household's, until someone names their own. */
export const DEFAULT_PROFILE: Profile = { id: 'default', name: 'Household', createdAt: '1970-01-01T00:00:00.000Z' };

/** Where an item sits, so its state can be indexed without reading the catalogue again. */
export type Placement = { entity: 'movie' } | { entity: 'episode'; showId: string; seasonNumber: number; episodeNumber: number };

export interface StoredState extends WatchState {
  mediaId: string;
  placement: Placement;
  /** Changes with every write: a write that expects the one it read fails if another came between. */
  rev?: string;
}

/** A show's item as lists read it: its summary (none before a mark changed), when it was last watched (null: never, only a favourite), and whether it is a favourite. */
export interface ShowState {
  summary: ShowSummary | undefined;
  lastPlayedAt: string | null;
  favorite: boolean;
}

/** A profile's films (their own state) and shows (their item), by id. */
export interface TitleStates {
  films: Map<string, StoredState>;
  shows: Map<string, ShowState>;
}

/** A state written by someone else since it was read: read it again. */
export class StaleState extends Error {}

/** What a state's write does to its show's episodes in progress (Next up leaves those out). */
export type InProgressChange = { add: string } | { remove: string } | 'clear';

/**
 * What a profile has seen of a show, kept on its item when a mark changes: lists and Next up
 * read it as it is. The item also holds the show's episodes in progress, kept as their
 * positions come and go, so Next up reads no episode's state.
 */
export interface ShowSummary {
  playedEpisodes: number;
  totalEpisodes: number;
  /** The episode after the highest played one (specials left out); null when the last is played. */
  nextEpisodeId: string | null;
}

/** A name another profile has (or the household's while it has it). */
export class NameTaken extends Error {}
