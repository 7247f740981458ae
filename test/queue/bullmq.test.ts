/**
 * The job-system suite against BullMQ on a real redis-server, plus what only Redis shows: an
 * evicting server is refused, and the environment picks the queue Redis.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBullJobSystem, createJobSystemFromEnv, defineQueue, queueRedisUrl } from '../../watcher/src/queue/index.js';
import { redisMissing, startRedis, type RedisServer } from '../harness/redis.js';
import { jobSystemSuite, until } from './job-system-suite.js';

const missing = redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('BullMQ job system', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  jobSystemSuite('bullmq', () => ({
    open: () => createBullJobSystem({ redisUrl: redis.url }),
    dispose: async () => {},
  }));

  it('refuses a Redis that evicts keys, and only warns when told to', async () => {
    const evicting = await startRedis();
    const admin = new Redis(evicting.url);
    try {
      await admin.config('SET', 'maxmemory-policy', 'allkeys-lru');
      await expect(createBullJobSystem({ redisUrl: evicting.url })).rejects.toThrow(/maxmemory-policy allkeys-lru/);
      const warnings: string[] = [];
      const tolerated = await createBullJobSystem({ redisUrl: evicting.url, evictingRedis: 'warn', warn: (message) => void warnings.push(message) });
      await tolerated.close();
      expect(warnings.some((warning) => warning.includes('allkeys-lru'))).toBe(true);
    } finally {
      admin.disconnect();
      await evicting.stop();
    }
  });

  it('answers not ready while its Redis is down, fails adds fast, and adds again once Redis is back', async () => {
    const own = await startRedis();
    const system = await createBullJobSystem({ redisUrl: own.url, warn: () => {} });
    try {
      const queue = system.queue(defineQueue<{ n: number }>('outage'));
      expect(await queue.add({ n: 1 })).toBeTruthy();
      await own.stop();
      expect(await system.ready()).toBe(false);
      const started = Date.now();
      await expect(queue.add({ n: 2 })).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(5_000);
      const back = await startRedis(own.port);
      try {
        let ready = false;
        await until(() => ready, 10_000, 'reconnection', async () => void (ready = await system.ready()));
        expect(await queue.add({ n: 3 }, { id: 'after-outage' })).toBe('after-outage');
      } finally {
        await back.stop();
      }
    } finally {
      await system.close();
      await own.stop();
    }
  }, 30_000);

  it('takes the queue Redis from QUEUE_REDIS_URL, else the ledger Redis, else runs the in-memory twin', async () => {
    expect(queueRedisUrl({ QUEUE_REDIS_URL: 'redis://q', LEDGER_REDIS_URL: 'redis://l', REDIS_URL: 'redis://r' })).toBe('redis://q');
    expect(queueRedisUrl({ LEDGER_REDIS_URL: 'redis://l', REDIS_URL: 'redis://r' })).toBe('redis://l');
    expect(queueRedisUrl({ REDIS_URL: 'redis://r' })).toBe('redis://r');
    const onRedis = await createJobSystemFromEnv({ QUEUE_REDIS_URL: redis.url });
    expect(onRedis.kind).toBe('bullmq');
    expect(await onRedis.ready()).toBe(true);
    await onRedis.close();
    const embedded = await createJobSystemFromEnv({});
    expect(embedded.kind).toBe('memory');
    await embedded.close();
    await expect(createJobSystemFromEnv({ LEDGER_REDIS_CLUSTER: '127.0.0.1:7000' })).rejects.toThrow(/QUEUE_REDIS_URL/);
  });
});
