// Marks set by hand: a film or an episode played or not, a show's every episode at once; and
// favourites, of a film, an episode or a show. A played mark wins over a report of the same item
// not written yet (it is older than the mark); a favourite keeps it (it is written first).
import type { CatalogItem, EpisodeItem, MovieItem } from '../catalog/model';
import { notFound } from '../errors';
import { StaleState, type StoredState } from './model';
import type { Profiles } from './profiles';
import { placementOf, WRITE_ATTEMPTS, type ReportWriter } from './report-writer';
import { markFavorite, markPlayed, markUnplayed, NOTHING, toUserData, type UserData } from './rules';
import { listedShow, showUserData, type ShowProgress } from './shows';
import { nowOf, type WatchingDeps } from './watching-deps';

type Change = (before: StoredState, now: string) => Omit<StoredState, 'mediaId' | 'placement'>;

export class Marks {
  constructor(
    private readonly deps: WatchingDeps,
    private readonly parts: { profiles: Profiles; reports: ReportWriter; shows: ShowProgress },
  ) {}

  /** POST /played: a film or an episode played; a show's every episode. */
  async played(profileId: string, mediaId: string): Promise<UserData> {
    const item = await this.itemOf(profileId, mediaId);
    const change: Change = (s, now) => markPlayed(s, now);
    return item.entity === 'tvshow' ? this.markShow(profileId, item.id, change) : this.markItem(profileId, item, change);
  }

  /** DELETE /played: not played, no position; a show's every episode. */
  async unplayed(profileId: string, mediaId: string): Promise<UserData> {
    const item = await this.itemOf(profileId, mediaId);
    const change: Change = (s) => markUnplayed(s);
    return item.entity === 'tvshow' ? this.markShow(profileId, item.id, change) : this.markItem(profileId, item, change);
  }

  /** POST / DELETE /favorites: a film, an episode or a show (the show itself: its episodes keep their own). */
  async favorite(profileId: string, mediaId: string, favorite: boolean): Promise<UserData> {
    const item = await this.itemOf(profileId, mediaId);
    if (item.entity === 'tvshow') {
      const show = await this.parts.shows.favorite(profileId, item.id, favorite);
      const userData = listedShow(show);
      await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId: item.id, userData });
      return userData;
    }
    // The profile's reports not written yet go first, so the favourite is written over the position they keep.
    await this.parts.reports.settle(profileId);
    return this.markItem(profileId, item, (s) => markFavorite(s, favorite));
  }

  /** The film, show or episode, the profile checked: 404 for either unknown. */
  private async itemOf(profileId: string, mediaId: string): Promise<CatalogItem> {
    await this.parts.profiles.require(profileId);
    const item = await this.deps.catalog.get(mediaId);
    if (!item) throw notFound(`Movie, show or episode ${mediaId}`);
    return item;
  }

  private async markItem(profileId: string, item: MovieItem | EpisodeItem, change: Change): Promise<UserData> {
    const now = nowOf(this.deps);
    const at = new Date(now).toISOString();
    for (let attempt = 1; ; attempt++) {
      const before = (await this.deps.store.state(profileId, item.id)) ?? { ...NOTHING, mediaId: item.id, placement: placementOf(item) };
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

  /** Every episode at once, as they are now; their positions all go. The show's favourite is its own and stays. */
  private async markShow(profileId: string, showId: string, change: Change): Promise<UserData> {
    const at = new Date(nowOf(this.deps)).toISOString();
    const episodes = await this.deps.catalog.episodes(showId);
    const [states, shows] = await Promise.all([
      this.deps.store.states(
        profileId,
        episodes.map((e) => e.id),
      ),
      this.deps.store.showStates(profileId, [showId]),
    ]);
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
    const userData = showUserData(summary, at, shows.get(showId)?.favorite ?? false);
    await this.deps.events.emit({ type: 'userdata:changed', profileId, mediaId: showId, userData });
    return userData;
  }
}
