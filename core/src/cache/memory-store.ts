import { LRUCache } from 'lru-cache';
import { decodeEntry, encodeEntry, type CacheEntry, type PageCache } from './page-cache.js';

export interface MemoryCacheOptions {
  /** Upper bound of the stored bytes (entries are evicted least-recently-used first). */
  readonly maxBytes: number;
  /** Injectable time for TTLs (lru-cache's `perf`); defaults to performance.now. */
  readonly now?: () => number;
}

/** The embedded store: an LRU bounded by bytes, each entry with its own TTL. */
export function createMemoryPageCache(options: MemoryCacheOptions): PageCache & { readonly bytes: number; readonly size: number } {
  const lru = new LRUCache<string, Buffer>({
    maxSize: options.maxBytes,
    // Key bytes count too: URLs with long queries are not free.
    sizeCalculation: (value, key) => value.length + key.length,
    // An entry bigger than the whole bound is simply not kept.
    maxEntrySize: options.maxBytes,
    ttlAutopurge: false,
    // Read the clock on every check (the default caches it for 1 ms, which an injected clock defeats).
    ttlResolution: 0,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  return {
    backend: 'memory',
    async get(key: string): Promise<CacheEntry | undefined> {
      const bytes = lru.get(key);
      return bytes ? decodeEntry(bytes) : undefined;
    },
    async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
      lru.set(key, encodeEntry(entry), { ttl: Math.max(1, Math.round(ttlMs)) });
    },
    async close() {
      lru.clear();
    },
    get bytes() {
      return lru.calculatedSize;
    },
    get size() {
      return lru.size;
    },
  };
}
