// Watch state: who is watching (profiles, no passwords: the LAN is trusted), where each person
// stopped, what they have seen, and what comes next. It rides on the items' ids, which a move
// or a rename keeps, so nothing is lost when files move. Progress reports are the hot path (a
// player reports every 10 s for hours): one write each at most, none for a report less than a
// second after the last one of the same item here, and never the catalogue's version stamp.
import type { Static } from '@sinclair/typebox';
import type { ContinueEntry } from '../api/schemas';
import { filesDuration, type CatalogItem, type EpisodeItem, type MovieItem, type ShowItem } from '../catalog/model';
import type { CatalogStore } from '../catalog/store';
import { defaultProfileProtected, invalidRequest, nameTaken, notFound } from '../errors';
import type { EventSink } from '../events/sink';
import type { Log } from '../log';
import { toMedia } from '../views/entry';
import { artworkUrl } from '../views/urls';
import { DEFAULT_THRESHOLDS, inProgress, markPlayed, markUnplayed, NOTHING, report, toUserData, type Thresholds, type UserData } from './rules';
import { DEFAULT_PROFILE, NameTaken, type DynamoWatchStore, type Placement, type Profile, type ShowSummary, type StoredState } from './store';

/** What the scan needs of watch state: forgetting the items it removes for good. */
export interface WatchStateOfItems {
  forget(mediaIds: readonly string[]): Promise<void>;
}

export interface WatchingDeps {
  store: DynamoWatchStore;
  catalog: CatalogStore;
  /** The thresholds as the settings have them now. */
  thresholds: () => Promise<Thresholds>;
  events: EventSink;
  log: Log;
  clock?: () => number;
  newId?: () => string;
}

/** Reports closer together than this are answered but not written (the next one is). */
const COALESCE_MS = 1_000;
/** A show's "last watched" moves at most this often while its episodes are reported. */
const SHOW_TOUCH_MS = 10 * 60_000;
/** The settings' thresholds are read again after this long (a report reads nothing else it can keep). */
const THRESHOLDS_FOR_MS = 1_000;

const placementOf = (item: MovieItem | EpisodeItem): Placement =>
  item.entity === 'movie' ? { entity: 'movie' } : { entity: 'episode', showId: item.showId, seasonNumber: item.seasonNumber, episodeNumber: item.episodeNumber };

/** A show's state in a list or a mark's answer: the share of its episodes played. */
const showUserData = (summary: ShowSummary, lastPlayedAt: string | null): UserData => ({
  positionSeconds: 0,
  progress: summary.totalEpisodes ? Math.round((10_000 * summary.playedEpisodes) / summary.totalEpisodes) / 10_000 : 0,
  played: summary.totalEpisodes > 0 && summary.playedEpisodes >= summary.totalEpisodes,
  playCount: 0,
  lastPlayedAt,
});

const order = (a: { seasonNumber: number; episodeNumber: number }, b: { seasonNumber: number; episodeNumber: number }) => a.seasonNumber - b.seasonNumber || a.episodeNumber - b.episodeNumber;

export class WatchingService implements WatchStateOfItems {
  /** The last state written (or answered and not written yet: `pending`) per profile and item, for coalescing. */
  private readonly recent = new Map<string, { state: StoredState; writtenAt: number; pending?: boolean }>();
  private readonly showTouched = new Map<string, number>();
  private thresholdsRead: { at: number; value: Thresholds } | undefined;

  constructor(private readonly deps: WatchingDeps) {}

  private now() {
    return (this.deps.clock ?? Date.now)();
  }

  // --- Profiles ----------------------------------------------------------------------------

  profiles(): Promise<Profile[]> {
    return this.deps.store.profiles();
  }

  /** 404 unless the profile exists; the household's always does, so it costs no read (most requests are its). */
  async requireProfile(id: string): Promise<void> {
    if (id !== DEFAULT_PROFILE.id) await this.profile(id);
  }

  async profile(id: string): Promise<Profile> {
    const found = await this.deps.store.profile(id);
    if (!found) throw notFound(`Profile ${id}`);
    return found;
  }

  async createProfile(name: string): Promise<Profile> {
    const profile: Profile = { id: `pf_${(this.deps.newId ?? randomId)()}`, name: name.trim(), createdAt: new Date(this.now()).toISOString() };
    await this.claiming(profile.name, () => this.deps.store.save(profile));
    return profile;
  }

