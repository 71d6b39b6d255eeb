// Watch state held in this process's memory: the ProfileStore and WatchStore ports with DynamoDB's semantics
// (test/contracts/watch.ts holds both to them). Names are folded and lists ordered by the same
// keys the table uses (lib/db/table.ts); a state's write expects the rev it was read with, as
// the table's conditional write does.
import { randomBytes } from 'node:crypto';
import { keys } from '../db/table';
import { ascending } from '../util/order';
import { storedCopy } from '../util/stored-copy';
import { inProgress } from './rules';
import {
  DEFAULT_PROFILE,
  NameTaken,
  StaleState,
  type InProgressChange,
  type Profile,
  type ShowState,
  type ShowSummary,
  type StoredState,
  type TitleStates,
} from './model';
import type { ProfileStore, WatchStore } from './watch-store';

/** A show's item: when it was last watched (null: made by a favourite), its summary once a mark changed, its episodes in progress, whether it is a favourite. */
interface ShowItem {
  lastPlayedAt: string | null;
  summary?: ShowSummary;
  inProgressEpisodes: Set<string>;
  favorite: boolean;
}

/** A profile's films' and episodes' states by id, and its shows' items by id. */
interface ProfileState {
  items: Map<string, StoredState>;
  shows: Map<string, ShowItem>;
}

const nameKey = (name: string) => keys.profileName(name).pk;
const newRev = () => randomBytes(6).toString('base64url');

/** The state as the table's item holds it, with its new rev (what is not given reads as nothing). */
const stored = (state: StoredState, rev: string): StoredState =>
  storedCopy({
    mediaId: state.mediaId,
    placement: state.placement,
    positionSeconds: state.positionSeconds ?? 0,
    durationSeconds: state.durationSeconds ?? null,
    played: Boolean(state.played),
    playCount: state.playCount ?? 0,
    lastPlayedAt: state.lastPlayedAt ?? null,
    counted: Boolean(state.counted),
    favorite: Boolean(state.favorite),
    rev,
  });

export class MemoryWatchStore implements ProfileStore, WatchStore {
  private readonly profilesById = new Map<string, Profile>();
  /** Each name held (folded), and by which profile. */
  private readonly names = new Map<string, string>();
  private readonly byProfile = new Map<string, ProfileState>();

  private of(profileId: string): ProfileState {
    let state = this.byProfile.get(profileId);
    if (!state) this.byProfile.set(profileId, (state = { items: new Map(), shows: new Map() }));
    return state;
  }

  // --- Profiles ----------------------------------------------------------------------------

  async profiles(): Promise<Profile[]> {
    const found = [...this.profilesById.values()]
      .sort((a, b) => ascending(`${a.createdAt}#${a.id}`, `${b.createdAt}#${b.id}`))
      .map(storedCopy);
    return found.some((p) => p.id === DEFAULT_PROFILE.id) ? found : [DEFAULT_PROFILE, ...found];
  }

  async profile(id: string): Promise<Profile | undefined> {
    const found = this.profilesById.get(id);
    if (found) return storedCopy(found);
    return id === DEFAULT_PROFILE.id ? DEFAULT_PROFILE : undefined;
  }

  async save(profile: Profile, previous?: Profile): Promise<void> {
    const sameName = previous !== undefined && nameKey(previous.name) === nameKey(profile.name);
    // Refused whole, as the table's transaction is: nothing is written.
    if (!sameName && this.names.has(nameKey(profile.name))) throw new NameTaken(profile.name);
    this.profilesById.set(profile.id, storedCopy(profile));
    if (sameName) return;
    if (previous) this.names.delete(nameKey(previous.name));
    this.names.set(nameKey(profile.name), profile.id);
  }

  async nameHeld(name: string): Promise<boolean> {
    return this.names.has(nameKey(name));
  }

  async removeProfile(profile: Profile): Promise<void> {
    this.profilesById.delete(profile.id);
    this.names.delete(nameKey(profile.name));
    this.byProfile.delete(profile.id);
  }

  // --- State -------------------------------------------------------------------------------

  async state(profileId: string, mediaId: string): Promise<StoredState | undefined> {
    const found = this.byProfile.get(profileId)?.items.get(mediaId);
    return found && storedCopy(found);
  }

  async states(profileId: string, mediaIds: readonly string[]): Promise<Map<string, StoredState>> {
    const items = this.byProfile.get(profileId)?.items;
    const found = new Map<string, StoredState>();
    for (const id of mediaIds) {
      const state = items?.get(id);
      if (state) found.set(id, storedCopy(state));
    }
    return found;
  }

  async put(profileId: string, state: StoredState, expected: string | null): Promise<string> {
    const { items } = this.of(profileId);
    const current = items.get(state.mediaId)?.rev;
    if (expected === null ? current !== undefined : current !== expected) throw new StaleState(state.mediaId);
    const rev = newRev();
    items.set(state.mediaId, stored(state, rev));
    return rev;
  }

  async putMany(profileId: string, states: StoredState[]): Promise<void> {
    const { items } = this.of(profileId);
    for (const state of states) items.set(state.mediaId, stored(state, newRev()));
  }

