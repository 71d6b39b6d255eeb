// A profile's state as the details, lists and search read it: a film's or an episode's own, a
// show's share of episodes played, and whether each is a favourite. In a shared process films and
// shows come from the states kept there (title-states.ts, no read); elsewhere, and for episodes,
// they are read, with what this process answered but has not written yet taking the place of
// what is stored.
import type { Static } from '@sinclair/typebox';
import type { ShowUserData } from '../api/schemas';
import type { TitleStates } from './model';
import type { Profiles } from './profiles';
import type { ReportWriter } from './report-writer';
import { toUserData, type UserData } from './rules';
import { listedShow, showPlayed } from './shows';
import type { KeptTitleStates } from './title-states';
import type { WatchingDeps } from './watching-deps';

export type Watched = Map<string, { played: boolean; lastPlayedAt: string | null; favorite: boolean }>;

/** A show's details' state: its episodes played (each one's state is beside it) and whether it is a favourite. */
export type ShowDetailState = Static<typeof ShowUserData>;

export class UserDataReader {
  constructor(
    private readonly deps: Pick<WatchingDeps, 'store'>,
    private readonly parts: { profiles: Profiles; reports: ReportWriter; titles: KeptTitleStates | undefined },
  ) {}

  /** The profile's state of each of these films and episodes (nothing seen: zeros). */
  async userData(profileId: string, mediaIds: readonly string[]): Promise<Map<string, UserData>> {
    const states = await this.deps.store.states(profileId, mediaIds);
    return new Map(mediaIds.map((id) => [id, toUserData(this.parts.reports.pending(profileId, id) ?? states.get(id))]));
  }

  /** The profile's state of a film: from the states kept in a shared process (no read), else as `userData`. */
  async filmUserData(profileId: string, filmId: string): Promise<UserData> {
    const kept = await this.parts.titles?.get(profileId);
    if (!kept) return (await this.userData(profileId, [filmId])).get(filmId)!;
    return toUserData(kept.films.get(filmId));
  }

  /** A show's details: each episode's state, and the show's own (its episodes played counted from them). */
  async showDetailUserData(
    profileId: string,
    showId: string,
    episodeIds: readonly string[],
  ): Promise<{ episodes: Map<string, UserData>; show: ShowDetailState }> {
    await this.parts.profiles.require(profileId);
    const kept = await this.parts.titles?.get(profileId);
    const [episodes, shows] = await Promise.all([
      this.userData(profileId, episodeIds),
      kept ? undefined : this.deps.store.showStates(profileId, [showId]),
    ]);
    const playedEpisodes = episodeIds.filter((id) => episodes.get(id)?.played).length;
    const totalEpisodes = episodeIds.length;
    const favorite = (kept ? kept.shows.get(showId) : shows?.get(showId))?.favorite ?? false;
    return { episodes, show: { playedEpisodes, totalEpisodes, played: totalEpisodes > 0 && playedEpisodes === totalEpisodes, favorite } };
  }

  /** List entries (lists, search hits) with the profile's state: a film's own, a show's share of episodes played. */
  async withUserData<E extends { id: string; type: string }>(profileId: string, entries: E[]): Promise<Array<E & { userData: UserData }>> {
    await this.parts.profiles.require(profileId);
    // Kept: films and shows only (episodes, which a search may hit, are not).
    const kept = entries.every((e) => e.type === 'movie' || e.type === 'tvshow') ? await this.parts.titles?.get(profileId) : undefined;
    if (kept) return entries.map((e) => ({ ...e, userData: listed(kept, e) }));
    const films = entries.filter((e) => e.type !== 'tvshow').map((e) => e.id);
    const shows = entries.filter((e) => e.type === 'tvshow').map((e) => e.id);
    const [states, showStates] = await Promise.all([
      this.userData(profileId, films),
      shows.length ? this.deps.store.showStates(profileId, shows) : undefined,
    ]);
    return entries.map((e) =>
      e.type === 'tvshow'
        ? { ...e, userData: listedShow(showStates?.get(e.id)) }
        : { ...e, userData: states.get(e.id) ?? toUserData(undefined) },
    );
  }

  /** The profile's films and shows, played or not, when last, and favourites, for the lists' filters and lastPlayed sort. */
  async watchedTitles(profileId: string): Promise<Watched> {
    await this.parts.profiles.require(profileId);
    // Kept states are as answered; else this process's reports are written first, then read.
    const states = (await this.parts.titles?.get(profileId)) ?? (await this.readTitleStates(profileId));
    const watched: Watched = new Map();
    for (const [id, s] of states.films) watched.set(id, { played: s.played, lastPlayedAt: s.lastPlayedAt, favorite: s.favorite });
    for (const [id, s] of states.shows)
      watched.set(id, { played: s.summary !== undefined && showPlayed(s.summary), lastPlayedAt: s.lastPlayedAt, favorite: s.favorite });
    return watched;
  }

  private async readTitleStates(profileId: string): Promise<TitleStates> {
    await this.parts.reports.settle(profileId);
    return this.deps.store.titleStates(profileId);
  }
}

const listed = (kept: TitleStates, entry: { id: string; type: string }): UserData =>
  entry.type === 'movie' ? toUserData(kept.films.get(entry.id)) : listedShow(kept.shows.get(entry.id));
