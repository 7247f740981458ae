import type { Logger } from 'pino';
import { createPageArchiveTapFrom, type PageArchiveSettings } from './archive/archive-settings.js';
import { createMemoryPageCache } from './cache/memory-store.js';
import type { PageCache } from './cache/page-cache.js';
import { withPageCache } from './cache/page-html-cache.js';
import { createParsedPageSource, type ParsedPageSource } from './cache/parsed-pages.js';
import { createRedisPageCache } from './cache/redis-store.js';
import { withFieldHealth } from './health/accounted-pages.js';
import { createHealthServices, type HealthServices } from './health/health-services.js';
import type { PageFetcher } from './pages/types.js';
import { createUpstreamMetrics, type UpstreamMetrics } from './outcomes/metrics.js';
import { createParsePool, type ParsePool } from './workers/pool.js';
import type { MarketplaceState } from './outcomes/reachability.js';
import type { Clock } from './resilience/clock.js';
import { createResilientPageFetcher, type ResilientPageFetcher } from './resilience/compose.js';
import type { ResilienceConfig } from './resilience/config.js';

export interface PageServices {
  /** ctx.pages: cached (HTML entries), single-flight, then retries, breaker and host caps. */
  readonly pages: PageFetcher;
  readonly resilient: ResilientPageFetcher;
  /** ctx.parsedPages: cached, single-flight parsed pages. */
  readonly parsedPages: ParsedPageSource;
  /** ctx.parsePool: worker threads for parsing. */
  readonly parsePool: ParsePool;
  readonly cache: PageCache | undefined;
  readonly metrics: UpstreamMetrics;
  /** Field health of every parse and the incidents it opens (core/src/health, docs/data-health.md). */
  readonly health: HealthServices;
  close(): Promise<void>;
}

export interface PageServicesOptions {
  /** The raw upstream client (core/src/upstream createPageFetcher). */
  readonly raw: PageFetcher & { close?(): Promise<void> };
  readonly settings: ResilienceConfig;
  /** CACHE_REDIS_URL / REDIS_URL; the memory store when absent. */
  readonly cacheRedisUrl?: string | undefined;
  readonly logger?: Logger;
  /** Time of the whole stack: back-off, breaker, host caps and the page cache's lifetimes. */
  readonly clock?: Clock;
  /** The page archive's settings (CoreConfig.pageArchive); absent: the process environment's (benches, tests). */
  readonly pageArchive?: PageArchiveSettings;
  /** Hears the marketplace's overall reachability when it changes (the gRPC health entry). */
  readonly onReachabilityChange?: (state: MarketplaceState) => void;
}

/** Builds the page stack of the core from its settings (one place; server.ts calls it). */
export function createPageServices(options: PageServicesOptions): PageServices {
  const s = options.settings;
  const metrics = createUpstreamMetrics();
  const resilient = createResilientPageFetcher(options.raw, {
    retry: { maxAttempts: s.retryAttempts, baseDelayMs: s.retryBaseMs, maxDelayMs: s.retryMaxMs, minAttemptMs: s.retryMinAttemptMs },
    breaker: { failureThreshold: s.breakerFailures, openMs: s.breakerOpenMs },
    limits: { concurrency: s.hostConcurrency, ratePerSecond: s.hostRatePerSecond, burst: s.hostBurst },
    metrics,
    ...(options.logger ? { logger: options.logger } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.onReachabilityChange ? { onReachabilityChange: options.onReachabilityChange } : {}),
  });
  const cache: PageCache | undefined = options.cacheRedisUrl
    ? createRedisPageCache({ url: options.cacheRedisUrl, metrics, ...(options.logger ? { logger: options.logger } : {}) })
    : s.cacheMaxBytes > 0
      ? createMemoryPageCache({ maxBytes: s.cacheMaxBytes, ...(options.clock ? { now: options.clock.now } : {}) })
      : undefined;
  const health = createHealthServices({ cacheRedisUrl: options.cacheRedisUrl, ...(options.logger ? { logger: options.logger } : {}) });
  const archive = options.pageArchive ? createPageArchiveTapFrom(options.pageArchive, options.logger) : undefined;
  const parsedPages = withFieldHealth(createParsedPageSource({
    fetcher: resilient,
    ...(cache ? { cache } : {}),
    ttlSeconds: s.cacheTtlSeconds,
    negativeTtlSeconds: s.cacheNegativeTtlSeconds,
    staleSeconds: s.cacheStaleSeconds,
    ...(options.clock ? { now: options.clock.now } : {}),
    ...(options.pageArchive ? { archive: archive?.tap ?? false } : {}),
    metrics,
    ...(options.logger ? { logger: options.logger } : {}),
  }), health.fieldHealth);
  // Every handler reads parsed pages; `pages` serves a page's HTML itself (callers without a parser,
  // bench/cache.ts's baseline) through the same cache, single-flight and stale rules.
  const pages = withPageCache(parsedPages);
  const parsePool = createParsePool({ size: s.parseWorkers });
  return {
    pages,
    resilient,
    parsedPages,
    parsePool,
    cache,
    metrics,
    health,
    async close() {
      await Promise.all([parsePool.close(), cache?.close(), health.close(), archive?.close(), options.raw.close?.()]);
    },
  };
}
