// Conversion sessions held in this process's memory: the SessionStore port with DynamoDB's
// semantics (test/contracts/sessions.ts holds both to them). A session is its slot, claimed when
// free or when its last session was asked nothing of for the idle time, as the table's
// conditional writes claim it; a plan goes with its session.
import { randomBytes } from 'node:crypto';
import { storedCopy } from '../util/stored-copy';
import { KIND_LETTER, parseSessionId, type ConversionKind } from './session-id';
import type { Session, SessionPlan, SessionSlot, SessionStore } from './sessions';

const slotKey = (kind: ConversionKind, slot: number) => `${kind}#${slot}`;

export class MemorySessionStore implements SessionStore {
  private readonly slots = new Map<string, SessionSlot>();
  private readonly plans = new Map<string, SessionPlan>();

  /** `clock`: the time a slot's idle clock reads (tests move it instead of waiting). */
  constructor(private readonly clock: () => number = Date.now) {}

  async start(kind: ConversionKind, capacity: number, plan: SessionPlan, idleMs: number): Promise<Session | undefined> {
    const now = this.clock();
    for (let slot = 0; slot < capacity; slot++) {
      const held = this.slots.get(slotKey(kind, slot));
      if (held && held.lastSeenAt >= now - idleMs) continue;
      // The session that held the slot before ended idle: its plan goes with it.
      if (held) this.plans.delete(held.id);
      const claimed: SessionSlot = {
        id: `${KIND_LETTER[kind]}${slot}-${randomBytes(8).toString('hex')}`,
        kind,
        slot,
        createdAt: now,
        lastSeenAt: now,
      };
      this.slots.set(slotKey(kind, slot), claimed);
      this.plans.set(claimed.id, storedCopy(plan));
      return { ...storedCopy(plan), ...claimed };
    }
    return undefined;
  }

  async touch(id: string, idleMs: number): Promise<SessionSlot | undefined> {
    const held = this.held(id);
    const now = this.clock();
    if (!held || held.lastSeenAt < now - idleMs) return undefined;
    held.lastSeenAt = now;
    return { ...held };
  }

  async plan(id: string): Promise<SessionPlan | undefined> {
    const plan = parseSessionId(id) && this.plans.get(id);
    return plan ? storedCopy(plan) : undefined;
  }

  async end(id: string): Promise<boolean> {
    const held = this.held(id);
    if (!held) return false;
    this.slots.delete(slotKey(held.kind, held.slot));
    this.plans.delete(id);
    return true;
  }

  async live(kind: ConversionKind, idleMs: number): Promise<number> {
    const now = this.clock();
    return [...this.slots.values()].filter((s) => s.kind === kind && s.lastSeenAt >= now - idleMs).length;
  }

  /** The slot the session holds, idle or not; undefined when another holds it or none does. */
  private held(id: string): SessionSlot | undefined {
    const at = parseSessionId(id);
    const held = at && this.slots.get(slotKey(at.kind, at.slot));
    return held?.id === id ? held : undefined;
  }
}
