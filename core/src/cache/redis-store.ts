import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { UpstreamMetrics } from '../outcomes/metrics.js';
import { decodeEntry, encodeEntry, type CacheEntry, type PageCache } from './page-cache.js';

export interface RedisCacheOptions {
  /** CACHE_REDIS_URL (or REDIS_URL). */
  readonly url: string;
  readonly logger?: Pick<Logger, 'warn'>;
  readonly metrics?: Pick<UpstreamMetrics, 'cacheStoreError'>;
  /** Longest a cache command may take before it counts as a miss (default 250 ms). */
  readonly commandTimeoutMs?: number;
}

/**
 * A client of the cache Redis that fails fast: no offline queue and no per-command retries, so while
 * Redis is down every command fails at once and ioredis keeps reconnecting in the background. The
 * page cache and the field-health window (core/src/health) share these settings.
 */
export function createCacheRedisClient(url: string, commandTimeoutMs: number): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 1_000,
    retryStrategy: (times) => Math.min(100 * times, 2_000),
    lazyConnect: false,
  });
}

/**
 * The shared store (production: its own `allkeys-lru` Redis). Built to fail fast: no offline queue
 * and no per-command retries, so while Redis is down every read is an immediate miss and every write
 * is dropped; ioredis keeps reconnecting in the background and the cache comes back by itself.
 */
export function createRedisPageCache(options: RedisCacheOptions): PageCache & { readonly client: Redis } {
  const client = createCacheRedisClient(options.url, options.commandTimeoutMs ?? 250);
  let lastWarnAt = 0;
  const failed = (operation: string, error: unknown) => {
    options.metrics?.cacheStoreError(operation);
    // One log line per 10 s at most: an outage must not flood the logs.
    if (Date.now() - lastWarnAt > 10_000) {
      lastWarnAt = Date.now();
      options.logger?.warn({ err: error, operation }, 'page cache (Redis) unavailable; serving without cache');
    }
  };
  // ioredis emits 'error' on every failed reconnect; unhandled it would crash the process.
  client.on('error', (error) => failed('connection', error));
  return {
    backend: 'redis',
    client,
    async get(key: string): Promise<CacheEntry | undefined> {
      try {
        const bytes = await client.getBuffer(key);
        return bytes ? decodeEntry(bytes) : undefined;
      } catch (error) {
        failed('get', error);
        return undefined;
      }
    },
    async set(key: string, entry: CacheEntry, ttlMs: number): Promise<void> {
      try {
        await client.set(key, encodeEntry(entry), 'PX', Math.max(1, Math.round(ttlMs)));
      } catch (error) {
        failed('set', error);
      }
    },
    async close() {
      client.disconnect();
    },
  };
}
