// The home screen's watch rows: Continue watching (films and episodes in progress) and Next up
// (per show being watched, the episode after the highest played one), as list entries.
import type { Static } from '@sinclair/typebox';
import type { ContinueEntry } from '../api/schemas';
import type { CatalogItem } from '../catalog/model';
import { snapshotOf, type TitledCatalogue } from '../catalog/snapshot';
import { toMedia } from '../views/entry';
import { artworkUrl } from '../views/urls';
import type { StoredState } from './model';
import type { Profiles } from './profiles';
import type { ReportWriter } from './report-writer';
import { toUserData, type UserData } from './rules';
import type { WatchingDeps } from './watching-deps';

export type RowEntry = Static<typeof ContinueEntry>;

export class WatchRows {
  constructor(
    private readonly deps: Pick<WatchingDeps, 'store' | 'catalog'>,
    private readonly parts: { profiles: Profiles; reports: ReportWriter },
  ) {}

  /** Films and episodes in progress, most recently watched first. */
  async continueWatching(profileId: string, limit: number, origin: string): Promise<RowEntry[]> {
    await Promise.all([this.parts.profiles.require(profileId), this.parts.reports.settle(profileId)]);
    const [states, titled] = await Promise.all([this.deps.store.inProgress(profileId, limit), snapshotOf(this.deps.catalog).recent()]);
    const items = await titled.get(states.map((s) => s.mediaId));
    const shows = await showsOf(items.values(), titled);
    return states.flatMap((s) => {
      const item = items.get(s.mediaId);
      const entry = item && toEntry(item, shows, toUserData(s), origin);
      return entry ? [entry] : [];
    });
  }

  /**
   * Per show being watched, most recently first: the episode after the highest played one
   * (season, episode), rolling into the next season, specials (season 0) left out, as the show's
   * summary keeps it. An episode in progress is in Continue watching instead; a show whose last
   * episode is played drops out.
   */
  async nextUp(profileId: string, limit: number, origin: string): Promise<RowEntry[]> {
    await Promise.all([this.parts.profiles.require(profileId), this.parts.reports.settle(profileId)]);
    const [next, titled] = await Promise.all([this.deps.store.nextEpisodes(profileId, limit), snapshotOf(this.deps.catalog).recent()]);
    const ids = next.map((n) => n.episodeId);
    // A next episode has no position, but may have a state of its own: a favourite, or played once and unmarked.
    const [episodes, states] = await Promise.all([
      titled.get(ids),
      ids.length ? this.deps.store.states(profileId, ids) : new Map<string, StoredState>(),
    ]);
    const shows = await showsOf(episodes.values(), titled);
    return next.flatMap(({ episodeId }) => {
      const episode = episodes.get(episodeId);
      const entry = episode?.entity === 'episode' && toEntry(episode, shows, toUserData(states.get(episodeId)), origin);
      return entry ? [entry] : [];
    });
  }
}

/** The shows of these episodes. */
const showsOf = (items: Iterable<CatalogItem>, titled: TitledCatalogue) =>
  titled.get([...new Set([...items].flatMap((i) => (i.entity === 'episode' ? [i.showId] : [])))]);

const toEntry = (item: CatalogItem, shows: ReadonlyMap<string, CatalogItem>, userData: UserData, origin: string): RowEntry | undefined => {
  if (item.entity === 'movie') return { id: item.id, type: 'movie', media: toMedia(item, origin), userData };
  if (item.entity !== 'episode') return undefined;
  const show = shows.get(item.showId);
  if (show?.entity !== 'tvshow') return undefined;
  return {
    id: item.id,
    type: 'episode',
    media: toMedia(show, origin),
    episode: {
      id: item.id,
      seasonNumber: item.seasonNumber,
      episodeNumber: item.episodeNumber,
      title: item.title,
      stillUrl: artworkUrl(origin, item.id, 'still', item.artwork?.still),
    },
    userData,
  };
};