  async saveShow(
    profileId: string,
    showId: string,
    lastPlayedAt: string,
    summary?: ShowSummary,
    inProgressChange?: InProgressChange,
  ): Promise<void> {
    const { shows } = this.of(profileId);
    const before = shows.get(showId);
    const item: ShowItem = { lastPlayedAt, inProgressEpisodes: new Set(before?.inProgressEpisodes), favorite: before?.favorite ?? false };
    const kept = summary ?? before?.summary;
    if (kept)
      item.summary = storedCopy({
        playedEpisodes: kept.playedEpisodes,
        totalEpisodes: kept.totalEpisodes,
        nextEpisodeId: kept.nextEpisodeId ?? null,
      });
    if (inProgressChange === 'clear') item.inProgressEpisodes.clear();
    else if (inProgressChange && 'add' in inProgressChange) item.inProgressEpisodes.add(inProgressChange.add);
    else if (inProgressChange) item.inProgressEpisodes.delete(inProgressChange.remove);
    shows.set(showId, item);
  }

  async showStates(profileId: string, showIds: readonly string[]): Promise<Map<string, ShowState>> {
    const shows = this.byProfile.get(profileId)?.shows;
    const found = new Map<string, ShowState>();
    for (const id of showIds) {
      const show = shows?.get(id);
      if (show) found.set(id, showState(show));
    }
    return found;
  }

  async favoriteShow(profileId: string, showId: string, favorite: boolean): Promise<ShowState> {
    const { shows } = this.of(profileId);
    const item = shows.get(showId) ?? { lastPlayedAt: null, inProgressEpisodes: new Set<string>(), favorite };
    item.favorite = favorite;
    shows.set(showId, item);
    return showState(item);
  }

  /** Most recently watched first, as the table's sparse index of positions kept sorts them. */
  async inProgress(profileId: string, limit: number): Promise<StoredState[]> {
    const sortKey = (s: StoredState) => keys.inProgress(profileId, s.lastPlayedAt!, s.mediaId).gsi1sk;
    return [...(this.byProfile.get(profileId)?.items.values() ?? [])]
      .filter((s) => inProgress(s) && s.lastPlayedAt)
      .sort((a, b) => ascending(sortKey(b), sortKey(a)))
      .slice(0, limit)
      .map(storedCopy);
  }

  async nextEpisodes(profileId: string, limit: number): Promise<Array<{ showId: string; episodeId: string }>> {
    const sortKey = ([showId, show]: [string, ShowItem]) => keys.watching(profileId, show.lastPlayedAt!, showId).gsi1sk;
    // Shows only a favourite made an item of are on no index.
    const watched = [...(this.byProfile.get(profileId)?.shows.entries() ?? [])]
      .filter(([, show]) => show.lastPlayedAt !== null)
      .sort((a, b) => ascending(sortKey(b), sortKey(a)));
    const found: Array<{ showId: string; episodeId: string }> = [];
    for (const [showId, show] of watched) {
      if (found.length >= limit) break;
      const next = show.summary?.nextEpisodeId;
      if (typeof next === 'string' && !show.inProgressEpisodes.has(next)) found.push({ showId, episodeId: next });
    }
    return found;
  }

  /** By season, then episode number, as the table's sparse index of played episodes sorts them. */
  async playedEpisodes(profileId: string, showId: string): Promise<Array<{ seasonNumber: number; episodeNumber: number; id: string }>> {
    const found: Array<{ seasonNumber: number; episodeNumber: number; id: string }> = [];
    for (const s of this.byProfile.get(profileId)?.items.values() ?? []) {
      const { placement } = s;
      if (placement.entity === 'episode' && placement.showId === showId && s.played)
        found.push({ seasonNumber: placement.seasonNumber, episodeNumber: placement.episodeNumber, id: s.mediaId });
    }
    const sortKey = (e: (typeof found)[number]) => keys.playedEpisode(profileId, showId, e.seasonNumber, e.episodeNumber, e.id).gsi2sk;
    return found.sort((a, b) => ascending(sortKey(a), sortKey(b)));
  }

  async removeItems(profileIds: readonly string[], mediaIds: readonly string[]): Promise<void> {
    for (const profileId of profileIds) {
      const state = this.byProfile.get(profileId);
      for (const id of mediaIds) {
        state?.items.delete(id);
        state?.shows.delete(id);
      }
    }
  }

  async titleStates(profileId: string): Promise<TitleStates> {
    const found: TitleStates = { films: new Map(), shows: new Map() };
    const state = this.byProfile.get(profileId);
    // Episodes are left out: their state is placed in a show.
    for (const [id, s] of state?.items ?? []) if (!('showId' in s.placement)) found.films.set(id, storedCopy(s));
    for (const [id, show] of state?.shows ?? []) found.shows.set(id, showState(show));
    return found;
  }
}

/** A show's item as the table's reads give it (a copy). */
const showState = (show: ShowItem): ShowState => ({
  summary: show.summary && { ...show.summary },
  lastPlayedAt: show.lastPlayedAt,
  favorite: show.favorite,
});
