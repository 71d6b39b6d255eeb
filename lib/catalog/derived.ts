// Values built from the catalogue a process holds (its search index, its recent lists, its
// collections' shelves), each at most once per catalogue (lib/catalog/snapshot.ts decides which
// catalogue a reader gets).
import type { TitledCatalogue } from './titled';

/** A value built from a catalogue: its search index, its recent lists ... at most once per catalogue. */
export interface Derived<T, A> {
  /** The value for this catalogue, built now if it is not. */
  of(titled: TitledCatalogue, arg: A): Promise<T>;
  /** The value built last, and its catalogue, whatever it is: for a reader who may lag a running scan. */
  latest(): { value: T; titled: TitledCatalogue } | undefined;
  /** Whether this catalogue's value is built. */
  has(titled: TitledCatalogue): boolean;
}

/**
 * `build` run once per catalogue: a move that changed none of its films and shows (a scan's last
 * move, an episode's) hands back the same catalogue, and so the same value, at once.
 */
export const derived = <T, A = void>(build: (titled: TitledCatalogue, arg: A) => Promise<T>): Derived<T, A> => {
  const built = new WeakMap<TitledCatalogue, Promise<T>>();
  const settled = new WeakSet<TitledCatalogue>();
  let latest: { order: number; value: T; titled: TitledCatalogue } | undefined;
  let builds = 0;
  return {
    of(titled, arg) {
      let value = built.get(titled);
      if (!value) {
        const order = ++builds;
        value = build(titled, arg);
        built.set(titled, value);
        value.then(
          (v) => {
            settled.add(titled);
            if (!latest || latest.order < order) latest = { order, value: v, titled };
          },
          () => built.delete(titled),
        );
      }
      return value;
    },
    latest: () => latest,
    has: (titled) => settled.has(titled),
  };
};
