// Where domain code sends WebSocket events. Delivery is best effort: a scan or a library
// change never fails because a client could not be told about it.
import type { ServerEvent } from '../api/schemas';
import type { Log } from '../log';
import type { Publisher } from './publisher';

/** An event without its timestamp: the sink stamps it when it goes out. */
export type OutgoingEvent = ServerEvent extends infer E ? (E extends { timestamp: string } ? Omit<E, 'timestamp'> : never) : never;

export interface EventSink {
  emit(event: OutgoingEvent): Promise<void>;
}

export interface SinkOptions {
  /**
   * Deliver after the caller has gone on (a long-lived process: offline on a home box), in the
   * order emitted; a Lambda is frozen once it has answered, so there the caller waits.
   */
  background?: boolean;
  /** Background deliveries queued beyond this make the caller wait: a slow socket cannot grow memory. */
  maxQueued?: number;
}

export const publisherSink = (
  publisher: () => Publisher,
  log: Log,
  { background = false, maxQueued = 64 }: SinkOptions = {},
): EventSink => {
  const deliver = async (event: ServerEvent) => {
    try {
      await publisher().publish(event);
    } catch (err) {
      log.warn({ err, type: event.type }, 'could not publish an event');
    }
  };
  let queued = 0;
  let last: Promise<void> = Promise.resolve();
  return {
    async emit(event) {
      const stamped = { ...event, timestamp: new Date().toISOString() } as ServerEvent;
      if (!background) return deliver(stamped);
      queued++;
      const delivered = last.then(() => deliver(stamped)).finally(() => queued--);
      last = delivered;
      if (queued > maxQueued) await delivered;
    },
  };
};
