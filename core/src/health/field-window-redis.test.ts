import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisMissing, startRedis, type RedisServer } from '../../../test/harness/redis.js';
import { createCacheRedisClient } from '../cache/redis-store.js';
import { createFieldHealth } from './field-health.js';
import { createMemoryFieldWindow, type FieldWindowStore, type WindowKey } from './field-window.js';
import { createRedisFieldWindow } from './field-window-redis.js';

const missing = redisMissing();
if (missing) console.warn(`field-window-redis.test: ${missing}`);

const KEY: WindowKey = { marketplace: 'US', kind: 'product', fields: 3, version: 'test' };

async function connected(url: string) {
  const client = createCacheRedisClient(url, 1_000);
  if (client.status !== 'ready') await once(client, 'ready');
  return client;
}

/** A reproducible mix of presence strings: mostly complete, some gaps. */
const PARSES = Array.from({ length: 57 }, (_, i) => `${i % 7 === 0 ? 0 : 1}${i % 3 === 0 ? 0 : 1}1`);

describe.skipIf(missing !== null)('the field window on Redis (real redis-server)', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis.stop();
  });

  it('counts exactly as the memory window does, batch by batch, baseline included', async () => {
    const shared = createRedisFieldWindow({ client: await connected(redis.url) });
    const memory = createMemoryFieldWindow();
    const key = { ...KEY, version: 'same-as-memory' };
    const batches = [PARSES.slice(0, 5), PARSES.slice(5, 30), PARSES.slice(30)];
    for (const [i, batch] of batches.entries()) {
      const [a, b] = await Promise.all([shared.push(key, batch, i !== 1), memory.push(key, batch, i !== 1)]);
      expect(a.parses).toBe(b.parses);
      expect(a.present).toEqual(b.present);
      expect(a.learned).toBe(b.learned);
      a.baseline.forEach((value, f) => expect(value).toBeCloseTo(b.baseline[f]!, 12));
    }
    expect((await shared.read(key)).parses).toBe(20);
    await shared.close();
  });

  it('two replicas share one window: each sees the parses of both', async () => {
    const replicas = await Promise.all([0, 1].map(async () => createFieldHealth({ store: createRedisFieldWindow({ client: await connected(redis.url) }), flushMs: 60_000 })));
    const [a, b] = replicas as [ReturnType<typeof createFieldHealth>, ReturnType<typeof createFieldHealth>];
    const record = { product: { ok: true, value: { product: { title: 'Kettle', isInStock: true, price: { value: 10 } } } } };
    for (let i = 0; i < 3; i++) a.record('DE', 'product-page', { record });
    for (let i = 0; i < 4; i++) b.record('DE', 'product-page', 'unparseable');
    await Promise.all([a.flush(), b.flush()]);
    for (const replica of replicas) {
      const snapshot = await replica.read('DE', 'product');
      expect(snapshot.parses).toBe(7);
      expect(snapshot.fields.find((f) => f.name === 'price')).toMatchObject({ present: 3 });
    }
    await Promise.all(replicas.map((r) => r.close()));
  });

  it('a Redis outage loses counts, never a call: recording goes on and nothing throws', async () => {
    const down = await startRedis();
    const warnings: string[] = [];
    const store: FieldWindowStore = createRedisFieldWindow({ client: await connected(down.url) });
    const health = createFieldHealth({ store, flushMs: 60_000, logger: { warn: (_o: unknown, msg?: string) => void warnings.push(String(msg)) } });
    await down.stop();
    health.record('US', 'product-page', 'unparseable');
    await expect(health.flush()).resolves.toBeUndefined();
    expect(warnings).toEqual(['field-health window unavailable; parses not accounted']);
    await health.close();
  });
});
