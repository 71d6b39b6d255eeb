// A message channel between the handlers of one process. offline runs every handler in one
// process, but each functions/ file is a bundle of its own with its own copy of lib/: what one
// bundle learns (a watch state written), another (the lists) hears only through something they
// share, and globalThis is the one thing they do. Plain data only: each bundle has its own
// classes, so an instance made by one is not an instance of the other's.
type Listener<T> = (message: T) => void;

export interface ProcessChannel<T> {
  publish(message: T): void;
  subscribe(listener: Listener<T>): void;
}

export const processChannel = <T>(name: string): ProcessChannel<T> => {
  const key = Symbol.for(`media-library.channel.${name}`);
  const shared = globalThis as unknown as Record<symbol, Set<Listener<T>> | undefined>;
  const listeners = (shared[key] ??= new Set());
  return {
    publish: (message) => {
      for (const listener of listeners) listener(message);
    },
    subscribe: (listener) => void listeners.add(listener),
  };
};
