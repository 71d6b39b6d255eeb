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

export const publisherSink = (publisher: () => Publisher, log: Log): EventSink => ({
  async emit(event) {
    try {
      await publisher().publish({ ...event, timestamp: new Date().toISOString() } as ServerEvent);
    } catch (err) {
      log.warn({ err, type: event.type }, 'could not publish an event');
    }
  },
});
