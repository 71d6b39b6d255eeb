// A player's reports of its position, the hot path (a player reports every 10 s for hours): one
// write each at most, and in a shared process none for a report less than a second after the
// last one of the same item (written right behind the answer instead). What this process knows
// of each item is kept, so the next report is applied without a read and written expecting the
// rev it knows: a write from elsewhere between is noticed and the state read again.
import type { EpisodeItem, MovieItem } from '../catalog/model';
import { filesDuration } from '../catalog/model';
import { snapshotOf } from '../catalog/snapshot';
import { notFound } from '../errors';
import { BoundedMap } from '../util/bounded-map';
import { StaleState, type Placement, type StoredState } from './model';
import type { Profiles } from './profiles';
import { DEFAULT_THRESHOLDS, NOTHING, report, toUserData, type Thresholds, type UserData } from './rules';
import type { ShowProgress } from './shows';
import type { KeptTitleStates } from './title-states';
import { nowOf, type WatchingDeps } from './watching-deps';

/** Reports closer together than this are answered but not written (the next one is). */
const COALESCE_MS = 1_000;
/** A write that found another between its read and itself reads again, this many times at most. */
export const WRITE_ATTEMPTS = 3;
/** The settings' thresholds are read again after this long (a report reads nothing else it can keep). */
const THRESHOLDS_FOR_MS = 1_000;
/** Items known per process at most: the least recently reported ones not waiting to be written are forgotten first. */
const KNOWN_MAX = 10_000;

/** Where an item sits, kept with its state so that the state can be indexed without reading the catalogue again. */
export const placementOf = (item: MovieItem | EpisodeItem): Placement =>
  item.entity === 'movie'
    ? { entity: 'movie' }
    : { entity: 'episode', showId: item.showId, seasonNumber: item.seasonNumber, episodeNumber: item.episodeNumber };

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

export class ReportWriter {
  /** By `profile|item`; an item with a report not written yet is never forgotten. */
  private readonly known: BoundedMap<string, Known>;
  /** Writes in flight and writes waiting for the coalescing second, per profile and item. */
  private readonly flushing = new Map<string, Promise<void>>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private thresholdsRead: { at: number; value: Thresholds } | undefined;

  constructor(
    private readonly deps: WatchingDeps,
    private readonly parts: { profiles: Profiles; shows: ShowProgress; titles: KeptTitleStates | undefined },
  ) {
    this.known = new BoundedMap({ maxSize: KNOWN_MAX, pinned: (entry, key) => entry.pending !== undefined || this.flushing.has(key) });
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
    const now = nowOf(this.deps);
    const at = new Date(now).toISOString();
    const thresholds = await this.thresholds();
    const apply = (before: StoredState): StoredState => ({
      ...before,
      ...report(before, positionSeconds, durationSeconds ?? before.durationSeconds, thresholds, at),
    });
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

  /**
   * Writes one item's state over `before` (StaleState when another write came between), keeps
   * its show's item in step, says so on /ws, and answers the state as written.
   */
  async write(profileId: string, after: StoredState, before: StoredState, now: number): Promise<StoredState> {
    const rev = await this.deps.store.put(profileId, after, before.rev ?? null);
    await this.parts.shows.follow(profileId, after, before, now);
    await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId: after.mediaId, userData: toUserData(after) });
    return { ...after, rev };
  }

  /** A state written elsewhere than a report (a mark): the next report goes on from it. */
  written(profileId: string, state: StoredState, at: number) {
    this.remember(`${profileId}|${state.mediaId}`, { stored: state, storedAt: at, state });
  }

  /** What this process knows of these items of the profile (every one: none named) is forgotten: the next report reads. */
  drop(profileId: string, mediaIds?: readonly string[]) {
    if (mediaIds) for (const id of mediaIds) this.known.delete(`${profileId}|${id}`);
    else for (const key of this.known.keys()) if (key.startsWith(`${profileId}|`)) this.known.delete(key);
  }

  /** The item's state as answered but not stored yet (waiting for its second, or being written); undefined when stored. */
  pending(profileId: string, mediaId: string): StoredState | undefined {
    const key = `${profileId}|${mediaId}`;
    const entry = this.known.get(key);
    return entry && (entry.pending || this.flushing.has(key)) ? entry.state : undefined;
  }

  /** This process's reports not written yet of a profile, written now: a list read here then sees them. */
  async settle(profileId: string) {
    const prefix = `${profileId}|`;
    const keys = new Set([...this.known.entries()].filter(([key, e]) => e.pending && key.startsWith(prefix)).map(([key]) => key));
    for (const key of this.flushing.keys()) if (key.startsWith(prefix)) keys.add(key);
    await Promise.all([...keys].map((key) => this.flush(profileId, key)));
  }

  private async thresholds(): Promise<Thresholds> {
    const now = nowOf(this.deps);
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
    const [, item, state] = await Promise.all([
      this.parts.profiles.require(profileId),
      this.playable(mediaId),
      this.deps.store.state(profileId, mediaId),
    ]);
    const placed = state ?? { ...NOTHING, mediaId, placement: placementOf(item) };
    return placed.durationSeconds === null ? { ...placed, durationSeconds: filesDuration(item.files) } : placed;
  }

  /** Kept as the most recently reported; lists kept in a shared process see it at once. */
  private remember(key: string, entry: Known) {
    this.known.set(key, entry);
    this.parts.titles?.apply({ kind: 'state', profileId: key.slice(0, key.indexOf('|')), state: entry.state });
  }

  /** The item's pending report written now, or once the coalescing second since the last write is over. */
  private schedule(profileId: string, key: string) {
    if (this.flushing.has(key) || this.timers.has(key)) return; // a write in flight takes the newest report when done
    const wait = (this.known.get(key)?.storedAt ?? 0) + COALESCE_MS - nowOf(this.deps);
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
          const written = await this.write(profileId, state, stored, nowOf(this.deps));
          const latest = this.known.get(key);
          // A report answered while this one was written stays pending, now on the new rev.
          if (latest?.pending) this.known.set(key, { ...latest, stored: written, storedAt: nowOf(this.deps) });
          else if (latest) this.known.set(key, { stored: written, storedAt: nowOf(this.deps), state: written });
        } catch (err) {
          const report = this.known.get(key)?.pending ?? pending;
          this.known.delete(key);
          if (!(err instanceof StaleState)) {
            this.deps.log.warn({ err, key }, 'a progress report could not be written');
            continue;
          }
          // Read again and applied again: pending once more, written by this loop.
          await this.progress(profileId, state.mediaId, report.positionSeconds, report.durationSeconds).catch((e: unknown) =>
            this.deps.log.warn({ err: e, key }, 'a progress report could not be written'),
          );
        }
      }
    })().finally(() => this.flushing.delete(key));
    this.flushing.set(key, run);
    return run;
  }
}
