// What a film's page and an episode's row offer to play: "Play", or "Resume from 1:02:13" and
// "Play from the start" when the current profile stopped in the middle; and "Mark played" or
// "Mark unplayed", whose answer the page shows at once.
import { useState } from 'preact/hooks';
import { asApiError, type UserData } from '../api/client';
import { clock, markPlayed, playFrom, resumeAt } from './watching';

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

/** `mediaId` may be a show's: every episode. A second press while the first is answered is ignored. */
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
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const mark = async () => {
    if (busy) return;
    setBusy(true);
    setError('');
    try {
      onMarked(await markPlayed(mediaId, !played));
    } catch (e) {
      setError(asApiError(e, 'Not marked').detail || 'Not marked');
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="mark" onClick={() => void mark()}>
        {played ? `Mark ${noun}unplayed` : `Mark ${noun}played`}
      </button>
      {error && (
        <span class="mark-error" role="alert">
          {error}
        </span>
      )}
    </>
  );
};
