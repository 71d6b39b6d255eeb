// Home's first rows, for the current profile: "Continue watching" (films and episodes it
// stopped in the middle of, the latest first, each with its bar) and "Next up" (per show, the
// episode after the last one played). A card plays at once, from where it stopped: these rows
// are there to pick up where one left off. Each row is left out when empty (or unreadable: the
// shelves below say what is wrong). A change on /ws moves a card already there to the front;
// any other reads both rows again.
import { useEffect, useRef, useState } from 'preact/hooks';
import { profileApi, unwrap, type WatchEntry } from '../api/client';
import { atWidth, meshGradient } from './gradient';
import { useLoad } from './load';
import { onArrow } from './posters';
import { playFrom, resumeAt, useUserDataChanges, WatchedBar } from './watching';

const LIMIT = 20;
/** Changes come in bursts (a whole show marked): read once they settle. */
const SETTLE_MS = 400;

const playHref = (entry: WatchEntry) =>
  playFrom(entry.type === 'movie' ? `/play/${entry.id}` : `/shows/${entry.media.id}/play/${entry.id}`, resumeAt(entry.userData));

const WatchCard = ({ entry }: { entry: WatchEntry }) => {
  const { media, episode } = entry;
  const picture = episode?.stillUrl ?? media.backdropUrl;
  return (
    <a class="poster" href={playHref(entry)} data-id={entry.id}>
      <div class="poster-art" style={{ backgroundImage: meshGradient(media.meshGradientColors) }}>
        {picture && <img src={atWidth(picture, 480)} alt="" loading="lazy" decoding="async" />}
        <WatchedBar userData={entry.userData} />
      </div>
      <span class="poster-title">{media.title}</span>
      <span class="poster-year">
        {episode ? `S${episode.seasonNumber} · E${episode.episodeNumber}${episode.title ? ` · ${episode.title}` : ''}` : media.year}
      </span>
    </a>
  );
};

const WatchRow = ({ title, entries }: { title: string; entries: WatchEntry[] }) =>
  entries.length ? (
    <section class="shelf">
      <h2>{title}</h2>
      <div class="posters wide" role="list" aria-label={title} onKeyDown={onArrow}>
        {entries.map((entry) => (
          <div role="listitem" key={entry.id}>
            <WatchCard entry={entry} />
          </div>
        ))}
      </div>
    </section>
  ) : null;

export const WatchRows = ({ version }: { version: number }) => {
  const [changes, setChanges] = useState(0);
  const [loaded, , replace] = useLoad(async () => {
    const params = { query: { limit: LIMIT } };
    const [resume, next] = await Promise.all([
      unwrap(profileApi.GET('/api/v1/continue', { params })),
      unwrap(profileApi.GET('/api/v1/next-up', { params })),
    ]);
    return { resume: resume.data, next: next.data };
  }, [version, changes]);
  const timer = useRef<ReturnType<typeof setTimeout>>();
  useEffect(() => () => clearTimeout(timer.current), []);
  useUserDataChanges((mediaId, userData) => {
    const rows = loaded.state === 'done' ? loaded.value : null;
    const entry = rows?.resume.find((e) => e.id === mediaId);
    // Still in progress (a player reporting every few seconds): the card moves to the front, nothing is asked.
    if (rows && entry && userData.positionSeconds > 0) {
      replace({ ...rows, resume: [{ ...entry, userData }, ...rows.resume.filter((e) => e !== entry)] });
      return;
    }
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setChanges((c) => c + 1), SETTLE_MS);
  });
  if (loaded.state !== 'done') return null;
  return (
    <>
      <WatchRow title="Continue watching" entries={loaded.value.resume} />
      <WatchRow title="Next up" entries={loaded.value.next} />
    </>
  );
};
