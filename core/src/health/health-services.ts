import type { Logger } from 'pino';
import { createCacheRedisClient } from '../cache/redis-store.js';
import { createFieldHealth, type FieldHealth } from './field-health.js';
import { createMemoryFieldWindow } from './field-window.js';
import { createRedisFieldWindow } from './field-window-redis.js';
import { createIncidentKeeper, type IncidentKeeper } from './incident-keeper.js';
import { createMemoryIncidentStore } from './incident-store.js';
import { createRedisIncidentStore } from './incident-store-redis.js';

/** Field health and incidents of one core process (docs/data-health.md). */
export interface HealthServices {
  readonly fieldHealth: FieldHealth;
  readonly incidents: IncidentKeeper;
  close(): Promise<void>;
}

export interface HealthServicesOptions {
  /** CACHE_REDIS_URL / REDIS_URL: shared by every replica; in memory (one process) when absent. */
  readonly cacheRedisUrl?: string | undefined;
  readonly logger?: Logger;
}

/**
 * The window and the incident state live on the cache Redis, one client for both (their keys are
 * tiny and read every few seconds, so the cache's LRU policy does not reach them in practice), or in
 * memory for the one-process default.
 */
export function createHealthServices(options: HealthServicesOptions): HealthServices {
  const client = options.cacheRedisUrl ? createCacheRedisClient(options.cacheRedisUrl, 1_000) : undefined;
  const logger = options.logger ? { logger: options.logger } : {};
  const incidents = createIncidentKeeper({
    store: client ? createRedisIncidentStore({ client, ownsClient: false }) : createMemoryIncidentStore(),
    ...logger,
  });
  const fieldHealth = createFieldHealth({
    store: client ? createRedisFieldWindow({ client, ownsClient: false }) : createMemoryFieldWindow(),
    learning: incidents.learning,
    onSnapshot: (snapshot) => void incidents.observe(snapshot),
    ...logger,
  });
  return {
    fieldHealth,
    incidents,
    async close() {
      await fieldHealth.close();
      await incidents.close();
      client?.disconnect();
    },
  };
}
