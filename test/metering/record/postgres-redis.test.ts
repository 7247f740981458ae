/**
 * The record suite on a real PostgreSQL server, once over the memory store and once over a real
 * redis-server restarted without its data between the two meterings (the ledger Redis lost).
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { createPostgresDatabase } from '@retail/database';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
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
});
