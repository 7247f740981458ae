/** The ledger suite against a local 3-node Redis Cluster started by the harness. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Cluster } from 'ioredis';
import { createMetering, type MeteringInstance, type MeteringOptions } from '../../gateways/metering/src/index.js';
import { redisClusterMissing, startRedisCluster, type RedisCluster } from '../harness/redis.js';
import { ledgerSuite } from './ledger-suite.js';

const missing = redisClusterMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('Redis Cluster ledger', () => {
  let cluster: RedisCluster;
  const opened: MeteringInstance[] = [];
  const open = async (options: MeteringOptions) => {
    const metering = await createMetering({ cluster: cluster.nodes, ...options });
    opened.push(metering);
    return metering;
  };

  beforeAll(async () => {
    cluster = await startRedisCluster();
  });
  afterAll(async () => {
    await Promise.all(opened.map((m) => m.close()));
    await cluster?.stop();
  });

  ledgerSuite('redis cluster', open);

  it('keeps every Redis key of an account in one slot, and spreads accounts over the nodes', async () => {
    const metering = await open({});
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const { accountId } = await metering.admin.createAccount({ plan: 'unlimited' });
      const { key } = await metering.admin.createKey(accountId);
      const r = await metering.meter.admit({ key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'r' });
      if (r.ok) await metering.meter.settle(r.hold, 1);
      ids.push(accountId);
    }
    const client = new Cluster(cluster.nodes.map((n) => ({ host: '127.0.0.1', port: Number(n.split(':')[1]) })));
    try {
      await new Promise((resolve) => client.once('ready', resolve));
      const slotsUsed = new Set<number>();
      for (const accountId of ids) {
        const keys: string[] = [];
        for (const node of client.nodes('master')) keys.push(...(await node.keys(`ledger:{${accountId}}:*`)));
        expect(keys.length).toBeGreaterThanOrEqual(4);
        const slots = new Set(await Promise.all(keys.map((k) => client.cluster('KEYSLOT', k))));
        expect(slots.size).toBe(1);
        slotsUsed.add(Number([...slots][0]));
      }
      const perNode = await Promise.all(client.nodes('master').map((node) => node.dbsize()));
      expect(perNode.filter((n) => n > 0).length).toBeGreaterThan(1);
      expect(slotsUsed.size).toBeGreaterThan(1);
    } finally {
      client.disconnect();
    }
  });
});
