/**
 * The late batch after a restore (issue 24), reproduced step by step on a real redis-server and a real
 * PostgreSQL: another process's consumer has read a batch of settled usage from the hand-off stream
 * and not yet written it when the ledger Redis is flushed; this process restores the account from the
 * record. The service must not hand those units out a second time:
 *
 * - the consumer is paused inside its write (holding the usage gate): the restore waits for it and
 *   restores a balance that counts the batch;
 * - the consumer's connection to PostgreSQL breaks while it holds the batch (the gate is let go), so the
 *   restore goes ahead without it: the batch, written afterwards, is taken from the restored balance as
 *   late debits, once, also when the batch is delivered again.
 *
 * Either way: balance = credits − debits, and the units served never exceed the credits.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '../../../gateways/metering/src/index.js';
import { DEFAULT_PLAN, DEFAULT_PLANS } from '../../../gateways/metering/src/plans.js';
import { createLedgerRecord, type LedgerRecord, type UsageRow } from '../../../gateways/metering/src/record/ledger-record.js';
import { lateDebitsTo } from '../../../gateways/metering/src/record/recorded-store.js';
import { startUsageStream } from '../../../gateways/metering/src/record/usage-stream.js';
import { createRedisStore } from '../../../gateways/metering/src/redis-store.js';
import type { LedgerStore } from '../../../gateways/metering/src/store.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { startTcpProxy, type TcpProxy } from '../../harness/tcp-proxy.js';
import { until } from '../../harness/until.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const STREAM = 'ledger:usage-handoff';
const call = (key: string) => ({ key, interface: 'rest' as const, operations: ['GetProduct'], shapeValid: true, requestId: 'r' });

/** Calls until the ledger refuses one; the units the ledger charged. */
async function spendAll(metering: MeteringInstance, key: string, most: number): Promise<number> {
  let charged = 0;
  for (let i = 0; i < most; i++) {
    const admitted = await metering.meter.admit(call(key));
    if (!admitted.ok) break;
    charged += (await metering.meter.settle(admitted.hold, 1)).charged;
  }
  return charged;
}

async function spend(metering: MeteringInstance, key: string, n: number): Promise<number> {
  const charged = await spendAll(metering, key, n);
  expect(charged).toBe(n);
  return charged;
}

/** A promise and the function that settles it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

/**
 * "Another process's" consumer (its own ledger connection and record): its first batch stops between
 * the read and the write until `resume` fires, with the read entries in hand, as a process the
 * scheduler (or a GC pause) holds there.
 */
function pausedConsumer(redisUrl: string, record: LedgerRecord, store: LedgerStore, log: string[]) {
  const read = signal();
  const resume = signal();
  let first = true;
  const consumer = startUsageStream({
    redisUrl, stream: STREAM, log: (line) => log.push(line), lateDebits: lateDebitsTo(store, Date.now, (line) => log.push(line)),
    record: {
      recordUsage: (rows) => record.recordUsage(rows),
      writeUsage: (take) => record.writeUsage(async () => {
        const rows: readonly UsageRow[] = await take();
        if (first && rows.length > 0) {
          first = false;
          read.fire();
          await resume.promise;
        }
        return rows;
      }),
    },
  });
  return { consumer, read: read.promise, resume: resume.fire };
}

