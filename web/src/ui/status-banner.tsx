// A line at the top of every screen while the box is degraded (its disk low on space, its
// database down), in the service's own words: what GET /api/v1/health says when the page
// opens, kept current by `system:status` on /ws, and looked at again every minute while it
// says something is wrong (should the socket be down when it is put right).
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
    void readHealth().then((r) => live && r && setReasons(r));
    return () => {
      live = false;
    };
  }, []);
  const wrong = reasons.length > 0;
  useEffect(() => {
    if (!wrong) return undefined;
    const timer = setInterval(() => void readHealth().then((r) => r && setReasons(r)), LOOK_EVERY_MS);
    return () => clearInterval(timer);
  }, [wrong]);
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
