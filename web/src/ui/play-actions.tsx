// What a film's page and an episode's row offer to play: "Play", or "Resume from 1:02:13" and
// "Play from the start" when the current profile stopped in the middle; "Mark played" or
// "Mark unplayed", and the favourite's heart (a show's page has one too), whose answers the
// page shows at once.
import { useState } from 'preact/hooks';
import { asApiError, type UserData } from '../api/client';
import { clock, markFavorite, markPlayed, playFrom, resumeAt } from './watching';

/** `href` plays from the start; `big` for a page's main action (an episode's row keeps them small). */
export const PlayLinks = ({ href, userData, big }: { href: string; userData: UserData | undefined; big?: boolean }) => {
  const from = resumeAt(userData);
  if (from <= 0)
    return big ? (
      <a class="play" href={href}>
        ▶ Play
      </a>
    ) : null;
  return (
    <>
      <a class={big ? 'play' : 'resume'} href={playFrom(href, from)}>
        {big && '▶ '}Resume from {clock(from)}
      </a>
      <a class="restart" href={href}>
        Play from the start
      </a>
    </>
  );
};

/**
 * A press whose answer the page shows at once: a second press while one is answered is ignored,
 * and a failure is said beside the button (`failed` when the service gives no detail).
 */
const usePress = (failed: string) => {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const press = async (call: () => Promise<void>) => {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      await call();
    } catch (e) {
      setError(asApiError(e, failed).detail || failed);
    } finally {
      setBusy(false);
    }
  };
  const alert = error ? (
    <span class="mark-error" role="alert">
      {error}
    </span>
  ) : null;
  return [press, alert] as const;
};

/** `mediaId` may be a show's: every episode. */
export const MarkButton = ({
  mediaId,
  played,
  onMarked,
  noun = '',
}: {
  mediaId: string;
  played: boolean;
  onMarked: (userData: UserData) => void;
  noun?: string;
}) => {
  const [press, alert] = usePress('Not marked');
  return (
    <>
      <button type="button" class="mark" onClick={() => void press(async () => onMarked(await markPlayed(mediaId, !played)))}>
        {played ? `Mark ${noun}unplayed` : `Mark ${noun}played`}
      </button>
      {alert}
    </>
  );
};

/** ♥ pressed when `mediaId` (a film, an episode or a show) is a favourite of the current profile; a press toggles it. */
export const FavoriteButton = ({
  mediaId,
  favorite,
  onChanged,
  small,
}: {
  mediaId: string;
  favorite: boolean;
  onChanged: (userData: UserData) => void;
  /** The heart alone (an episode's row); its name is then its label. */
  small?: boolean;
}) => {
  const [press, alert] = usePress('Not changed');
  return (
    <>
      <button
        type="button"
        class={small ? 'favorite small' : 'favorite'}
        aria-pressed={favorite}
        aria-label={small ? 'Favourite' : undefined}
        title={favorite ? 'Remove from favourites' : 'Add to favourites'}
        onClick={() => void press(async () => onChanged(await markFavorite(mediaId, !favorite)))}
      >
        <span aria-hidden="true">{favorite ? '♥' : '♡'}</span>
        {!small && ' Favourite'}
      </button>
      {alert}
    </>
  );
};
