// Played marks set by hand: a film or an episode played or not, a show's every episode at once.
// A mark wins over a report of the same item not written yet (it is older than the mark).
import { notFound } from '../errors';
import { StaleState, type StoredState } from './model';
import type { Profiles } from './profiles';
import { placementOf, WRITE_ATTEMPTS, type ReportWriter } from './report-writer';
import { markPlayed, markUnplayed, NOTHING, toUserData, type UserData } from './rules';
import { showUserData, type ShowProgress } from './shows';
import { nowOf, type WatchingDeps } from './watching-deps';

type Change = (before: StoredState, now: string) => Omit<StoredState, 'mediaId' | 'placement'>;

export class Marks {
  constructor(
    private readonly deps: WatchingDeps,
    private readonly parts: { profiles: Profiles; reports: ReportWriter; shows: ShowProgress },
  ) {}

  /** POST /played: a film or an episode played; a show's every episode. */
  played(profileId: string, mediaId: string): Promise<UserData> {
    return this.mark(profileId, mediaId, (s, now) => markPlayed(s, now));
  }

  /** DELETE /played: not played, no position; a show's every episode. */
  unplayed(profileId: string, mediaId: string): Promise<UserData> {
    return this.mark(profileId, mediaId, (s) => markUnplayed(s));
  }

  private async mark(profileId: string, mediaId: string, change: Change): Promise<UserData> {
    await this.parts.profiles.require(profileId);
    const item = await this.deps.catalog.get(mediaId);
    if (!item) throw notFound(`Movie, show or episode ${mediaId}`);
    const now = nowOf(this.deps);
    const at = new Date(now).toISOString();
    if (item.entity === 'tvshow') return this.markShow(profileId, item.id, change, at);
    const playable = item;
    for (let attempt = 1; ; attempt++) {
      const before = (await this.deps.store.state(profileId, mediaId)) ?? { ...NOTHING, mediaId, placement: placementOf(playable) };
      const after = { ...before, ...change(before, at) };
      try {
        const written = await this.parts.reports.write(profileId, after, before, now);
        this.parts.reports.written(profileId, written, now);
        return toUserData(after);
      } catch (err) {
        if (!(err instanceof StaleState) || attempt >= WRITE_ATTEMPTS) throw err;
      }
    }
  }

  /** Every episode at once, as they are now; their positions all go. */
  private async markShow(profileId: string, showId: string, change: Change, at: string): Promise<UserData> {
    const episodes = await this.deps.catalog.episodes(showId);
    const states = await this.deps.store.states(
      profileId,
      episodes.map((e) => e.id),
    );
    const changed = episodes.map((e) => {
      const before = states.get(e.id) ?? { ...NOTHING, mediaId: e.id, placement: placementOf(e) };
      return { ...before, ...change(before, at) };
    });
    await this.deps.store.putMany(profileId, changed);
    this.parts.reports.drop(
      profileId,
      changed.map((s) => s.mediaId),
    );
    const summary = await this.parts.shows.summarize(profileId, showId, at, 'clear');
    const userData = showUserData(summary, at);
    await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId: showId, userData });
    return userData;
  }
}
