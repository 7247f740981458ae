import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type RedisServer } from '../../../test/harness/redis.js';
import { createUpstreamMetrics, total } from '../outcomes/metrics.js';
import { createRedisPageCache } from './redis-store.js';

const missing = redisMissing();
if (missing) console.warn(`redis-store.test: ${missing}`);

describe.skipIf(missing !== null)('createRedisPageCache (real redis-server)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('stores entries with their TTL and reads them back (bigint included)', async () => {
    const cache = createRedisPageCache({ url: redis.url });
    if (cache.client.status !== 'ready') await once(cache.client, 'ready');
    const entry = { value: { stock: 7n, title: 'Kaffeemühle' }, url: 'https://www.amazon.de/dp/X', retrievedAt: 5, freshUntil: 9 };
    await cache.set('retail:page:test', entry, 60_000);
    expect(await cache.get('retail:page:test')).toEqual(entry);
    const ttl = await cache.client.pttl('retail:page:test');
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(60_000);
    expect(await cache.get('retail:page:absent')).toBeUndefined();
    await cache.close();
  });

  it('a Redis outage reads as a miss and drops writes, counted, never thrown', async () => {
    const down = await startRedis();
    const metrics = createUpstreamMetrics();
    const warnings: string[] = [];
    const cache = createRedisPageCache({ url: down.url, metrics, logger: { warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)) } });
    if (cache.client.status !== 'ready') await once(cache.client, 'ready');
    await down.stop();
    await new Promise((r) => setTimeout(r, 20)); // let the client notice the closed socket
    expect(await cache.get('retail:page:k')).toBeUndefined();
    await expect(cache.set('retail:page:k', { value: 1, url: 'u', retrievedAt: 0, freshUntil: 1 }, 1000)).resolves.toBeUndefined();
    expect(total(metrics.snapshot(), 'page_cache_store_error_total')).toBeGreaterThanOrEqual(2);
    expect(warnings.length).toBeGreaterThanOrEqual(1);
    await cache.close();
  });
});
