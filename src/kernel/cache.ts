import { LRUCache } from 'lru-cache';

/**
 * Every in-process cache is bounded the same way: at most `max` entries, the least recently used
 * dropped first, and (optionally) an entry forgotten `ttlMs` after it was set. One policy, from a
 * well-kept library, instead of a hand-written eviction per cache.
 */
export function boundedCache<K extends {}, V extends {}>(max: number, options: { ttlMs?: number } = {}): LRUCache<K, V> {
  return new LRUCache<K, V>({ max, ...(options.ttlMs ? { ttl: options.ttlMs, ttlAutopurge: false } : {}) });
}
