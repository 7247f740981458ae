/**
 * The ledger Redis emptied under load (FLUSHALL while calls run), with the record on a real PostgreSQL:
 * every account comes back on its next call, the record is never overdrawn, the balance after recovery
 * is the record's credits − debits, and the calls reported charged that the record does not hold are
 * only the few whose hand-off entries the flush took (given back, never charged twice).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering } from '../../../gateways/metering/src/index.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

describe.skipIf(missing !== null)('FLUSHALL of the ledger Redis under load', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let db: Database;
  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('ledger_flush');
    db = createPostgresDatabase({ connectionString: test.url });
  });
  afterAll(async () => {
    await db?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('restores every account from the record, never overdraws the record, and gives back only what the flush took', async () => {
    const log: string[] = [];
    const metering = await createMetering({ redisUrl: redis.url, record: db, log: (line) => log.push(line) });
    const admin = new Redis(redis.url);
    try {
      const accounts = await Promise.all([0, 1, 2].map(async () => {
        const { accountId } = await metering.admin.createAccount({ units: 60, plan: 'unlimited' });
        return { accountId, key: (await metering.admin.createKey(accountId)).key, reported: 0, refused: 0 };
      }));
      let flushed = false;
      let inStreamAtFlush = 0;
      let givenBack = 0;
      const caller = async (account: (typeof accounts)[number]) => {
        for (let i = 0; i < 40; i++) {
          const admitted = await metering.meter.admit({ key: account.key, interface: 'rest', operations: ['GetProduct'], shapeValid: true, requestId: 'r' });
          if (!admitted.ok) {
            account.refused++;
            continue;
          }
          await new Promise((resolve) => setTimeout(resolve, 2)); // the call being served
          const { charged } = await metering.meter.settle(admitted.hold, 1);
          account.reported += charged;
        }
      };
      const flush = (async () => {
        await new Promise((resolve) => setTimeout(resolve, 60));
        // In one step: what the hand-off stream held when everything went.
        const replies = await admin.multi().xlen('ledger:usage-handoff').flushall().exec();
        inStreamAtFlush = Number(replies![0]![1]);
        flushed = true;
      })();
      await Promise.all([...accounts.flatMap((account) => [caller(account), caller(account)]), flush]);
      expect(flushed).toBe(true);
      for (const account of accounts) expect(log.some((line) => line.includes(`restored account ${account.accountId}`))).toBe(true);

      // Let the hand-off write what it holds, then compare Redis, the record and what callers were told.
      for (let i = 0; i < 200 && (await admin.xlen('ledger:usage-handoff')) > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await admin.xlen('ledger:usage-handoff')).toBe(0);
      for (const account of accounts) {
        const [row] = await db.query<{ debits: number }>('SELECT COALESCE(sum(units), 0)::integer AS debits FROM ledger_usage WHERE account_id = $1', [account.accountId]);
        const balance = (await metering.admin.summary(account.accountId)).balance;
        expect(balance).toBeGreaterThanOrEqual(0);
        expect(balance).toBe(60 - row!.debits);
        // Never taken twice: the record holds at most the credits and at most what callers were told they
        // paid; the difference is calls whose hand-off entries the flush took (given back, docs/metering.md).
        expect(row!.debits).toBeLessThanOrEqual(60);
        expect(row!.debits).toBeLessThanOrEqual(account.reported);
        givenBack += account.reported - row!.debits;
        console.log(`account ${account.accountId}: ${account.reported} reported charged, ${row!.debits} in the record, balance ${balance}, ${account.refused} refused`);
      }
      // Only calls whose entries were in the stream at the flush can be missing from the record.
      expect(givenBack).toBeLessThanOrEqual(inStreamAtFlush);
      console.log(`flush: ${inStreamAtFlush} entries in the hand-off stream, ${givenBack} calls given back`);
    } finally {
      admin.disconnect();
      await metering.close();
    }
  }, 60_000);
});
