// Watch state on the screens: where the current profile stopped (a thin bar, "Resume from
// 1:02:13"), what it has played (✓), its favourites (♥), marking by hand, and the player's reports. Every change,
// from this page or any other, comes back as `userdata:changed` on /ws; a screen listens for
// the current profile's only.
import { currentProfileId, profileApi, unwrap, type UserData } from '../api/client';
import { useEvents } from './events';

/** h:mm:ss, as a player's clock reads. */
export const clock = (seconds: number) => {
  const s = Math.floor(seconds);
  return `${Math.floor(s / 3600)}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
};

/** Where a resume starts (the player's ?t=), or 0 when there is nothing to resume. */
export const resumeAt = (userData: UserData | undefined) => Math.floor(userData?.positionSeconds ?? 0);

/** A path with ?t= when there is somewhere to resume. */
export const playFrom = (path: string, seconds: number) => (seconds > 0 ? `${path}?t=${seconds}` : path);

/** Calls back with each change of the current profile's state of an item (a film, an episode, a whole show). */
export const useUserDataChanges = (onChange: (mediaId: string, userData: UserData) => void) =>
  useEvents((event) => {
    if (event.type === 'userdata:changed' && event.profileId === currentProfileId())
      onChange(event.mediaId as string, event.userData as UserData);
  });

/** Marks a film or an episode (a show: every episode) played or not; the state after it. */
export const markPlayed = async (mediaId: string, played: boolean) => {
  const params = { path: { mediaId } };
  return (
    await unwrap(
      played ? profileApi.POST('/api/v1/played/{mediaId}', { params }) : profileApi.DELETE('/api/v1/played/{mediaId}', { params }),
    )
  ).data;
};

/** Marks a film, an episode or a show a favourite of the current profile or not; the state after it (a show's as lists show it). */
export const markFavorite = async (mediaId: string, favorite: boolean) => {
  const params = { path: { mediaId } };
  return (
    await unwrap(
      favorite ? profileApi.POST('/api/v1/favorites/{mediaId}', { params }) : profileApi.DELETE('/api/v1/favorites/{mediaId}', { params }),
    )
  ).data;
};

/**
 * The player's position, for `profileId` (the one it started playing as). keepalive: the last
 * report goes while the page closes, and outlives it. Nothing is said of a failure: the next
 * report says it again.
 */
export const reportProgress = (profileId: string, mediaId: string, positionSeconds: number, durationSeconds: number) => {
  const body = Number.isFinite(durationSeconds) && durationSeconds > 0 ? { positionSeconds, durationSeconds } : { positionSeconds };
  void profileApi
    .PUT('/api/v1/progress/{mediaId}', { params: { path: { mediaId }, query: { profileId } }, body, keepalive: true })
    .catch(() => undefined);
};

/** The thin bar under a poster or an episode: part seen (a show's: its episodes played), not all of it. */
export const WatchedBar = ({ userData }: { userData: UserData | undefined }) => {
  const progress = userData?.progress ?? 0;
  if (progress <= 0 || progress >= 1) return null;
  const percent = Math.round(progress * 100);
  return (
    <div class="watched" role="progressbar" aria-label="Watched" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
      <div style={{ width: `${percent}%` }} />
    </div>
  );
};

export const PlayedMark = ({ userData }: { userData: { played: boolean } | undefined }) =>
  userData?.played ? (
    <span class="played-mark" title="Played" aria-label="Played" role="img">
      ✓
    </span>
  ) : null;

/** ♥ on a poster of a favourite. */
export const FavoriteMark = ({ userData }: { userData: { favorite: boolean } | undefined }) =>
  userData?.favorite ? (
    <span class="favorite-mark" title="Favourite" aria-label="Favourite" role="img">
      ♥
    </span>
  ) : null;
