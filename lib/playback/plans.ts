// The plans of the conversion sessions a process serves, kept in its memory: a plan never
// changes once its session started, and a two-hour film's (its every segment's bounds) is about
// 170 KB read from the table, so a segment request reads it only where this process has not yet
// (started elsewhere, or before a restart: sessions.ts keeps it in the table for that).
import type { SessionPlan } from './sessions';

/** More than the slots of every kind on a box (a few per core): the oldest go first. */
const MOST = 64;

export class LivePlans {
  private readonly byId = new Map<string, SessionPlan>();

  get(id: string): SessionPlan | undefined {
    return this.byId.get(id);
  }

  keep(id: string, plan: SessionPlan): void {
    if (this.byId.has(id)) return;
    this.byId.set(id, plan);
    // A session that ended idle is never forgotten by name: the oldest go once there are too many.
    for (const oldest of this.byId.keys()) {
      if (this.byId.size <= MOST) break;
      this.byId.delete(oldest);
    }
  }

  forget(id: string): void {
    this.byId.delete(id);
  }
}