describe.skipIf(missing !== null)('a late batch after a restore', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let direct: Database;
  let proxy: TcpProxy;
  let admin: Redis;
  const debitsOf = async (accountId: string) => (await direct.query<{ debits: number }>(
    'SELECT COALESCE(sum(units), 0)::integer AS debits FROM ledger_usage WHERE account_id = $1', [accountId],
  ))[0]!.debits;
  const otherStore = () => createRedisStore({
    plans: DEFAULT_PLANS, defaultPlan: DEFAULT_PLAN, lastUsedIntervalMs: 60_000, usageRetention: 100, auditRetention: 100,
    settleAnswerTtlMs: 60_000, redisUrl: redis.url, keyPrefix: 'ledger:', settleWindowMs: 5_000, usageStream: STREAM,
  });

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('ledger_late_batch');
    direct = createPostgresDatabase({ connectionString: test.url });
    const { port, hostname } = new URL(test.url);
    proxy = await startTcpProxy({ host: hostname, port: Number(port) });
    admin = new Redis(redis.url);
  });
  afterAll(async () => {
    admin?.disconnect();
    await direct?.close();
    await proxy?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('waits for a batch another consumer is writing, and restores a balance that counts it', async () => {
    const log: string[] = [];
    // This process appends to the stream and does not consume it: the other process does.
    const metering = await createMetering({ redisUrl: redis.url, record: direct, usageConsumer: false, log: (line) => log.push(line) });
    const store = otherStore();
    let other: ReturnType<typeof pausedConsumer> | undefined;
    try {
      const { accountId } = await metering.admin.createAccount({ units: 50, plan: 'unlimited' });
      const { key } = await metering.admin.createKey(accountId);
      await spend(metering, key, 12);
      // The other process's consumer starts now, so its first batch is the 12 calls.
      other = pausedConsumer(redis.url, createLedgerRecord(direct), store, log);
      await other.read; // the other consumer holds the 12 calls, unwritten
      expect(await debitsOf(accountId)).toBe(0);
      await admin.flushall();

      // The first call after the flush restores the account: it waits for the batch being written.
      let restoredYet = false;
      const first = metering.meter.admit(call(key)).finally(() => (restoredYet = true));
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(restoredYet).toBe(false);
      other.resume();
      const admitted = await first;
      expect(admitted.ok).toBe(true);
      if (!admitted.ok) return;
      expect(admitted.balance).toBe(50 - 12 - 1);
      expect((await metering.meter.settle(admitted.hold, 1)).charged).toBe(1);

      // The rest of the account, and not one unit more.
      expect(await spendAll(metering, key, 100)).toBe(50 - 12 - 1);
      await until(async () => (await debitsOf(accountId)) === 50, 'every call in the record');
      expect((await metering.admin.summary(accountId)).balance).toBe(0);
      expect(log.filter((line) => line.includes('late debits'))).toEqual([]);
    } finally {
      other?.resume(); // a failed expectation must not leave it waiting: close() would wait for it
      await metering.close();
      await other?.consumer.close();
      await store.close();
    }
  }, 60_000);

  it('takes a batch written after the restore from the restored balance, once', async () => {
    const log: string[] = [];
    const metering = await createMetering({ redisUrl: redis.url, record: direct, usageConsumer: false, log: (line) => log.push(line) });
    const store = otherStore();
    const url = new URL(test.url);
    url.host = `127.0.0.1:${proxy.port}`;
    const viaProxy = createPostgresDatabase({ connectionString: url.toString(), maxConnections: 2 });
    let other: ReturnType<typeof pausedConsumer> | undefined;
    try {
      const { accountId } = await metering.admin.createAccount({ units: 50, plan: 'unlimited' });
      const { key } = await metering.admin.createKey(accountId);
      await spend(metering, key, 12);
      other = pausedConsumer(redis.url, createLedgerRecord(viaProxy), store, log);
      await other.read;
      await admin.flushall();
      // The other process loses PostgreSQL with the batch in hand: its transaction, and the gate, go.
      proxy.cut();

      // The restore does not wait: the record has none of the 12 yet, so the restored balance is 50.
      const admitted = await metering.meter.admit(call(key));
      expect(admitted.ok && admitted.balance).toBe(50 - 1);
      if (!admitted.ok) return;
      await metering.meter.settle(admitted.hold, 1);
      expect(log.some((line) => line.includes(`restored account ${accountId}`))).toBe(true);
      await spend(metering, key, 20); // within what the account had

      // PostgreSQL is back; the batch is written, and its 12 units taken from the ledger.
      proxy.restore();
      other.resume();
      await until(async () => (await debitsOf(accountId)) >= 12 + 21, 'the late batch and the calls after the restore in the record');
      expect(await debitsOf(accountId)).toBe(12 + 21);
      const [late] = await direct.query<{ n: number }>(
        'SELECT count(*)::integer AS n FROM ledger_usage WHERE account_id = $1 AND charged_epoch < recorded_epoch', [accountId],
      );
      expect(late!.n).toBe(12);
      await until(async () => (await metering.admin.summary(accountId)).balance === 50 - 12 - 21, 'the late debits taken');
      expect((await metering.admin.summary(accountId)).balance).toBe(50 - 12 - 21);
      expect(log.some((line) => line.includes(`account ${accountId}: 12 units charged before its restore`))).toBe(true);

      // The same late debits handed over again (a batch delivered twice) take nothing more.
      const again = await createLedgerRecord(direct).lateDebitsFor(accountId, 1);
      expect(again).toHaveLength(12);
      expect(await store.lateDebit(accountId, again, Date.now())).toBe(0);

      // What is left is what the account has, and the units served never exceed its credits.
      const rest = await spendAll(metering, key, 100);
      expect(rest).toBe(50 - 12 - 21);
      await until(async () => (await debitsOf(accountId)) === 50, 'every call in the record');
      expect((await metering.admin.summary(accountId)).balance).toBe(0);
    } finally {
      proxy.restore();
      other?.resume();
      await metering.close();
      await other?.consumer.close();
      await store.close();
      await viaProxy.close();
    }
  }, 60_000);
});
