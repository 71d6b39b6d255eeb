// Watch state: who is watching (profiles, no passwords: the LAN is trusted), where each person
// stopped, what they have seen, and what comes next. It rides on the items' ids, which a move
// or a rename keeps, so nothing is lost when files move. Progress reports are the hot path (a
// player reports every 10 s for hours): one write each at most, none for a report less than a
// second after the last one of the same item in a shared process, and never the catalogue's
// version stamp.
import type { Static } from '@sinclair/typebox';
import type { ContinueEntry } from '../api/schemas';
import { filesDuration, type CatalogItem, type EpisodeItem, type MovieItem } from '../catalog/model';
import type { CatalogStore } from '../catalog/store';
import { snapshotOf, type TitledCatalogue } from '../catalog/snapshot';
import { defaultProfileProtected, invalidRequest, nameTaken, notFound } from '../errors';
import type { EventSink } from '../events/sink';
import type { Log } from '../log';
import { toMedia } from '../views/entry';
import { artworkUrl } from '../views/urls';
import { DEFAULT_THRESHOLDS, inProgress, markPlayed, markUnplayed, NOTHING, report, toUserData, type Thresholds, type UserData } from './rules';
import { DEFAULT_PROFILE, NameTaken, StaleState, type InProgressChange, type Placement, type Profile, type ShowSummary, type StoredState, type TitleStates } from './store';
import { KeptTitleStates, type TitleChange } from './title-states';
import type { WatchStore } from './watch-store';

/** What the scan needs of watch state: forgetting the items it removes for good. */
export interface WatchStateOfItems {
  forget(mediaIds: readonly string[]): Promise<void>;
}

export interface WatchingDeps {
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

/** Reports closer together than this are answered but not written (the next one is). */
const COALESCE_MS = 1_000;
/** A write that found another between its read and itself reads again, this many times at most. */
const WRITE_ATTEMPTS = 3;
/** A show's "last watched" moves at most this often while its episodes are reported. */
const SHOW_TOUCH_MS = 10 * 60_000;
/** The settings' thresholds are read again after this long (a report reads nothing else it can keep). */
const THRESHOLDS_FOR_MS = 1_000;

const placementOf = (item: MovieItem | EpisodeItem): Placement =>
  item.entity === 'movie' ? { entity: 'movie' } : { entity: 'episode', showId: item.showId, seasonNumber: item.seasonNumber, episodeNumber: item.episodeNumber };

/** A show's state in a list or a mark's answer: the share of its episodes played. */
const showPlayed = (summary: ShowSummary) => summary.totalEpisodes > 0 && summary.playedEpisodes >= summary.totalEpisodes;

const showUserData = (summary: ShowSummary, lastPlayedAt: string | null): UserData => ({
  positionSeconds: 0,
  progress: summary.totalEpisodes ? Math.round((10_000 * summary.playedEpisodes) / summary.totalEpisodes) / 10_000 : 0,
  played: showPlayed(summary),
  playCount: 0,
  lastPlayedAt,
});

const order = (a: { seasonNumber: number; episodeNumber: number }, b: { seasonNumber: number; episodeNumber: number }) => a.seasonNumber - b.seasonNumber || a.episodeNumber - b.episodeNumber;

/** A report as the player sent it: applied again to the stored state when another process wrote meanwhile. */
interface Report {
  positionSeconds: number;
  durationSeconds: number | undefined;
}

/** What this process knows of a profile's item. */
interface Known {
  /** As stored (read or written here), with its rev: the next write expects it. */
  stored: StoredState;
  /** When this process wrote `stored` (0: read): reports within a second of it are coalesced. */
  storedAt: number;
  /** As last answered: `stored`, or ahead of it by the reports not written yet. */
  state: StoredState;
  /** The last report not written yet. */
  pending?: Report;
}

/** Items known per process at most: the oldest written ones are forgotten first. */
const KNOWN_MAX = 10_000;

export class WatchingService implements WatchStateOfItems {
  /**
   * What this process knows per profile and item: the next report of an item (a player reports
   * the same one every few seconds) is applied to it without a read, and written expecting its
   * rev, so a write from elsewhere between is noticed and the state read again.
   */
  private readonly known = new Map<string, Known>();
  /** Writes in flight and writes waiting for the coalescing second, per profile and item. */
  private readonly flushing = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly showTouched = new Map<string, number>();
  private thresholdsRead: { at: number; value: Thresholds } | undefined;
  /** Each profile's film and show states, in a shared process only. */
  private readonly titles: KeptTitleStates | undefined;

