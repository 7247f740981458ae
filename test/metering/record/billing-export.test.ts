/**
 * The export of usage to a billing system (issue 24) on a real redis-server (the ledger, its hand-off
 * stream and BullMQ) and a real PostgreSQL (the record and the export's cursor): charged calls arrive at
 * a real HTTP receiver as CloudEvents batches that the `standardwebhooks` package verifies, each event
 * under the one id of its usage row, also through a receiver outage and a restart of the exporter.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, type Database } from '@retail/database';
import { createMetering, type MeteringInstance } from '../../../gateways/metering/src/index.js';
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

describe.skipIf(missing !== null)('usage export to a billing system', () => {
  let redis: RedisServer;
  let test: TestDatabase;
  let record: Database;
  let metering: MeteringInstance;
  const secret = generateWebhookSecret();
  const running: TestExporter[] = [];

  const usageIds = async () => new Set((await record.query<{ id: string }>(`SELECT account_id || '/' || hold_id AS id FROM ledger_usage`)).map((row) => row.id));

  async function startExporter(receiver: Receiver, prefix: string, batchSize = 7) {
    const entry = await startTestExporter({ redisUrl: redis.url, record, prefix, url: receiver.url, secret, batchSize, authorization: 'Bearer om_test_token' });
    running.push(entry);
    return entry;
  }

  async function newAccount(): Promise<{ accountId: string; keyId: string; key: string }> {
    const { accountId } = await metering.admin.createAccount({ units: 10_000, plan: 'unlimited' });
    const { key, info } = await metering.admin.createKey(accountId);
    return { accountId, keyId: info.keyId, key };
  }
  const idsOf = (ids: Set<string>, accountId: string) => new Set([...ids].filter((id) => id.startsWith(`${accountId}/`)));

  beforeAll(async () => {
    redis = await startRedis();
    test = await createTestDatabase('ledger_export');
    record = createPostgresDatabase({ connectionString: test.url });
    metering = await createMetering({ redisUrl: redis.url, record, log: () => undefined });
  });
  afterEach(async () => {
    for (const entry of running.splice(0)) await entry.close();
    // The cursor is shared by the tests, as by the replicas of a deployment: each test checks its own account's events.
  });
  afterAll(async () => {
    await metering?.close();
    await record?.close();
    await test?.drop();
    await redis?.stop();
  });

  it('delivers every charged call once as a signed CloudEvent with the usage row\'s id', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    try {
      const { accountId, keyId, key } = await newAccount();
      expect(await spend(metering, key, 30)).toBe(30);
      await until(async () => (await usageIds()).size === 30, 'the 30 calls in the usage log');
      await startExporter(receiver, 'export-a');
      await until(() => receiver.ids().size === 30, '30 events at the receiver');

      const events = receiver.batches.flatMap((batch) => batch.events);
      expect(events).toHaveLength(30);
      expect(receiver.ids()).toEqual(await usageIds());
      for (const batch of receiver.batches) {
        expect(batch.contentType).toBe('application/cloudevents-batch+json');
        expect(batch.authorization).toBe('Bearer om_test_token');
        expect(batch.events.length).toBeLessThanOrEqual(7);
      }
      const [row] = await record.query<{ hold_id: string; settled_at: Date }>('SELECT hold_id, settled_at FROM ledger_usage ORDER BY settled_at LIMIT 1');
      const first = events.find((event) => event.id === `${accountId}/${row!.hold_id}`);
      expect(first).toEqual({
        specversion: '1.0', id: `${accountId}/${row!.hold_id}`, source: 'retail-data-test', type: 'io.retaildata.usage.v1',
        subject: accountId, time: new Date(row!.settled_at).toISOString(), datacontenttype: 'application/json',
        data: { accountId, keyId, operation: 'GetProduct', operations: ['GetProduct'], interface: 'rest', units: 1, calls: 1, holdId: row!.hold_id },
      });
      // The cursor moves once the 2xx is back at the exporter, a moment after the receiver kept the batch.
      await until(async () => (await running[0]!.exporter.export.status()).pending === 0, 'the cursor at the end');
      expect((await running[0]!.exporter.export.status())).toMatchObject({ exported: 30, pending: 0, failures: 0, lagSeconds: 0 });
    } finally {
      await receiver.stop();
    }
  });

  it('loses nothing while the receiver answers 500 and then is down: every id arrives, retried under the same batch id', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    try {
      receiver.answer = 500;
      const { accountId, key } = await newAccount();
      await startExporter(receiver, 'export-b');
      expect(await spend(metering, key, 25)).toBe(25);
      await until(() => receiver.refused.length >= 2, 'two refused sends');
      await receiver.stop();
      expect(await spend(metering, key, 15)).toBe(15);
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const status = await running[0]!.exporter.export.status();
      expect(status.failures).toBeGreaterThanOrEqual(2);
      expect(status.lastError).toBeTruthy();
      expect(receiver.batches).toHaveLength(0);

      receiver.answer = 200;
      await receiver.start();
      await until(() => idsOf(receiver.ids(), accountId).size === 40, 'every event after the outage');
      expect(idsOf(receiver.ids(), accountId)).toEqual(idsOf(await usageIds(), accountId));
      expect(receiver.ids()).toEqual(idsOf(receiver.ids(), accountId));
      // The refused batch went out again as the same batch, under the same webhook-id.
      expect(receiver.batches.map((batch) => batch.webhookId)).toContain(receiver.refused[0]);
      await until(async () => (await running[0]!.exporter.export.status()).pending === 0, 'the cursor at the end');
      expect(await running[0]!.exporter.export.status()).toMatchObject({ pending: 0, failures: 0 });
    } finally {
      await receiver.stop();
    }
  });

  it('resumes from the cursor when the exporter process is killed mid-way', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    let child: ReturnType<typeof spawn> | undefined;
    try {
      const { accountId, key } = await newAccount();
      expect(await spend(metering, key, 40)).toBe(40);
      await until(async () => idsOf(await usageIds(), accountId).size === 40, 'the 40 calls in the usage log');
      // A slow receiver, so the kill comes between batches of one run.
      receiver.delayMs = 150;
      child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'test/metering/record/billing-exporter-process.ts'], {
        env: {
          PATH: process.env.PATH, REDIS_URL: redis.url, LEDGER_DATABASE_URL: test.url, QUEUE_PREFIX: 'export-c',
          BILLING_EXPORT_URL: receiver.url, BILLING_EXPORT_SECRET: secret, BILLING_EXPORT_BATCH_SIZE: '5', BILLING_EXPORT_INTERVAL_MS: '150',
          BILLING_EXPORT_SOURCE: 'retail-data-test',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await until(() => idsOf(receiver.ids(), accountId).size >= 10, 'two batches from the first exporter');
      child.kill('SIGKILL');
      await once(child, 'exit');
      const atKill = idsOf(receiver.ids(), accountId).size;
      expect(atKill).toBeLessThan(40);

      receiver.delayMs = 0;
      await startExporter(receiver, 'export-c', 5);
      // The dead exporter's lease runs out (3 × its 2 s send timeout), then the cursor takes over.
      await until(() => idsOf(receiver.ids(), accountId).size === 40, 'the rest after the restart');
      expect(idsOf(receiver.ids(), accountId)).toEqual(idsOf(await usageIds(), accountId));
      // At most the batch in flight at the kill is sent twice (the same events under the same batch id).
      const sent = receiver.batches.flatMap((batch) => batch.events.map((event) => event.id as string)).filter((id) => id.startsWith(`${accountId}/`));
      expect(sent.length - 40).toBeLessThanOrEqual(5);
      await until(async () => (await running[0]!.exporter.export.status()).pending === 0, 'nothing pending');
    } finally {
      child?.kill('SIGKILL');
      await receiver.stop();
    }
  });

  it('never skips a row whose transaction commits after later rows did (concurrent hand-off writers)', async () => {
    const receiver = new Receiver(await freePort(), secret);
    await receiver.start();
    // A writer that has inserted its row and not committed yet: another process's hand-off mid-batch.
    const slowWriter = new pg.Client({ connectionString: test.url });
    await slowWriter.connect();
    try {
      const { accountId, key } = await newAccount();
      await slowWriter.query('BEGIN');
      await slowWriter.query(
        `INSERT INTO ledger_usage (account_id, hold_id, key_id, interface, operations, units, settled_at) VALUES ($1, 'h.slow.1', '', 'rest', '{GetProduct}', 1, now() - interval '1 minute')`,
        [accountId],
      );
      expect(await spend(metering, key, 12)).toBe(12);
      await until(async () => idsOf(await usageIds(), accountId).size === 12, 'the 12 later calls committed');
      await startExporter(receiver, 'export-d', 5);
      // Everything after the open transaction waits for it: nothing of this account goes out yet.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(idsOf(receiver.ids(), accountId).size).toBe(0);
      expect((await running[0]!.exporter.export.status()).pending).toBeGreaterThanOrEqual(12);
      await slowWriter.query('COMMIT');
      await until(() => idsOf(receiver.ids(), accountId).size === 13, 'the 13 calls, the late row among them');
      expect(receiver.ids().has(`${accountId}/h.slow.1`)).toBe(true);
    } finally {
      await slowWriter.query('ROLLBACK').catch(() => undefined);
      await slowWriter.end();
      await receiver.stop();
    }
  });

  it('refuses a private or malformed receiver at start with one line', async () => {
    const base = { SERVICE_TOKEN: 'test-token-1', BILLING_EXPORT_SECRET: secret };
    expect(() => loadWatcherConfig({ ...base, BILLING_EXPORT_URL: 'https://10.1.2.3/ingest' })).toThrow(/BILLING_EXPORT_URL: 10\.1\.2\.3 is private/);
    expect(() => loadWatcherConfig({ ...base, BILLING_EXPORT_URL: 'ftp://billing.example.com/' })).toThrow(/BILLING_EXPORT_URL: must use https/);
    expect(() => loadWatcherConfig({ ...base, BILLING_EXPORT_URL: 'https://billing.example.com/', BILLING_EXPORT_SECRET: 'hunter2' })).toThrow(/BILLING_EXPORT_SECRET must be a Standard Webhooks secret/);
    expect(loadWatcherConfig({ ...base, BILLING_EXPORT_URL: 'https://billing.example.com/ingest' }).billingExport).toMatchObject({ batchSize: 100, intervalMs: 10_000 });

    // The deployable itself: one line on standard error, exit code 2, before it connects to anything.
    const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', 'watcher/src/main.ts'], {
      env: { PATH: process.env.PATH, ...base, BILLING_EXPORT_URL: 'https://169.254.169.254/latest' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(2);
    const lines = stderr.trim().split('\n');
    expect(lines.filter((line) => line.includes('BILLING_EXPORT_URL'))).toHaveLength(1);
    expect(stderr).toMatch(/BILLING_EXPORT_URL: 169\.254\.169\.254 is a cloud metadata endpoint/);
  });
});
