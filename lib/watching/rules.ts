// Where a person stopped and what they have seen, as rules over one item's state: pure, so every
// threshold is tested without a database. The thresholds are the settings' (`preferences.playback`).

export interface Thresholds {
  /** A position before this share of the item keeps nothing (the opening credits, a mis-click). */
  resumeMinPercent: number;
  /** A position past this share marks the item played and clears the position (the end credits). */
  playedAtPercent: number;
}

export const DEFAULT_THRESHOLDS: Thresholds = { resumeMinPercent: 5, playedAtPercent: 90 };

/** One profile's state of one film or episode, as stored. */
export interface WatchState {
  positionSeconds: number;
  /** The item's length as last reported (or known from its file); null when nobody knows it. */
  durationSeconds: number | null;
  played: boolean;
  playCount: number;
  lastPlayedAt: string | null;
  /** This viewing was counted already: further reports past the end do not count it again. */
  counted: boolean;
  /** Marked a favourite by hand: apart from what was watched, so no report or played mark changes it. */
  favorite: boolean;
}

/** What clients read. */
export interface UserData {
  positionSeconds: number;
  progress: number;
  played: boolean;
  playCount: number;
  lastPlayedAt: string | null;
  favorite: boolean;
}

export const NOTHING: WatchState = {
  positionSeconds: 0,
  durationSeconds: null,
  played: false,
  playCount: 0,
  lastPlayedAt: null,
  counted: false,
  favorite: false,
};

export const toUserData = (s: WatchState | undefined): UserData => {
  const state = s ?? NOTHING;
  const progress = state.durationSeconds && state.durationSeconds > 0 ? Math.min(1, state.positionSeconds / state.durationSeconds) : 0;
  return {
    positionSeconds: state.positionSeconds,
    progress: Math.round(progress * 10_000) / 10_000,
    played: state.played,
    playCount: state.playCount,
    lastPlayedAt: state.lastPlayedAt,
    favorite: state.favorite,
  };
};

/** Whether a position is kept (the item is "in progress"). */
export const inProgress = (s: WatchState | undefined) => (s?.positionSeconds ?? 0) > 0;

/**
 * A player's report: the position at `now`. Before the minimum nothing is kept (and a new
 * viewing may be starting); past the played mark the item is played once per viewing and the
 * position goes; in between the position is kept. Without a duration the position is kept as
 * it is, since no share can be told.
 */
export const report = (
  before: WatchState | undefined,
  positionSeconds: number,
  durationSeconds: number | null,
  t: Thresholds,
  now: string,
): WatchState => {
  const state = before ?? NOTHING;
  const duration = durationSeconds ?? state.durationSeconds;
  const percent = duration && duration > 0 ? (100 * positionSeconds) / duration : null;
  if (percent !== null && percent >= t.playedAtPercent) {
    if (state.counted) return { ...state, durationSeconds: duration, positionSeconds: 0 };
    return {
      ...state,
      durationSeconds: duration,
      positionSeconds: 0,
      played: true,
      playCount: state.playCount + 1,
      lastPlayedAt: now,
      counted: true,
    };
  }
  if (percent !== null && percent < t.resumeMinPercent) return { ...state, durationSeconds: duration, positionSeconds: 0, counted: false };
  return { ...state, durationSeconds: duration, positionSeconds, lastPlayedAt: now, counted: false };
};

/** Marked played by hand: counted once, the position cleared. */
export const markPlayed = (before: WatchState | undefined, now: string): WatchState => {
  const state = before ?? NOTHING;
  if (state.played && state.positionSeconds === 0) return state;
  return {
    ...state,
    positionSeconds: 0,
    played: true,
    playCount: state.played ? state.playCount : state.playCount + 1,
    lastPlayedAt: now,
    counted: true,
  };
};

/** Marked not played: as if never watched (no position, no count), as peers do. */
export const markUnplayed = (before: WatchState | undefined): WatchState => ({
  ...(before ?? NOTHING),
  positionSeconds: 0,
  played: false,
  playCount: 0,
  counted: false,
});

/** A favourite or not: nothing else changes (no position, no play, no time), so it starts nothing to resume. */
export const markFavorite = (before: WatchState | undefined, favorite: boolean): WatchState => ({ ...(before ?? NOTHING), favorite });
