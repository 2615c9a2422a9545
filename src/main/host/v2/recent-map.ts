/**
 * A map that keeps its most recently used keys, up to a bound: the 2.x
 * adapter's per-session memories (each session's blocks, the sessions an
 * instance owns) live as long as the service, which serves sessions without
 * end, so each keeps only the newest.
 */

/** A bounded map, most recently used last. */
export interface RecentMap<V> {
  get(key: string): V | undefined;
  has(key: string): boolean;
  set(key: string, value: V): void;
  delete(key: string): void;
}

/** @param limit - keys kept; past it the least recently used goes. */
export function createRecentMap<V>(limit: number): RecentMap<V> {
  const kept = new Map<string, V>();
  const touch = (key: string, value: V): void => {
    kept.delete(key);
    kept.set(key, value);
  };
  return {
    get(key) {
      const value = kept.get(key);
      if (value !== undefined) touch(key, value);
      return value;
    },
    has: (key) => kept.has(key),
    set(key, value) {
      touch(key, value);
      while (kept.size > limit) {
        const oldest = kept.keys().next().value;
        if (oldest === undefined) break;
        kept.delete(oldest);
      }
    },
    delete(key) {
      kept.delete(key);
    },
  };
}
