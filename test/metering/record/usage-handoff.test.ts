/**
 * The durable hand-off of settled usage (issue 24) on a real redis-server and a real PostgreSQL reached
 * through a proxy that can cut it off: calls go on being served and charged while PostgreSQL is away,
 * and afterwards the usage log holds every charged call exactly once, also when the consumer that had
 * them stopped without acknowledging and another took them over.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering } from '../../../gateways/metering/src/index.js';
import { createLedgerRecord } from '../../../gateways/metering/src/record/ledger-record.js';
import { startUsageStream } from '../../../gateways/metering/src/record/usage-stream.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { startTcpProxy, type TcpProxy } from '../../harness/tcp-proxy.js';
import { spend } from './record-suite.js';
import { until } from '../../harness/until.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('usage hand-off to the record', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let proxy: TcpProxy;
  let direct: Database;
  const viaProxy = () => {
    const url = new URL(test.url);
    url.host = `127.0.0.1:${proxy.port}`;
    return createPostgresDatabase({ connectionString: url.toString(), maxConnections: 2 });
  };
  const usage = async () => (await direct.query<{ rows: number; holds: number; units: number }>(
    'SELECT count(*)::integer AS rows, count(DISTINCT hold_id)::integer AS holds, COALESCE(sum(units), 0)::integer AS units FROM ledger_usage',
  ))[0]!;

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('ledger_handoff');
    const { port, hostname } = new URL(test.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    direct = createPostgresDatabase({ connectionString: test.url });
  });
  afterAll(async () => {
    await direct?.close();
    await proxy?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('keeps serving and charging while PostgreSQL is away, then writes every charged call once', async () => {
    const db = viaProxy();
    const log: string[] = [];
    const metering = await createMetering({ redisUrl: redis.url, record: db, log: (line) => log.push(line) });
    try {
      const { accountId } = await metering.admin.createAccount({ units: 1_000, plan: 'unlimited' });
      const { key } = await metering.admin.createKey(accountId);
      expect(await spend(metering, key, 20)).toBe(20);
      await until(async () => (await usage()).rows === 20, '20 rows before the outage');

      proxy.cut();
      const started = Date.now();
      expect(await spend(metering, key, 50)).toBe(50);
      // Admit and settle never wait on PostgreSQL.
      expect(Date.now() - started).toBeLessThan(5_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect((await usage()).rows).toBe(20);
      expect(log.some((line) => line.includes('PostgreSQL write failed'))).toBe(true);

      proxy.restore();
      await until(async () => (await usage()).rows >= 70, 'the 50 calls of the outage written');
      expect(await usage()).toEqual({ rows: 70, holds: 70, units: 70 });
      expect((await metering.admin.summary(accountId)).balance).toBe(1_000 - 70);
    } finally {
      proxy.restore();
      await metering.close();
      await db.close();
    }
  }, 60_000);

  it('starts while PostgreSQL is away, serves calls from the ledger, and catches up once it is back', async () => {
    // An account the ledger already has (made before this process, here without a record).
    const plain = await createMetering({ redisUrl: redis.url });
    const { accountId } = await plain.admin.createAccount({ units: 100, plan: 'unlimited' });
    const { key } = await plain.admin.createKey(accountId);
    await plain.close();

    const fresh = await createTestDatabase('ledger_late');
    const url = new URL(fresh.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const db = createPostgresDatabase({ connectionString: url.toString(), maxConnections: 2 });
    const log: string[] = [];
    proxy.cut();
    const metering = await createMetering({ redisUrl: redis.url, record: db, log: (line) => log.push(line) });
    const check = createPostgresDatabase({ connectionString: fresh.url });
    try {
      expect(log.some((line) => line.includes('PostgreSQL is not ready'))).toBe(true);
      expect(await spend(metering, key, 5)).toBe(5);
      // Account changes wait for the record: refused, and nothing changed in the ledger either.
      await expect(metering.admin.grantUnits(accountId, 10)).rejects.toMatchObject({ name: 'RecordUnavailableError' });
      expect((await metering.admin.summary(accountId)).balance).toBe(95);
      proxy.restore();
      await until(async () => log.some((line) => line.includes('PostgreSQL is ready')), 'the schema made once PostgreSQL is back');
      await until(async () => {
        const rows = await check.query<{ n: number }>('SELECT count(*)::integer AS n FROM ledger_usage').catch(() => [{ n: 0 }]);
        return rows[0]!.n === 5;
      }, 'the 5 calls written');
    } finally {
      proxy.restore();
      await metering.close();
      await db.close();
      await check.close();
      await fresh.drop();
    }
  }, 60_000);

  it('writes what a stopped consumer held once another takes it over, and a batch written twice once', async () => {
    const before = (await usage()).rows;
    const db = viaProxy();
    const metering = await createMetering({ redisUrl: redis.url, record: db, log: () => undefined });
    let consumer: ReturnType<typeof startUsageStream> | undefined;
    try {
      const { accountId } = await metering.admin.createAccount({ units: 1_000, plan: 'unlimited' });
      const { key } = await metering.admin.createKey(accountId);
      proxy.cut();
      // The process's own consumer reads these and cannot write them: they stay pending to it.
      expect(await spend(metering, key, 30)).toBe(30);
      await metering.close(); // waits its grace, then stops without acknowledging
      await db.close();

      // Another consumer, whose first write lands but whose acknowledgement is lost (it throws after).
      proxy.restore();
      const record = createLedgerRecord(direct);
      let writes = 0;
      consumer = startUsageStream({
        redisUrl: redis.url, stream: 'ledger:usage-handoff', log: () => undefined, claimIdleMs: 200,
        record: {
          async recordUsage(rows) {
            const written = await record.recordUsage(rows);
            if (writes++ === 0) throw new Error('connection lost before the acknowledgement');
            return written;
          },
        },
      });
      await until(async () => (await usage()).rows - before >= 30, 'the stopped consumer\'s 30 calls written');
      await consumer.flush();
      const after = await usage();
      expect(after.rows - before).toBe(30);
      expect(after.holds).toBe(after.rows);
      expect(writes).toBeGreaterThanOrEqual(2);
    } finally {
      proxy.restore();
      await consumer?.close();
    }
  }, 60_000);
});