  constructor(private readonly deps: WatchingDeps) {
    if (deps.sharedProcess) this.titles = new KeptTitleStates((id) => deps.store.titleStates(id), () => this.now());
  }

  private titleChanged(change: TitleChange) {
    this.titles?.apply(change);
  }

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
    for (const key of this.known.keys()) if (key.startsWith(`${id}|`)) this.known.delete(key);
    this.titleChanged({ kind: 'drop', profileId: id });
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

  /** A film or an episode: from the catalogue kept in memory when there is one (its place and length do not change), else read. */
  private async playable(mediaId: string): Promise<MovieItem | EpisodeItem> {
    const titled = snapshotOf(this.deps.catalog).kept();
    const item = titled ? (await titled.get([mediaId])).get(mediaId) : await this.deps.catalog.get(mediaId);
    if (!item || item.entity === 'tvshow') throw notFound(`Movie or episode ${mediaId}`);
    return item;
  }

  /** The item's state as stored (none yet: nothing, placed and timed from the item), the profile checked. */
  private async stored(profileId: string, mediaId: string): Promise<StoredState> {
    const [, item, state] = await Promise.all([this.requireProfile(profileId), this.playable(mediaId), this.deps.store.state(profileId, mediaId)]);
    const placed = state ?? { ...NOTHING, mediaId, placement: placementOf(item) };
    return placed.durationSeconds === null ? { ...placed, durationSeconds: filesDuration(item.files) } : placed;
  }

  /**
   * PUT /progress: the player's position, after the rules. Applied to what this process knows of
   * the item (a player reports the same one every few seconds), read only for an item's first
   * report here or when another process wrote meanwhile. In a shared process written right
   * behind the answer, none closer than a second to the last (coalesced); in a Lambda each is
   * written before its answer, so any later request, whichever function answers it, sees it.
   */
  async progress(profileId: string, mediaId: string, positionSeconds: number, durationSeconds: number | undefined): Promise<UserData> {
    const key = `${profileId}|${mediaId}`;
    const now = this.now();
    const at = new Date(now).toISOString();
    const thresholds = await this.thresholds();
    const apply = (before: StoredState): StoredState => ({ ...before, ...report(before, positionSeconds, durationSeconds ?? before.durationSeconds, thresholds, at) });
    const behind = (stored: StoredState, storedAt: number, after: StoredState) => {
      this.remember(key, { stored, storedAt, state: after, pending: { positionSeconds, durationSeconds } });
      this.schedule(profileId, key);
      return toUserData(after);
    };
    const known = this.known.get(key);
    if (known && this.deps.sharedProcess) return behind(known.stored, known.storedAt, apply(known.state));
    for (let attempt = 1; ; attempt++) {
      const fresh = attempt === 1 && known ? undefined : await this.stored(profileId, mediaId);
      const before = fresh ?? known!.state;
      const stored = fresh ?? known!.stored;
      const after = apply(before);
      if (this.deps.sharedProcess) return behind(stored, 0, after);
      try {
        const written = await this.write(profileId, after, stored, now);
        this.remember(key, { stored: written, storedAt: now, state: written });
        return toUserData(after);
      } catch (err) {
        if (!(err instanceof StaleState) || attempt >= WRITE_ATTEMPTS) throw err;
      }
    }
  }

  private remember(key: string, entry: Known) {
    this.known.delete(key); // re-inserted last: the map's order is the order of use
    this.known.set(key, entry);
    this.titleChanged({ kind: 'state', profileId: key.slice(0, key.indexOf('|')), state: entry.state });
    if (this.known.size <= KNOWN_MAX) return;
    for (const [oldest, e] of this.known) {
      if (e.pending || this.flushing.has(oldest)) continue;
      this.known.delete(oldest);
      break;
    }
  }

