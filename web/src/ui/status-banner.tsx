// A line at the top of every screen while the box is degraded (its disk low on space, its
// database down), in the service's own words: what GET /api/v1/health says, kept current by
// `system:status` on /ws and, should the socket be down, a look every minute.
import { useEffect, useState } from 'preact/hooks';
import type { components } from '../api/schema';
import { useEvents } from './events';

type Reason = components['schemas']['Health']['reasons'][number];

const LOOK_EVERY_MS = 60_000;

const readHealth = async (): Promise<Reason[] | undefined> => {
  try {
    // 503 (database down) carries the same body: read it either way.
    const body = (await (await fetch('/api/v1/health')).json()) as { data?: components['schemas']['Health'] };
    return body.data?.reasons;
  } catch {
    return undefined; // the box is away: the screens say so themselves
  }
};

export const StatusBanner = () => {
  const [reasons, setReasons] = useState<Reason[]>([]);
  useEffect(() => {
    let live = true;
    const look = () => void readHealth().then((r) => live && r && setReasons(r));
    look();
    const timer = setInterval(look, LOOK_EVERY_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);
  useEvents((event) => {
    if (event.type === 'system:status') setReasons((event.reasons as Reason[] | undefined) ?? []);
  });
  if (reasons.length === 0) return null;
  return (
    <div class="status-banner" role="status">
      {reasons.map((r) => (
        <p key={r.code}>{r.message}</p>
      ))}
    </div>
  );
};
