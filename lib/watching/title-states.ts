// Each profile's state of its films and shows, kept by a long-lived process (offline on a home
// box) through which every write of watch state goes. A page of a list then reads nothing for its
// entries' state (a BatchGetItem cost about 0.5 ms per entry, half of a 30-entry page), nor do
// the played filter and the lastPlayed sort read the profile's whole partition each time. Read
// once per profile, kept current by the service's own writes, and read again behind the readers
// now and then, should something else have written (nothing does on a home box). The lists and
// the reports are bundles apart: the service's changes reach every copy through a channel.
import { BoundedMap } from '../util/bounded-map';
import type { ShowSummary, StoredState, TitleStates } from './model';

/** A change the service made to a profile's states (plain data: it crosses bundles). */
export type TitleChange =
  | { kind: 'state'; profileId: string; state: StoredState }
  | { kind: 'show'; profileId: string; showId: string; lastPlayedAt: string; summary: ShowSummary | undefined }
  | { kind: 'show-favorite'; profileId: string; showId: string; favorite: boolean }
  | { kind: 'forget'; mediaIds: readonly string[] }
  | { kind: 'drop'; profileId: string };

/** Kept states are read again (behind the readers) once this old. */
const READ_AGAIN_MS = 5 * 60_000;
/** Profiles kept at most: the one used longest ago goes first. */
const PROFILES_MAX = 16;
/** A profile's films and shows kept at most (about 200 bytes each); beyond, its lists read as a Lambda's do. */
const TITLES_MAX = 50_000;

type Change = (states: TitleStates) => void;

interface Kept {
  states?: TitleStates;
  /** Too many to keep: not read again before READ_AGAIN_MS. */
  tooMany?: boolean;
  readAt: number;
  reading?: Promise<TitleStates | undefined>;
  /** Changes made while a read was in flight, applied over what it found (which may predate them). */
  during: Change[];
}

export class KeptTitleStates {
  private readonly kept = new BoundedMap<string, Kept>({ maxSize: PROFILES_MAX });

  constructor(
    private readonly read: (profileId: string) => Promise<TitleStates>,
    private readonly now: () => number,
  ) {}

  /** The profile's states as this process knows them; undefined when the profile has too many to keep. */
  async get(profileId: string): Promise<TitleStates | undefined> {
    let entry = this.kept.use(profileId);
    if (!entry) this.kept.set(profileId, (entry = { readAt: 0, during: [] }));
    const stale = this.now() - entry.readAt > READ_AGAIN_MS;
    if (entry.states || entry.tooMany) {
      if (stale && !entry.reading) void this.load(profileId, entry).catch(() => undefined); // the kept ones answer meanwhile
      return entry.states;
    }
    return entry.reading ?? this.load(profileId, entry);
  }

  private load(profileId: string, entry: Kept): Promise<TitleStates | undefined> {
    entry.during = [];
    const reading = this.read(profileId)
      .then((states) => {
        for (const change of entry.during) change(states);
        entry.readAt = this.now();
        entry.tooMany = states.films.size + states.shows.size > TITLES_MAX;
        entry.states = entry.tooMany ? undefined : states;
        return entry.states;
      })
      .finally(() => {
        entry.reading = undefined;
        entry.during = [];
      });
    entry.reading = reading;
    return reading;
  }

  private change(profileId: string, change: Change) {
    const entry = this.kept.get(profileId);
    if (!entry) return;
    if (entry.states) change(entry.states);
    if (entry.reading) entry.during.push(change);
  }

  apply(change: TitleChange) {
    if (change.kind === 'state') this.state(change.profileId, change.state);
    else if (change.kind === 'show') this.show(change.profileId, change.showId, change.lastPlayedAt, change.summary);
    else if (change.kind === 'show-favorite') this.showFavorite(change.profileId, change.showId, change.favorite);
    else if (change.kind === 'forget') this.forget(change.mediaIds);
    else this.drop(change.profileId);
  }

  /** A state as answered (films only: lists show no episode's own state). */
  state(profileId: string, state: StoredState) {
    if (state.placement.entity === 'movie') this.change(profileId, (s) => s.films.set(state.mediaId, state));
  }

  /** A show's item as written: when it was last watched, its summary when given (its favourite kept). */
  show(profileId: string, showId: string, lastPlayedAt: string, summary: ShowSummary | undefined) {
    this.change(profileId, (s) => {
      const before = s.shows.get(showId);
      s.shows.set(showId, { summary: summary ?? before?.summary, lastPlayedAt, favorite: before?.favorite ?? false });
    });
  }

  /** A show marked a favourite or not (one never watched gets an item with no summary and no time). */
  showFavorite(profileId: string, showId: string, favorite: boolean) {
    this.change(profileId, (s) => {
      const before = s.shows.get(showId);
      s.shows.set(showId, { summary: before?.summary, lastPlayedAt: before?.lastPlayedAt ?? null, favorite });
    });
  }

  /** Items gone for good: every profile's state of them. */
  forget(mediaIds: readonly string[]) {
    for (const profileId of this.kept.keys())
      this.change(profileId, (s) => {
        for (const id of mediaIds) {
          s.films.delete(id);
          s.shows.delete(id);
        }
      });
  }

  /** A profile deleted. */
  drop(profileId: string) {
    this.kept.delete(profileId);
  }
}
