// Watch state: who is watching (profiles.ts), where each person stopped (report-writer.ts),
// what they have seen and hold dear (marks.ts, shows.ts), and what comes next (rows.ts), read by the details,
// lists and search (user-data.ts). It rides on the items' ids, which a move or a rename keeps,
// so nothing is lost when files move. This service is the one door the handlers use: it builds
// the parts once and shares what they keep between them.
import type { Profile } from './model';
import { Marks } from './marks';
import { Profiles } from './profiles';
import { ReportWriter } from './report-writer';
import type { UserData } from './rules';
import { WatchRows, type RowEntry } from './rows';
import { ShowProgress } from './shows';
import { KeptTitleStates } from './title-states';
import { UserDataReader, type ShowDetailState, type Watched } from './user-data';
import { nowOf, type WatchingDeps } from './watching-deps';

/** What the scan needs of watch state: forgetting the items it removes for good. */
export interface WatchStateOfItems {
  forget(mediaIds: readonly string[]): Promise<void>;
}

export class WatchingService implements WatchStateOfItems {
  /** Each profile's film and show states, in a shared process only. */
  private readonly titles: KeptTitleStates | undefined;
  private readonly people: Profiles;
  private readonly reports: ReportWriter;
  private readonly marks: Marks;
  private readonly rows: WatchRows;
  private readonly reader: UserDataReader;

  constructor(private readonly deps: WatchingDeps) {
    const titles = deps.sharedProcess
      ? new KeptTitleStates(
          (id) => deps.store.titleStates(id),
          () => nowOf(deps),
        )
      : undefined;
    const profiles = new Profiles(deps, (id) => {
      reports.drop(id);
      titles?.apply({ kind: 'drop', profileId: id });
    });
    const shows = new ShowProgress(deps, titles);
    const reports = new ReportWriter(deps, { profiles, shows, titles });
    this.titles = titles;
    this.people = profiles;
    this.reports = reports;
    this.marks = new Marks(deps, { profiles, reports, shows });
    this.rows = new WatchRows(deps, { profiles, reports });
    this.reader = new UserDataReader(deps, { profiles, reports, titles });
  }

  // --- Profiles ----------------------------------------------------------------------------

  profiles(): Promise<Profile[]> {
    return this.people.list();
  }

  /** 404 unless the profile exists; the household's always does, so it costs no read. */
  requireProfile(id: string): Promise<void> {
    return this.people.require(id);
  }

  profile(id: string): Promise<Profile> {
    return this.people.get(id);
  }

  createProfile(name: string): Promise<Profile> {
    return this.people.create(name);
  }

  renameProfile(id: string, name: string): Promise<Profile> {
    return this.people.rename(id, name);
  }

  /** The profile and all of its state; never the household's. */
  deleteProfile(id: string): Promise<void> {
    return this.people.delete(id);
  }

  // --- Reports and marks -------------------------------------------------------------------

  /** PUT /progress: the player's position, after the rules (report-writer.ts). */
  progress(profileId: string, mediaId: string, positionSeconds: number, durationSeconds: number | undefined): Promise<UserData> {
    return this.reports.progress(profileId, mediaId, positionSeconds, durationSeconds);
  }

  /** POST /played: a film or an episode played; a show's every episode. */
  markPlayed(profileId: string, mediaId: string): Promise<UserData> {
    return this.marks.played(profileId, mediaId);
  }

  /** DELETE /played: not played, no position; a show's every episode. */
  markUnplayed(profileId: string, mediaId: string): Promise<UserData> {
    return this.marks.unplayed(profileId, mediaId);
  }

  /** POST / DELETE /favorites: a film, an episode or a show a favourite or not; nothing watched changes. */
  markFavorite(profileId: string, mediaId: string, favorite: boolean): Promise<UserData> {
    return this.marks.favorite(profileId, mediaId, favorite);
  }

  // --- Reading -----------------------------------------------------------------------------

  /** The profile's state of each of these films and episodes (nothing seen: zeros). */
  userData(profileId: string, mediaIds: readonly string[]): Promise<Map<string, UserData>> {
    return this.reader.userData(profileId, mediaIds);
  }

  /** The profile's state of a film. */
  filmUserData(profileId: string, filmId: string): Promise<UserData> {
    return this.reader.filmUserData(profileId, filmId);
  }

  /** A show's details: each episode's state, and the show's own. */
  showDetailUserData(
    profileId: string,
    showId: string,
    episodeIds: readonly string[],
  ): Promise<{ episodes: Map<string, UserData>; show: ShowDetailState }> {
    return this.reader.showDetailUserData(profileId, showId, episodeIds);
  }

  /** List entries (lists, search hits) with the profile's state: a film's own, a show's share of episodes played. */
  withUserData<E extends { id: string; type: string }>(profileId: string, entries: E[]): Promise<Array<E & { userData: UserData }>> {
    return this.reader.withUserData(profileId, entries);
  }

  /** The profile's films and shows, played or not, when last, and favourites, for the lists' filters and lastPlayed sort. */
  watchedTitles(profileId: string): Promise<Watched> {
    return this.reader.watchedTitles(profileId);
  }

  /** Films and episodes in progress, most recently watched first. */
  continueWatching(profileId: string, limit: number, origin: string): Promise<RowEntry[]> {
    return this.rows.continueWatching(profileId, limit, origin);
  }

  /** Per show being watched, most recently first, the episode to watch next. */
  nextUp(profileId: string, limit: number, origin: string): Promise<RowEntry[]> {
    return this.rows.nextUp(profileId, limit, origin);
  }

  // --- Items gone --------------------------------------------------------------------------

  /** Every profile's state of items gone for good (a library offline keeps its items, and so their state). */
  async forget(mediaIds: readonly string[]): Promise<void> {
    if (!mediaIds.length) return;
    const profiles = await this.deps.profiles.profiles();
    await this.deps.store.removeItems(
      profiles.map((p) => p.id),
      mediaIds,
    );
    this.titles?.apply({ kind: 'forget', mediaIds });
    for (const p of profiles) this.reports.drop(p.id, mediaIds);
  }
}