  async renameProfile(id: string, name: string): Promise<Profile> {
    const before = await this.profile(id);
    const after = { ...before, name: name.trim() };
    if (after.name === before.name) return before;
    await this.claiming(after.name, () => this.deps.store.save(after, before));
    return after;
  }

  async deleteProfile(id: string): Promise<void> {
    if (id === DEFAULT_PROFILE.id) throw defaultProfileProtected();
    await this.deps.store.removeProfile(await this.profile(id));
    for (const key of this.recent.keys()) if (key.startsWith(`${id}|`)) this.recent.delete(key);
  }

  private async claiming(name: string, save: () => Promise<void>) {
    if (!name) throw invalidRequest([{ field: 'body/name', message: 'must not be blank' }]);
    // The household's own name, while it has it, is as taken as any other.
    const household = await this.deps.store.profile(DEFAULT_PROFILE.id);
    if (household === DEFAULT_PROFILE && name.toLocaleLowerCase('en') === DEFAULT_PROFILE.name.toLocaleLowerCase('en')) throw nameTaken(name);
    try {
      await save();
    } catch (err) {
      if (err instanceof NameTaken) throw nameTaken(name);
      throw err;
    }
  }

  // --- Reports and marks -------------------------------------------------------------------

  private async thresholds(): Promise<Thresholds> {
    const now = this.now();
    if (this.thresholdsRead && now - this.thresholdsRead.at < THRESHOLDS_FOR_MS) return this.thresholdsRead.value;
    const value = await this.deps.thresholds().catch(() => DEFAULT_THRESHOLDS);
    this.thresholdsRead = { at: now, value };
    return value;
  }

  private async playable(mediaId: string): Promise<MovieItem | EpisodeItem> {
    const item = await this.deps.catalog.get(mediaId);
    if (!item || item.entity === 'tvshow') throw notFound(`Movie or episode ${mediaId}`);
    return item;
  }

  /** PUT /progress: the player's position, after the rules. */
  async progress(profileId: string, mediaId: string, positionSeconds: number, durationSeconds: number | undefined): Promise<UserData> {
    const key = `${profileId}|${mediaId}`;
    const now = this.now();
    // What this process wrote within the last second is current; anything older is read again
    // (another process or container may have written since). The reads go together.
    const recent = this.recent.get(key);
    const kept = recent && now - recent.writtenAt < COALESCE_MS ? recent : undefined;
    const [, item, stored, thresholds] = await Promise.all([
      this.requireProfile(profileId),
      kept ? undefined : this.playable(mediaId),
      kept ? undefined : this.deps.store.state(profileId, mediaId),
      this.thresholds(),
    ]);
    const before = kept?.state ?? stored ?? { ...NOTHING, mediaId, placement: placementOf(item!) };
    const duration = durationSeconds ?? before.durationSeconds ?? (item ? filesDuration(item.files) : null);
    const after: StoredState = { ...before, ...report(before, positionSeconds, duration, thresholds, new Date(now).toISOString()) };
    // Coalesced: a report less than a second after the last one written, that changes no mark.
    if (kept && after.played === before.played && after.playCount === before.playCount) {
      if (!kept.pending) setTimeout(() => void this.flush(profileId, key), kept.writtenAt + COALESCE_MS - now).unref();
      this.recent.set(key, { state: after, writtenAt: kept.writtenAt, pending: true });
      return toUserData(after);
    }
    await this.write(profileId, after, before, now);
    return toUserData(after);
  }

  /** POST /played: a film or an episode played; a show's every episode. */
  async markPlayed(profileId: string, mediaId: string): Promise<UserData> {
    return this.mark(profileId, mediaId, (s, now) => markPlayed(s, now));
  }

  /** DELETE /played: not played, no position; a show's every episode. */
  async markUnplayed(profileId: string, mediaId: string): Promise<UserData> {
    return this.mark(profileId, mediaId, (s) => markUnplayed(s));
  }

