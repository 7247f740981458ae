/**
 * The record suite on a real PostgreSQL server, over the memory store, over a real redis-server
 * restarted without its data between the two meterings (the ledger Redis lost), and over a Redis
 * Cluster flushed between them (the in-process hand-off: a Cluster has no stream beside the accounts).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { createPostgresDatabase } from '@retail/database';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { Redis } from 'ioredis';
import { redisClusterMissing, redisMissing, startRedis, startRedisCluster, type RedisCluster, type RedisServer } from '../../harness/redis.js';
import { recordSuite } from './record-suite.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('ledger record on PostgreSQL', () => {
  const created: TestDatabase[] = [];
  let redis: RedisServer;
  const open = async () => {
    const test = await createTestDatabase('ledger_test');
    created.push(test);
    return createPostgresDatabase({ connectionString: test.url });
  };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    for (const test of created) await test.drop();
    await redis?.stop();
  });

  recordSuite('PostgreSQL, memory store', open);
  recordSuite('PostgreSQL, Redis restarted empty between runs', open, {
    metering: () => ({ redisUrl: redis.url }),
    emptyStore: () => redis.restart(),
  });

  const clusterMissing = redisClusterMissing();
  if (clusterMissing) console.warn(`[skip] ${clusterMissing}`);
  describe.skipIf(clusterMissing !== null)('on a Redis Cluster', () => {
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await startRedisCluster();
    });
    afterAll(async () => {
      await cluster?.stop();
    });
    recordSuite('PostgreSQL, Redis Cluster flushed between runs', open, {
      metering: () => ({ cluster: cluster.nodes }),
      async emptyStore() {
        // Every node, primary by primary (the cluster has no replicas).
        for (const node of cluster.nodes) {
          const client = new Redis(`redis://${node}`);
          try {
            await client.flushall();
          } finally {
            client.disconnect();
          }
        }
      },
    });
  });
});
