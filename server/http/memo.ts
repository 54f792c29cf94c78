// A bounded memo: an LRU of at most so many entries, the least recently used out first.
import { LRUCache } from 'lru-cache';

const one = () => 1;

/**
 * At most `max` entries, counted as a size of one each: lru-cache's own `max` allocates every slot up front (2.8 MB
 * for 100,000), this grows with use.
 */
export function memo<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(max: number): LRUCache<K, V> {
  return new LRUCache<K, V>({ maxSize: max, sizeCalculation: one });
}

/**
 * A memo that makes what it lacks (lru-cache's memoMethod): `kept.memo(key)`, or `kept.memo(key, { context })` when
 * making the value takes more than its key.
 */
export function memoBy<K extends NonNullable<unknown>, V extends NonNullable<unknown>, C = undefined>(
  max: number,
  make: (key: K, context: C) => V,
): LRUCache<K, V, C> {
  return new LRUCache<K, V, C>({
    maxSize: max,
    sizeCalculation: one,
    memoMethod: (key, _stale, { context }) => make(key, context),
  });
}
