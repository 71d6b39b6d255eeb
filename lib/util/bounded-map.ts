// The one bounded map for what a long-lived process keeps in memory (posters, plans, watch
// states, catalogue items read on demand): it must not grow with the process's uptime. Bounded
// by size (entries, or a weight such as bytes) and, where asked, by age; the least recently set
// or used go first. An entry in use (a write still in flight) can be pinned: it is never
// evicted, and the map stays over its size until it is no longer pinned.

export interface BoundedMapOptions<K, V> {
  /** Entries kept at most; with `weigh`, their total weight. */
  maxSize: number;
  /** An entry this long after it was set is gone; none: entries never age. */
  maxAgeMs?: number;
  /** An entry's weight (1 when not given); a value heavier than `maxSize` alone is not kept. */
  weigh?: (value: V) => number;
  /** Entries never evicted, by size or age, while this holds of them. */
  pinned?: (value: V, key: K) => boolean;
  clock?: () => number;
}

interface Slot<V> {
  value: V;
  /** When it was set (by the clock). */
  at: number;
  weight: number;
}

export class BoundedMap<K, V> {
  // A Map keeps insertion order: the first slot is the least recently set or used.
  private readonly slots = new Map<K, Slot<V>>();
  private total = 0;

  constructor(
    private readonly options: BoundedMapOptions<K, V>,
    entries: Iterable<readonly [K, V]> = [],
  ) {
    for (const [key, value] of entries) this.set(key, value);
  }

  /** Entries kept, aged ones not yet swept included. */
  get size(): number {
    return this.slots.size;
  }

  /** The entries' total weight (their count without `weigh`). */
  get weight(): number {
    return this.total;
  }

  /** The value, its place in the order left as it is. */
  get(key: K): V | undefined {
    return this.live(key)?.value;
  }

  has(key: K): boolean {
    return this.live(key) !== undefined;
  }

  /** The value, now the most recently used: the last to go. */
  use(key: K): V | undefined {
    const slot = this.live(key);
    if (!slot) return undefined;
    this.slots.delete(key);
    this.slots.set(key, slot);
    return slot.value;
  }

  /** Kept as the most recent, then the oldest entries not pinned go until the map is within its size. */
  set(key: K, value: V): this {
    this.delete(key);
    const weight = this.options.weigh?.(value) ?? 1;
    if (weight > this.options.maxSize) return this;
    this.slots.set(key, { value, at: this.now(), weight });
    this.total += weight;
    for (const [oldest, slot] of this.slots) {
      if (this.total <= this.options.maxSize) break;
      if (oldest !== key && !this.isPinned(oldest, slot)) this.drop(oldest, slot);
    }
    return this;
  }

  delete(key: K): boolean {
    const slot = this.slots.get(key);
    if (!slot) return false;
    this.drop(key, slot);
    return true;
  }

  clear(): void {
    this.slots.clear();
    this.total = 0;
  }

  /** The live entries, least recently set or used first (deleting while iterating is safe). */
  *entries(): IterableIterator<[K, V]> {
    for (const [key, slot] of this.slots) if (this.live(key) === slot) yield [key, slot.value];
  }

  *keys(): IterableIterator<K> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): IterableIterator<V> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[K, V]> {
    return this.entries();
  }

  /** The slot unless it has aged out (then it goes, unless pinned). */
  private live(key: K): Slot<V> | undefined {
    const slot = this.slots.get(key);
    if (!slot) return undefined;
    const { maxAgeMs } = this.options;
    if (maxAgeMs === undefined || this.now() - slot.at < maxAgeMs || this.isPinned(key, slot)) return slot;
    this.drop(key, slot);
    return undefined;
  }

  private isPinned(key: K, slot: Slot<V>): boolean {
    return this.options.pinned?.(slot.value, key) ?? false;
  }

  private drop(key: K, slot: Slot<V>) {
    this.slots.delete(key);
    this.total -= slot.weight;
  }

  private now(): number {
    return (this.options.clock ?? Date.now)();
  }
}
