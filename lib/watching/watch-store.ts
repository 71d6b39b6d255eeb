// The ports of watch state: profiles (ProfileStore), and each profile's state of films and
// episodes with its shows' items: summary, last watched, episodes in progress, favourite (WatchStore).
// Their adapters: DynamoProfileStore (lib/watching/profile-store.ts) and DynamoWatchStore
// (lib/watching/store.ts), and MemoryWatchStore (lib/watching/memory-store.ts), which is both;
// held to the same contract by test/contracts/watch.ts.
import type { InProgressChange, Profile, ShowState, ShowSummary, StoredState, TitleStates } from './model';

export interface ProfileStore {
  /** Oldest first, the household's first (it is stored only once renamed, and always listed). */
  profiles(): Promise<Profile[]>;
  /** The household's is there even when never stored (DEFAULT_PROFILE itself). */
  profile(id: string): Promise<Profile | undefined>;
  /** A new profile, or `previous` renamed, its old name freed; NameTaken when another holds the name (compared without case). */
  save(profile: Profile, previous?: Profile): Promise<void>;
  /** Whether a name is held (the household's first name only once stored). */
  nameHeld(name: string): Promise<boolean>;
  /** The profile, its name and all of its state. */
  removeProfile(profile: Profile): Promise<void>;
}

export interface WatchStore {
  state(profileId: string, mediaId: string): Promise<StoredState | undefined>;
  /** Those of the items that have a state. */
  states(profileId: string, mediaIds: readonly string[]): Promise<Map<string, StoredState>>;
  /** Writes a state read with rev `expected` (null: none stored, or stored without a rev); its new rev, or StaleState when another write came between. */
  put(profileId: string, state: StoredState, expected: string | null): Promise<string>;
  /** Writes states as they are, whatever was written between. */
  putMany(profileId: string, states: StoredState[]): Promise<void>;

  /** The show's item: when it was last watched, its summary when given (else kept), and the change to its episodes in progress. */
  saveShow(
    profileId: string,
    showId: string,
    lastPlayedAt: string,
    summary?: ShowSummary,
    inProgressChange?: InProgressChange,
  ): Promise<void>;
  /** The items of those of the shows that have one: summary, last watched, favourite. */
  showStates(profileId: string, showIds: readonly string[]): Promise<Map<string, ShowState>>;
  /** The show's item marked a favourite or not, all else kept (made without a last watched when there is none); the item after. */
  favoriteShow(profileId: string, showId: string, favorite: boolean): Promise<ShowState>;
  /** Films and episodes with a position kept, most recently watched first. */
  inProgress(profileId: string, limit: number): Promise<StoredState[]>;
  /** Shows watched, most recently first, each with its next episode unless that one is in progress; finished shows left out. */
  nextEpisodes(profileId: string, limit: number): Promise<Array<{ showId: string; episodeId: string }>>;
  /** The played episodes of a show, by season then episode number. */
  playedEpisodes(profileId: string, showId: string): Promise<Array<{ seasonNumber: number; episodeNumber: number; id: string }>>;
  /** Every given profile's state of these items (gone for good), shows' items included. */
  removeItems(profileIds: readonly string[], mediaIds: readonly string[]): Promise<void>;
  /** The profile's films (their state) and shows (summary and last watched), by id. */
  titleStates(profileId: string): Promise<TitleStates>;
}
