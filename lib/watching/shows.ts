// What a profile has seen of each show, kept on the show's item (store.ts) so that lists and
// Next up read it as it is: counted again when a mark of one of its episodes changes (rare next
// to the reads), its episodes in progress kept as their positions come and go, and when it was
// last watched (Next up's order) moved at most every ten minutes while its episodes are reported.
// The item also says whether the show is a favourite, which nothing watched changes.
import type { InProgressChange, ShowState, ShowSummary, StoredState } from './model';
import { inProgress, toUserData, type UserData } from './rules';
import type { KeptTitleStates } from './title-states';
import type { WatchingDeps } from './watching-deps';

/** A show's "last watched" moves at most this often while its episodes are reported. */
const SHOW_TOUCH_MS = 10 * 60_000;

/** A show is played once every one of its episodes is. */
export const showPlayed = (summary: ShowSummary) => summary.totalEpisodes > 0 && summary.playedEpisodes >= summary.totalEpisodes;

/** A show's state in a list or a mark's answer: the share of its episodes played. */
export const showUserData = (summary: ShowSummary, lastPlayedAt: string | null, favorite: boolean): UserData => ({
  positionSeconds: 0,
  progress: summary.totalEpisodes ? Math.round((10_000 * summary.playedEpisodes) / summary.totalEpisodes) / 10_000 : 0,
  played: showPlayed(summary),
  playCount: 0,
  lastPlayedAt,
  favorite,
});

/** A show's state as lists show it, from its item (none: nothing seen, no favourite). */
export const listedShow = (show: ShowState | undefined): UserData =>
  show?.summary ? showUserData(show.summary, null, show.favorite) : { ...toUserData(undefined), favorite: show?.favorite ?? false };

const order = (a: { seasonNumber: number; episodeNumber: number }, b: { seasonNumber: number; episodeNumber: number }) =>
  a.seasonNumber - b.seasonNumber || a.episodeNumber - b.episodeNumber;

export class ShowProgress {
  /** When this process last wrote each profile's show (`profile|show`). */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly deps: Pick<WatchingDeps, 'store' | 'catalog'>,
    private readonly titles: KeptTitleStates | undefined,
  ) {}

  /**
   * An episode's state just written over `before`: its show's item kept in step (the summary
   * counted again on a mark, the episodes in progress, "last watched" when due).
   */
  async follow(profileId: string, after: StoredState, before: StoredState, now: number): Promise<void> {
    const { placement } = after;
    if (placement.entity !== 'episode' || !after.lastPlayedAt) return;
    const showKey = `${profileId}|${placement.showId}`;
    const marked = after.played !== before.played;
    const started = inProgress(after) && !inProgress(before);
    const stopped = !inProgress(after) && inProgress(before);
    const change: InProgressChange | undefined = started ? { add: after.mediaId } : stopped ? { remove: after.mediaId } : undefined;
    // Nothing the show keeps moved (a favourite): its last watched stays where its latest episode put it.
    if (!marked && !change && after.lastPlayedAt === before.lastPlayedAt) return;
    const due = now - (this.touched.get(showKey) ?? 0) > SHOW_TOUCH_MS;
    if (marked) await this.summarize(profileId, placement.showId, after.lastPlayedAt, change);
    else if (change || due) await this.save(profileId, placement.showId, after.lastPlayedAt, undefined, change);
    if (marked || change || due) this.touched.set(showKey, now);
  }

  /** What the profile has seen of a show, counted again and kept on the show's item. */
  async summarize(profileId: string, showId: string, lastPlayedAt: string, inProgressChange?: InProgressChange): Promise<ShowSummary> {
    const [played, episodes] = await Promise.all([this.deps.store.playedEpisodes(profileId, showId), this.deps.catalog.episodes(showId)]);
    const ids = new Set(episodes.map((e) => e.id));
    const seen = played.filter((p) => ids.has(p.id));
    const regular = seen.filter((p) => p.seasonNumber > 0);
    const highest = regular.length ? regular.reduce((a, b) => (order(a, b) >= 0 ? a : b)) : undefined;
    const next = highest
      ? episodes
          .filter((e) => e.seasonNumber > 0)
          .sort(order)
          .find((e) => order(e, highest) > 0)
      : undefined;
    const summary: ShowSummary = {
      playedEpisodes: seen.length,
      totalEpisodes: episodes.length,
      nextEpisodeId: highest ? (next?.id ?? null) : null,
    };
    await this.save(profileId, showId, lastPlayedAt, summary, inProgressChange);
    return summary;
  }

  /** The show marked a favourite or not on its item; the item after. */
  async favorite(profileId: string, showId: string, favorite: boolean): Promise<ShowState> {
    const show = await this.deps.store.favoriteShow(profileId, showId, favorite);
    this.titles?.apply({ kind: 'show-favorite', profileId, showId, favorite });
    return show;
  }

  private async save(profileId: string, showId: string, lastPlayedAt: string, summary?: ShowSummary, inProgressChange?: InProgressChange) {
    await this.deps.store.saveShow(profileId, showId, lastPlayedAt, summary, inProgressChange);
    this.titles?.apply({ kind: 'show', profileId, showId, lastPlayedAt, summary });
  }
}
