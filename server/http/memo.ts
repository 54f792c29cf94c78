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
