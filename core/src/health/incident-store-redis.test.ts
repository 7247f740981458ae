import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type RedisServer } from '../../../test/harness/redis.js';
import { createCacheRedisClient } from '../cache/redis-store.js';
import { healthyRecord } from './incident-store.js';
import { createRedisIncidentStore } from './incident-store-redis.js';

const missing = redisMissing();
if (missing) console.warn(`incident-store-redis.test: ${missing}`);

describe.skipIf(missing !== null)('the incident state on Redis (real redis-server)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  const store = async () => {
    const client = createCacheRedisClient(redis.url, 1_000);
    if (client.status !== 'ready') await once(client, 'ready');
    return createRedisIncidentStore({ client, logLimit: 3 });
  };

  it('one replica wins each change: the loser of a race records nothing and reads the winner', async () => {
    const [a, b] = [await store(), await store()];
    const fresh = healthyRecord('US', 'product');
    const [won, lost] = await Promise.all([a.transition(fresh, { state: 'major', fields: ['price'] }, 1_000), b.transition(fresh, { state: 'degraded', fields: ['rating'] }, 1_001)]);
    expect([won, lost].filter(Boolean)).toHaveLength(1);
    const [record] = await b.all();
    expect(record).toMatchObject({ marketplace: 'US', kind: 'product', version: 1, state: (won ?? lost)!.to });
    const closed = await a.transition(record!, { state: 'healthy', fields: [] }, 2_000);
    expect(closed).toMatchObject({ from: record!.state, to: 'healthy', fields: [], at: 2_000 });
    expect((await b.all())[0]).toMatchObject({ state: 'healthy', fields: [], since: 2_000, version: 2 });
    await Promise.all([a.close(), b.close()]);
  });

  it('the log numbers every transition and keeps the last logLimit', async () => {
    const s = await store();
    let record = healthyRecord('DE', 'search');
    for (const [i, state] of (['degraded', 'major', 'degraded', 'healthy'] as const).entries()) {
      const t = await s.transition(record, { state, fields: state === 'healthy' ? [] : ['results'] }, 10 + i);
      record = (await s.all()).find((r) => r.marketplace === 'DE')!;
      expect(t?.to).toBe(state);
    }
    const log = await s.transitionsAfter(0);
    expect(log.map((t) => t.to)).toEqual(['major', 'degraded', 'healthy']);
    expect(log.at(-1)!.fields).toEqual([]);
    expect(await s.transitionsAfter(log[1]!.seq)).toEqual([log[2]]);
    await s.close();
  });
});