  private async mark(profileId: string, mediaId: string, change: (s: StoredState, now: string) => Omit<StoredState, 'mediaId' | 'placement'>): Promise<UserData> {
    await this.requireProfile(profileId);
    const item = await this.deps.catalog.get(mediaId);
    if (!item) throw notFound(`Movie, show or episode ${mediaId}`);
    const now = this.now();
    const at = new Date(now).toISOString();
    const targets = item.entity === 'tvshow' ? await this.deps.catalog.episodes(item.id) : [item as MovieItem | EpisodeItem];
    const states = await this.deps.store.states(profileId, targets.map((t) => t.id));
    const changed = targets.map((t) => {
      const before = states.get(t.id) ?? { ...NOTHING, mediaId: t.id, placement: placementOf(t) };
      return { ...before, ...change(before, at) };
    });
    if (item.entity === 'tvshow') {
      await this.deps.store.putMany(profileId, changed);
      for (const s of changed) this.recent.set(`${profileId}|${s.mediaId}`, { state: s, writtenAt: now });
      const summary = await this.summarize(profileId, item.id, at);
      const userData = showUserData(summary, at);
      await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId, userData });
      return userData;
    }
    const after = changed[0]!;
    await this.write(profileId, after, states.get(mediaId), now);
    return toUserData(after);
  }

  /** The last coalesced report of an item, written a second after the one before it. */
  private async flush(profileId: string, key: string) {
    const entry = this.recent.get(key);
    if (!entry?.pending) return;
    this.recent.set(key, { ...entry, pending: false }); // written once, by the timer or a read, whichever comes first
    await this.write(profileId, entry.state, entry.state, this.now()).catch((err: unknown) => this.deps.log.warn({ err, key }, 'a progress report could not be written'));
  }

  /** This process's reports not written yet of a profile, written now: a list read here then sees them. */
  private async settle(profileId: string) {
    const pending = [...this.recent.entries()].filter(([key, entry]) => entry.pending && key.startsWith(`${profileId}|`));
    await Promise.all(pending.map(([key]) => this.flush(profileId, key)));
  }

  /** Writes one item's state, moves its show's "last watched" when due, and says so on /ws. */
  private async write(profileId: string, after: StoredState, before: StoredState | undefined, now: number) {
    await this.deps.store.put(profileId, after);
    this.recent.set(`${profileId}|${after.mediaId}`, { state: after, writtenAt: now });
    if (this.recent.size > 10_000) this.recent.delete(this.recent.keys().next().value!);
    const { placement } = after;
    if (placement.entity === 'episode' && after.lastPlayedAt) {
      const showKey = `${profileId}|${placement.showId}`;
      const marked = after.played !== (before?.played ?? false);
      if (marked) await this.summarize(profileId, placement.showId, after.lastPlayedAt);
      else if (now - (this.showTouched.get(showKey) ?? 0) > SHOW_TOUCH_MS) await this.deps.store.saveShow(profileId, placement.showId, after.lastPlayedAt);
      if (marked || now - (this.showTouched.get(showKey) ?? 0) > SHOW_TOUCH_MS) this.showTouched.set(showKey, now);
    }
    await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId: after.mediaId, userData: toUserData(after) });
  }

  // --- Reading -----------------------------------------------------------------------------

  /** The profile's state of each of these films and episodes (nothing seen: zeros). */
  async userData(profileId: string, mediaIds: readonly string[]): Promise<Map<string, UserData>> {
    const states = await this.deps.store.states(profileId, mediaIds);
    const pending = (id: string) => {
      const entry = this.recent.get(`${profileId}|${id}`);
      return entry?.pending ? entry.state : undefined;
    };
    return new Map(mediaIds.map((id) => [id, toUserData(pending(id) ?? states.get(id))]));
  }

  /**
   * What the profile has seen of a show, counted again and kept on the show's item: done when a
   * mark of one of its episodes changes (rare next to the lists and Next up that read it).
   */
  private async summarize(profileId: string, showId: string, lastPlayedAt: string): Promise<ShowSummary> {
    const [played, episodes] = await Promise.all([this.deps.store.playedEpisodes(profileId, showId), this.deps.catalog.episodes(showId)]);
    const ids = new Set(episodes.map((e) => e.id));
    const seen = played.filter((p) => ids.has(p.id));
    const regular = seen.filter((p) => p.seasonNumber > 0);
    const highest = regular.length ? regular.reduce((a, b) => (order(a, b) >= 0 ? a : b)) : undefined;
    const next = highest ? episodes.filter((e) => e.seasonNumber > 0).sort(order).find((e) => order(e, highest) > 0) : undefined;
    const summary: ShowSummary = { playedEpisodes: seen.length, totalEpisodes: episodes.length, nextEpisodeId: highest ? (next?.id ?? null) : null };
    await this.deps.store.saveShow(profileId, showId, lastPlayedAt, summary);
    return summary;
  }

  /** Films and episodes in progress, most recently watched first. */
  async continueWatching(profileId: string, limit: number, origin: string): Promise<Array<Static<typeof ContinueEntry>>> {
    await Promise.all([this.requireProfile(profileId), this.settle(profileId)]);
    const states = await this.deps.store.inProgress(profileId, limit);
    const items = new Map((await this.deps.catalog.getMany(states.map((s) => s.mediaId))).map((i) => [i.id, i]));
    const shows = await this.showsOf([...items.values()]);
    return states.flatMap((s) => {
      const item = items.get(s.mediaId);
      return item ? [this.entry(item, shows, toUserData(s), origin)].filter((e) => e !== undefined) : [];
    });
  }

  /**
   * Per show being watched, most recently first: the episode after the highest played one
   * (season, episode), rolling into the next season, specials (season 0) left out, as the show's
   * summary keeps it. An episode in progress is in Continue watching instead; a show whose last
   * episode is played drops out.
   */
  async nextUp(profileId: string, limit: number, origin: string): Promise<Array<Static<typeof ContinueEntry>>> {
    await Promise.all([this.requireProfile(profileId), this.settle(profileId)]);
    const wanted: string[] = [];
    for await (const { summary } of this.deps.store.watchedShows(profileId)) {
      if (summary?.nextEpisodeId) wanted.push(summary.nextEpisodeId);
      // A few more than asked for: those in progress are left out.
      if (wanted.length >= limit * 2) break;
    }
    const [episodes, states] = await Promise.all([this.deps.catalog.getMany(wanted), this.deps.store.states(profileId, wanted)]);
    const byId = new Map(episodes.map((e) => [e.id, e]));
    const chosen = wanted.flatMap((id) => {
      const e = byId.get(id);
      return e && e.entity === 'episode' && !inProgress(states.get(id)) ? [e] : [];
    }).slice(0, limit);
    const shows = await this.showsOf(chosen);
    return chosen.flatMap((e) => {
      const entry = this.entry(e, shows, toUserData(states.get(e.id)), origin);
      return entry ? [entry] : [];
    });
  }

  private async showsOf(items: CatalogItem[]) {
    const ids = [...new Set(items.flatMap((i) => (i.entity === 'episode' ? [i.showId] : [])))];
    return new Map((await this.deps.catalog.getMany(ids)).map((s) => [s.id, s as ShowItem]));
  }

  private entry(item: CatalogItem, shows: Map<string, ShowItem>, userData: UserData, origin: string): Static<typeof ContinueEntry> | undefined {
    if (item.entity === 'movie') return { id: item.id, type: 'movie', media: toMedia(item, origin), userData };
    if (item.entity !== 'episode') return undefined;
    const show = shows.get(item.showId);
    if (!show) return undefined;
    return {
      id: item.id,
      type: 'episode',
      media: toMedia(show, origin),
      episode: { id: item.id, seasonNumber: item.seasonNumber, episodeNumber: item.episodeNumber, title: item.title, stillUrl: artworkUrl(origin, item.id, 'still', item.artwork?.still) },
      userData,
    };
  }

  /** List entries (lists, search hits) with the profile's state: a film's own, a show's share of episodes played. */
  async withUserData<E extends { id: string; type: string }>(profileId: string, entries: E[]): Promise<Array<E & { userData: UserData }>> {
    await this.requireProfile(profileId);
    const films = entries.filter((e) => e.type !== 'tvshow').map((e) => e.id);
    const shows = entries.filter((e) => e.type === 'tvshow').map((e) => e.id);
    const [states, summaries] = await Promise.all([this.userData(profileId, films), shows.length ? this.deps.store.showSummaries(profileId, shows) : new Map<string, ShowSummary>()]);
    return entries.map((e) => {
      if (e.type !== 'tvshow') return { ...e, userData: states.get(e.id) ?? toUserData(undefined) };
      const summary = summaries.get(e.id);
      return { ...e, userData: summary ? showUserData(summary, null) : toUserData(undefined) };
    });
  }

  // --- Items gone --------------------------------------------------------------------------

  /** Every profile's state of items gone for good (a library offline keeps its items, and so their state). */
  async forget(mediaIds: readonly string[]): Promise<void> {
    if (!mediaIds.length) return;
    const profiles = await this.deps.store.profiles();
    await this.deps.store.removeItems(profiles.map((p) => p.id), mediaIds);
    for (const id of mediaIds) for (const p of profiles) this.recent.delete(`${p.id}|${id}`);
  }
}

const randomId = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16);
