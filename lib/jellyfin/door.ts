// What a route handler of the Jellyfin door is given and gives back. The Middy stack around
// it (lib/http/door.ts) finds the route, reads the caller and its token, and writes the answer
// by the door's wire rules.
import type { DoorCaller } from './auth';
import type { DoorRoute } from './routes';
import type { DoorSession } from './store';
import type { DoorQuery } from './wire';

export interface DoorRequest {
  method: string;
  /** The path as the routes read it (no `/emby` prefix). */
  path: string;
  route: DoorRoute;
  params: Readonly<Record<string, string>>;
  query: DoorQuery;
  /** The JSON body, parsed; undefined when there is none. */
  body: unknown;
  headers: Readonly<Record<string, string | undefined>>;
  caller: DoorCaller;
  /** The session of the caller's token: present on every route that is not anonymous. */
  session: DoorSession | undefined;
  /** scheme://host[:port] the app used, for absolute URLs. */
  origin: string;
}

export interface DoorReply {
  status: number;
  /** Written as JSON without nulls. */
  json?: unknown;
  /** Or bytes as they are. */
  body?: string | Buffer;
  headers?: Record<string, string>;
}

export type DoorHandler = (req: DoorRequest) => Promise<DoorReply>;

export const json = (value: unknown, status = 200): DoorReply => ({ status, json: value });
export const noContent = (): DoorReply => ({ status: 204 });

/** A failure answered with Jellyfin's status and a short text (the apps read only the status). */
export class DoorError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 503,
    message: string,
  ) {
    super(message);
    this.name = 'DoorError';
  }
}

export const notFound = (what: string) => new DoorError(404, `${what} not found`);
export const badRequest = (why: string) => new DoorError(400, why);
