/**
 * Where a new billing export begins (BILLING_EXPORT_START, issue 24), on a real redis-server and a real
 * PostgreSQL with a receiver that verifies every batch with `standardwebhooks`: `now` skips the calls
 * committed before its first run and sends every later one exactly once, the one whose transaction was
 * still open at that moment included; once the cursor exists the setting changes nothing; `beginning`
 * still sends the whole log.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '../../../gateways/metering/src/index.js';
import type { BillingExportSettings } from '../../../watcher/src/billing-export/billing-export-config.js';
import { loadWatcherConfig } from '../../../watcher/src/config.js';
import { generateWebhookSecret } from '../../../watcher/src/webhooks/index.js';
import { BillingReceiver as Receiver } from '../../harness/billing-receiver.js';
import { createTestDatabase, postgresMissing, type TestDatabase } from '../../harness/postgres.js';
import { freePort } from '../../harness/ports.js';
import { redisMissing, startRedis, type RedisServer } from '../../harness/redis.js';
import { spend } from './record-suite.js';
import { until } from '../../harness/until.js';
import { startTestExporter, type TestExporter } from './test-exporter.js';

const missing = (await postgresMissing()) ?? redisMissing();
if (missing) console.warn(`[skip] ${missing}`);

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(missing !== null)('where a new billing export begins (BILLING_EXPORT_START)', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let record: Database;
  let metering: MeteringInstance;
  const secret = generateWebhookSecret();
  const running: TestExporter[] = [];
  let queues = 0;

  async function startExporter(receiver: Receiver, start: BillingExportSettings['start']) {
    const entry = await startTestExporter({ redisUrl: redis.url, record, prefix: `export-start-${++queues}`, url: receiver.url, secret, batchSize: 4, start });
    running.push(entry);
    return entry;
  }
  async function newAccount() {
    const { accountId } = await metering.admin.createAccount({ units: 10_000, plan: 'unlimited' });
    return { accountId, key: (await metering.admin.createKey(accountId)).key };
  }
  const usageIdsOf = async (accountId: string) =>
    new Set((await record.query<{ id: string }>(`SELECT account_id || '/' || hold_id AS id FROM ledger_usage WHERE account_id = $1`, [accountId])).map((row) => row.id));
  /** Every event id the receiver acknowledged, once per time it was acknowledged. */
  const sentIds = (receiver: Receiver) => receiver.batches.flatMap((batch) => batch.events.map((event) => event.id as string));

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('ledger_export_start');
    record = createPostgresDatabase({ connectionString: test.url });
    metering = await createMetering({ redisUrl: redis.url, record, log: () => undefined });
  });
  afterEach(async () => {
    for (const entry of running.splice(0)) await entry.close();
    // The documented way to begin again: the destination's row, deleted while no exporter runs.
    await record.query('DELETE FROM ledger_usage_exports');
  });
  afterAll(async () => {
    await metering?.close();
    await record?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('with now, skips the calls committed before the first run and sends every later one once, the one still open at the start included', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    const slowWriter = new pg.Client({ connectionString: test.url });
    await slowWriter.connect();
    try {
      const { accountId, key } = await newAccount();
      expect(await spend(metering, key, 10)).toBe(10);
      await until(async () => (await usageIdsOf(accountId)).size === 10, 'the 10 earlier calls in the record');
      const before = await usageIdsOf(accountId);
      // A hand-off that has written its row and not committed when the export starts.
      await slowWriter.query('BEGIN');
      await slowWriter.query(
        `INSERT INTO ledger_usage (account_id, hold_id, key_id, interface, operations, units, settled_at) VALUES ($1, 'h.open.1', '', 'rest', '{GetProduct}', 1, now())`,
        [accountId],
      );

      const first = await startExporter(receiver, 'now');
      expect(first.lines.join('\n')).toMatch(/no cursor yet: BILLING_EXPORT_START=now/);
      await until(async () => (await first.exporter.export.status()).positioned, 'the first run placing the cursor');
      expect(first.lines.join('\n')).toMatch(/the export begins at the usage log's current end/);
      expect(await spend(metering, key, 6)).toBe(6);
      await until(async () => (await usageIdsOf(accountId)).size === 16, 'the 6 later calls in the record');
      await pause(600);
      // The open transaction holds the line: nothing after it goes out before it ends.
      expect(receiver.batches).toHaveLength(0);
      await slowWriter.query('COMMIT');

      const after = new Set([...(await usageIdsOf(accountId))].filter((id) => !before.has(id)));
      expect(after.size).toBe(7);
      expect(after.has(`${accountId}/h.open.1`)).toBe(true);
      await until(() => receiver.ids().size === 7, 'the 7 calls after the start at the receiver');
      await until(async () => (await first.exporter.export.status()).pending === 0, 'the cursor at the end');
      expect(receiver.ids()).toEqual(after);
      expect(sentIds(receiver)).toHaveLength(7);
      expect(receiver.unverified).toBe(0);
      expect(await first.exporter.export.status()).toMatchObject({ exported: 7, pending: 0, failures: 0 });
    } finally {
      await slowWriter.query('ROLLBACK').catch(() => undefined);
      await slowWriter.end();
      await receiver.stop();
    }
  });

  it('once the cursor exists, the start setting changes nothing: neither a later beginning nor a later now', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    try {
      const { accountId, key } = await newAccount();
      expect(await spend(metering, key, 5)).toBe(5);
      await until(async () => (await usageIdsOf(accountId)).size === 5, 'the 5 earlier calls in the record');
      const first = await startExporter(receiver, 'now');
      await until(async () => (await first.exporter.export.status()).positioned, 'the first run placing the cursor');
      await first.close();
      running.splice(0);

      // Restarted with beginning: the 5 earlier calls stay unsent, the 3 new ones go.
      const second = await startExporter(receiver, 'beginning');
      expect(second.lines.join('\n')).toMatch(/goes on from its cursor \(0 events exported\); BILLING_EXPORT_START=beginning changes nothing any more/);
      expect(await spend(metering, key, 3)).toBe(3);
      await until(() => receiver.ids().size === 3, 'the 3 new calls');
      await until(async () => (await second.exporter.export.status()).pending === 0, 'the cursor at the end');
      await second.close();
      running.splice(0);

      // And with now again: the cursor stays where it is, so calls made while no exporter ran still go.
      expect(await spend(metering, key, 2)).toBe(2);
      await until(async () => (await usageIdsOf(accountId)).size === 10, 'the 2 calls made in between in the record');
      const third = await startExporter(receiver, 'now');
      expect(third.lines.join('\n')).toMatch(/goes on from its cursor \(3 events exported\); BILLING_EXPORT_START=now changes nothing any more/);
      await until(() => receiver.ids().size === 5, 'the 2 calls made in between');
      expect(sentIds(receiver)).toHaveLength(5);
      expect(third.lines.join('\n')).not.toMatch(/begins at the usage log's current end/);
    } finally {
      await receiver.stop();
    }
  });

  it('with beginning (the default), sends the whole log, the calls made before the export included', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    try {
      const { accountId, key } = await newAccount();
      expect(await spend(metering, key, 6)).toBe(6);
      await until(async () => (await usageIdsOf(accountId)).size === 6, 'the 6 calls in the record');
      const all = new Set((await record.query<{ id: string }>(`SELECT account_id || '/' || hold_id AS id FROM ledger_usage`)).map((row) => row.id));
      const exporter = await startExporter(receiver, loadWatcherConfig({ SERVICE_TOKEN: 'test-token-1', BILLING_EXPORT_URL: 'https://billing.example.com/in', BILLING_EXPORT_SECRET: secret }).billingExport!.start);
      expect(exporter.lines.join('\n')).toMatch(/no cursor yet: BILLING_EXPORT_START=beginning, the first run begins at the usage log's first row/);
      await until(() => receiver.ids().size === all.size, 'every call in the log');
      expect(receiver.ids()).toEqual(all);
      expect(sentIds(receiver)).toHaveLength(all.size);
    } finally {
      await receiver.stop();
    }
  });

  it('refuses an unknown start at startup, naming the variable', () => {
    const base = { SERVICE_TOKEN: 'test-token-1', BILLING_EXPORT_URL: 'https://billing.example.com/in', BILLING_EXPORT_SECRET: secret };
    expect(() => loadWatcherConfig({ ...base, BILLING_EXPORT_START: 'yesterday' })).toThrow(/BILLING_EXPORT_START must be one of beginning, now/);
    expect(loadWatcherConfig({ ...base, BILLING_EXPORT_START: 'now' }).billingExport).toMatchObject({ start: 'now' });
  });
});