  /** The item's pending report written now, or once the coalescing second since the last write is over. */
  private schedule(profileId: string, key: string) {
    if (this.flushing.has(key) || this.timers.has(key)) return; // a write in flight takes the newest report when done
    const wait = (this.known.get(key)?.storedAt ?? 0) + COALESCE_MS - this.now();
    if (wait <= 0) {
      void this.flush(profileId, key);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(key);
      void this.flush(profileId, key);
    }, wait);
    timer.unref();
    this.timers.set(key, timer);
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
    if (item.entity === 'tvshow') {
      // Every episode at once, as they are now; their positions all go.
      const episodes = await this.deps.catalog.episodes(item.id);
      const states = await this.deps.store.states(profileId, episodes.map((e) => e.id));
      const changed = episodes.map((e) => {
        const before = states.get(e.id) ?? { ...NOTHING, mediaId: e.id, placement: placementOf(e) };
        return { ...before, ...change(before, at) };
      });
      await this.deps.store.putMany(profileId, changed);
      for (const s of changed) this.known.delete(`${profileId}|${s.mediaId}`);
      const summary = await this.summarize(profileId, item.id, at, 'clear');
      const userData = showUserData(summary, at);
      await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId, userData });
      return userData;
    }
    const playable = item as MovieItem | EpisodeItem;
    for (let attempt = 1; ; attempt++) {
      const before = (await this.deps.store.state(profileId, mediaId)) ?? { ...NOTHING, mediaId, placement: placementOf(playable) };
      const after = { ...before, ...change(before, at) };
      try {
        // A report not written yet is older than the mark: the mark wins.
        const written = await this.write(profileId, after, before, now);
        this.remember(`${profileId}|${mediaId}`, { stored: written, storedAt: now, state: written });
        return toUserData(after);
      } catch (err) {
        if (!(err instanceof StaleState) || attempt >= WRITE_ATTEMPTS) throw err;
      }
    }
  }

  /**
   * Writes the item's pending report (and any that come while it is written), one write at a
   * time per item. When another process wrote meanwhile, the report is applied again to the
   * state as it is now; a failure is logged (the player's next report writes its position).
   */
  private flush(profileId: string, key: string): Promise<void> {
    const inFlight = this.flushing.get(key);
    if (inFlight) return inFlight;
    const timer = this.timers.get(key);
    if (timer) clearTimeout(timer);
    this.timers.delete(key);
    const run = (async () => {
      for (let entry = this.known.get(key); entry?.pending; entry = this.known.get(key)) {
        const { pending, state, stored } = entry;
        this.known.set(key, { ...entry, pending: undefined });
        try {
          const written = await this.write(profileId, state, stored, this.now());
          const latest = this.known.get(key);
          // A report answered while this one was written stays pending, now on the new rev.
          if (latest?.pending) this.known.set(key, { ...latest, stored: written, storedAt: this.now() });
          else if (latest) this.known.set(key, { stored: written, storedAt: this.now(), state: written });
        } catch (err) {
          const report = this.known.get(key)?.pending ?? pending;
          this.known.delete(key);
          if (!(err instanceof StaleState)) {
            this.deps.log.warn({ err, key }, 'a progress report could not be written');
            continue;
          }
          // Read again and applied again: pending once more, written by this loop.
          await this.progress(profileId, state.mediaId, report.positionSeconds, report.durationSeconds).catch((e: unknown) => this.deps.log.warn({ err: e, key }, 'a progress report could not be written'));
        }
      }
    })().finally(() => this.flushing.delete(key));
    this.flushing.set(key, run);
    return run;
  }

  /** This process's reports not written yet of a profile, written now: a list read here then sees them. */
  private async settle(profileId: string) {
    const prefix = `${profileId}|`;
    const keys = new Set([...this.known.entries()].filter(([key, e]) => e.pending && key.startsWith(prefix)).map(([key]) => key));
    for (const key of this.flushing.keys()) if (key.startsWith(prefix)) keys.add(key);
    await Promise.all([...keys].map((key) => this.flush(profileId, key)));
  }

  /**
   * Writes one item's state over `before` (StaleState when another write came between), keeps
   * its show's item in step (summary on a mark, episodes in progress, "last watched" when due),
   * says so on /ws, and answers the state as written.
   */
  private async write(profileId: string, after: StoredState, before: StoredState, now: number): Promise<StoredState> {
    const rev = await this.deps.store.put(profileId, after, before.rev ?? null);
    const { placement } = after;
    if (placement.entity === 'episode' && after.lastPlayedAt) {
      const showKey = `${profileId}|${placement.showId}`;
      const marked = after.played !== before.played;
      const started = inProgress(after) && !inProgress(before);
      const stopped = !inProgress(after) && inProgress(before);
      const change: InProgressChange | undefined = started ? { add: after.mediaId } : stopped ? { remove: after.mediaId } : undefined;
      const due = now - (this.showTouched.get(showKey) ?? 0) > SHOW_TOUCH_MS;
      if (marked) await this.summarize(profileId, placement.showId, after.lastPlayedAt, change);
      else if (change || due) await this.saveShow(profileId, placement.showId, after.lastPlayedAt, undefined, change);
      if (marked || change || due) this.showTouched.set(showKey, now);
    }
    await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId: after.mediaId, userData: toUserData(after) });
    return { ...after, rev };
  }

  // --- Reading -----------------------------------------------------------------------------

  /** The profile's state of each of these films and episodes (nothing seen: zeros). */
  async userData(profileId: string, mediaIds: readonly string[]): Promise<Map<string, UserData>> {
    const states = await this.deps.store.states(profileId, mediaIds);
    // A report answered but not stored yet (waiting for its second, or being written) is the state.
    const pending = (id: string) => {
      const key = `${profileId}|${id}`;
      const entry = this.known.get(key);
      return entry && (entry.pending || this.flushing.has(key)) ? entry.state : undefined;
    };
    return new Map(mediaIds.map((id) => [id, toUserData(pending(id) ?? states.get(id))]));
  }

  /** The profile's state of a film: from the states kept in a shared process (no read), else as `userData`. */
  async filmUserData(profileId: string, filmId: string): Promise<UserData> {
    const kept = await this.titles?.get(profileId);
    if (!kept) return (await this.userData(profileId, [filmId])).get(filmId)!;
    return toUserData(kept.films.get(filmId));
  }

  /**
   * What the profile has seen of a show, counted again and kept on the show's item: done when a
   * mark of one of its episodes changes (rare next to the lists and Next up that read it).
   */
  private async summarize(profileId: string, showId: string, lastPlayedAt: string, inProgressChange?: InProgressChange): Promise<ShowSummary> {
    const [played, episodes] = await Promise.all([this.deps.store.playedEpisodes(profileId, showId), this.deps.catalog.episodes(showId)]);
    const ids = new Set(episodes.map((e) => e.id));
    const seen = played.filter((p) => ids.has(p.id));
    const regular = seen.filter((p) => p.seasonNumber > 0);
    const highest = regular.length ? regular.reduce((a, b) => (order(a, b) >= 0 ? a : b)) : undefined;
    const next = highest ? episodes.filter((e) => e.seasonNumber > 0).sort(order).find((e) => order(e, highest) > 0) : undefined;
    const summary: ShowSummary = { playedEpisodes: seen.length, totalEpisodes: episodes.length, nextEpisodeId: highest ? (next?.id ?? null) : null };
    await this.saveShow(profileId, showId, lastPlayedAt, summary, inProgressChange);
    return summary;
  }

  private async saveShow(profileId: string, showId: string, lastPlayedAt: string, summary?: ShowSummary, inProgressChange?: InProgressChange) {
    await this.deps.store.saveShow(profileId, showId, lastPlayedAt, summary, inProgressChange);
    this.titleChanged({ kind: 'show', profileId, showId, lastPlayedAt, summary });
  }

  /** Films and episodes in progress, most recently watched first. */
  async continueWatching(profileId: string, limit: number, origin: string): Promise<Array<Static<typeof ContinueEntry>>> {
    await Promise.all([this.requireProfile(profileId), this.settle(profileId)]);
    const [states, titled] = await Promise.all([this.deps.store.inProgress(profileId, limit), snapshotOf(this.deps.catalog).recent()]);
    const items = await titled.get(states.map((s) => s.mediaId));
    const shows = await this.showsOf(items.values(), titled);
    return states.flatMap((s) => {
      const item = items.get(s.mediaId);
      const entry = item && this.entry(item, shows, toUserData(s), origin);
      return entry ? [entry] : [];
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
    const [next, titled] = await Promise.all([this.deps.store.nextEpisodes(profileId, limit), snapshotOf(this.deps.catalog).recent()]);
    const episodes = await titled.get(next.map((n) => n.episodeId));
    const shows = await this.showsOf(episodes.values(), titled);
    return next.flatMap(({ episodeId }) => {
      const episode = episodes.get(episodeId);
      const entry = episode?.entity === 'episode' && this.entry(episode, shows, toUserData(undefined), origin);
      return entry ? [entry] : [];
    });
  }

  /** The shows of these episodes. */
  private showsOf(items: Iterable<CatalogItem>, titled: TitledCatalogue) {
    return titled.get([...new Set([...items].flatMap((i) => (i.entity === 'episode' ? [i.showId] : [])))]);
  }

  private entry(item: CatalogItem, shows: ReadonlyMap<string, CatalogItem>, userData: UserData, origin: string): Static<typeof ContinueEntry> | undefined {
    if (item.entity === 'movie') return { id: item.id, type: 'movie', media: toMedia(item, origin), userData };
    if (item.entity !== 'episode') return undefined;
    const show = shows.get(item.showId);
    if (show?.entity !== 'tvshow') return undefined;
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
    // Kept: films and shows only (episodes, which a search may hit, are not).
    const kept = entries.every((e) => e.type === 'movie' || e.type === 'tvshow') ? await this.titles?.get(profileId) : undefined;
    if (kept) return entries.map((e) => ({ ...e, userData: this.listed(kept, e) }));
    const films = entries.filter((e) => e.type !== 'tvshow').map((e) => e.id);
    const shows = entries.filter((e) => e.type === 'tvshow').map((e) => e.id);
    const [states, summaries] = await Promise.all([this.userData(profileId, films), shows.length ? this.deps.store.showSummaries(profileId, shows) : new Map<string, ShowSummary>()]);
    return entries.map((e) => {
      if (e.type !== 'tvshow') return { ...e, userData: states.get(e.id) ?? toUserData(undefined) };
      const summary = summaries.get(e.id);
      return { ...e, userData: summary ? showUserData(summary, null) : toUserData(undefined) };
    });
  }

  private listed(kept: TitleStates, entry: { id: string; type: string }): UserData {
    if (entry.type === 'movie') return toUserData(kept.films.get(entry.id));
    const summary = kept.shows.get(entry.id)?.summary;
    return summary ? showUserData(summary, null) : toUserData(undefined);
  }

  private async readTitleStates(profileId: string): Promise<TitleStates> {
    await this.settle(profileId);
    return this.deps.store.titleStates(profileId);
  }

  // --- Items gone --------------------------------------------------------------------------

  /** Every profile's state of items gone for good (a library offline keeps its items, and so their state). */
  async forget(mediaIds: readonly string[]): Promise<void> {
    if (!mediaIds.length) return;
    const profiles = await this.deps.store.profiles();
    await this.deps.store.removeItems(profiles.map((p) => p.id), mediaIds);
    this.titleChanged({ kind: 'forget', mediaIds });
    for (const id of mediaIds) for (const p of profiles) this.known.delete(`${p.id}|${id}`);
  }
  // --- Browsing ------------------------------------------------------------------------------

  /** The profile's films and shows, played or not and when last, for the lists' played filter and lastPlayed sort. */
  async watchedTitles(profileId: string): Promise<Map<string, { played: boolean; lastPlayedAt: string | null }>> {
    await this.requireProfile(profileId);
    // Kept states are as answered; else this process's reports are written first, then read.
    const states = (await this.titles?.get(profileId)) ?? (await this.readTitleStates(profileId));
    const watched = new Map<string, { played: boolean; lastPlayedAt: string | null }>();
    for (const [id, s] of states.films) watched.set(id, { played: s.played, lastPlayedAt: s.lastPlayedAt });
    for (const [id, s] of states.shows) watched.set(id, { played: s.summary !== undefined && showPlayed(s.summary), lastPlayedAt: s.lastPlayedAt });
    return watched;
  }
}

const randomId = () => crypto.randomUUID().replaceAll('-', '').slice(0, 16);
