// A wall of posters: each on its own mesh gradient while (or instead of) its picture loads,
// sized by srcset, with the current profile's state (a bar when part seen, ✓ when played, ♥ a favourite),
// kept current from /ws; the arrow keys move between them (a TV remote sends arrow keys),
// Enter opens one.
import { useState } from 'preact/hooks';
import { atWidth, meshGradient, posterSrcSet } from './gradient';
import type { MediaEntry, UserData } from '../api/client';
import { FavoriteMark, PlayedMark, useUserDataChanges, WatchedBar } from './watching';

const hrefOf = (entry: MediaEntry) => (entry.type === 'movie' ? `/movies/${entry.id}` : `/shows/${entry.id}`);

export const Poster = ({ entry, userData = entry.userData }: { entry: MediaEntry; userData?: UserData }) => {
  const { media } = entry;
  return (
    <a class="poster" href={hrefOf(entry)} data-id={entry.id}>
      <div class="poster-art" style={{ backgroundImage: meshGradient(media.meshGradientColors) }}>
        {media.posterUrl && (
          <img
            src={atWidth(media.posterUrl, 320)}
            srcset={posterSrcSet(media.posterUrl)}
            sizes="(max-width: 600px) 30vw, 180px"
            alt=""
            loading="lazy"
            decoding="async"
          />
        )}
        <PlayedMark userData={userData} />
        <FavoriteMark userData={userData} />
        <WatchedBar userData={userData} />
      </div>
      <span class="poster-title">{media.title}</span>
      {media.year !== null && <span class="poster-year">{media.year}</span>}
    </a>
  );
};

/** The poster next to `from` in a direction, by where they are laid out (the grid wraps with the screen's width). */
const neighbour = (items: HTMLElement[], from: HTMLElement, key: string): HTMLElement | undefined => {
  const i = items.indexOf(from);
  if (key === 'ArrowRight') return items[i + 1];
  if (key === 'ArrowLeft') return items[i - 1];
  const box = from.getBoundingClientRect();
  const below = key === 'ArrowDown';
  const rows = items.filter((el) => {
    const top = el.getBoundingClientRect().top;
    return below ? top > box.top + 1 : top < box.top - 1;
  });
  if (!rows.length) return undefined;
  const rowTop = below
    ? Math.min(...rows.map((el) => el.getBoundingClientRect().top))
    : Math.max(...rows.map((el) => el.getBoundingClientRect().top));
  const row = rows.filter((el) => Math.abs(el.getBoundingClientRect().top - rowTop) < 2);
  return row.reduce((best, el) =>
    Math.abs(el.getBoundingClientRect().left - box.left) < Math.abs(best.getBoundingClientRect().left - box.left) ? el : best,
  );
};

export const onArrow = (event: KeyboardEvent) => {
  if (!['ArrowRight', 'ArrowLeft', 'ArrowDown', 'ArrowUp'].includes(event.key)) return;
  const from = (event.target as Element).closest<HTMLElement>('.poster');
  const wall = from?.closest('.posters');
  if (!from || !wall) return;
  const next = neighbour([...wall.querySelectorAll<HTMLElement>('.poster')], from, event.key);
  if (!next) return;
  event.preventDefault();
  next.focus();
  next.scrollIntoView({ block: 'nearest', inline: 'nearest' });
};

/**
 * The state of entries changed since they were read (a film's; a show's when marked as a whole or a favourite),
 * by entry: entries read again (a shelf reloaded) start from what they say, newer than any of these.
 */
const useChangedUserData = (entries: MediaEntry[]) => {
  const [changed, setChanged] = useState<ReadonlyMap<MediaEntry, UserData>>(new Map());
  useUserDataChanges((mediaId, userData) => {
    const hit = entries.filter((e) => e.id === mediaId);
    if (hit.length) setChanged((m) => new Map([...m, ...hit.map((e) => [e, userData] as const)]));
  });
  return changed;
};

export const PosterWall = ({ entries, label }: { entries: MediaEntry[]; label: string }) => {
  const changed = useChangedUserData(entries);
  return (
    <div class="posters" role="list" aria-label={label} onKeyDown={onArrow}>
      {entries.map((entry) => (
        <div role="listitem" key={entry.id}>
          <Poster entry={entry} userData={changed.get(entry) ?? entry.userData} />
        </div>
      ))}
    </div>
  );
};
