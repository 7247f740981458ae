/**
 * The billing export's throughput (issue 24): N usage rows in a fresh PostgreSQL record, exported to a
 * receiver on this machine that verifies every batch with `standardwebhooks`, through the watcher's
 * webhook sender, per batch size; and the record's usage write (the hand-off's statement) with the
 * export's transaction-id column, in rows/s.
 *
 *   node --conditions=source --import tsx bench/billing-export.ts [--rows 20000]
 */
import { parseArgs } from 'node:util';
import { performance } from 'node:perf_hooks';
import { createPostgresDatabase } from '@retail/database';
import { createUsageExport } from '../gateways/metering/src/index.js';
import { createLedgerRecord, type UsageRow } from '../gateways/metering/src/record/ledger-record.js';
import { migrateRecord } from '../gateways/metering/src/record/migrate.js';
import { createWebhookSender, generateWebhookSecret } from '../watcher/src/webhooks/index.js';
import { BillingReceiver } from '../test/harness/billing-receiver.js';
import { createTestDatabase, postgresMissing } from '../test/harness/postgres.js';
import { freePort } from '../test/harness/ports.js';

const { values } = parseArgs({ options: { rows: { type: 'string', default: '20000' } } });
const rows = Number(values.rows);
const missing = await postgresMissing();
if (missing) {
  console.error(missing);
  process.exit(0);
}

const test = await createTestDatabase('bench_export');
const db = createPostgresDatabase({ connectionString: test.url });
const secret = generateWebhookSecret();
const receiver = new BillingReceiver(await freePort(), secret);
await receiver.start();
const sender = createWebhookSender({ policy: { allowPrivateTargets: false, allowLoopback: true } });
try {
  await migrateRecord(db);
  const record = createLedgerRecord(db);
  const now = Date.now();
  const usage: UsageRow[] = Array.from({ length: rows }, (_, i) => ({
    accountId: `acc${i % 50}`, holdId: `h.bench.${i.toString(36)}`, keyId: `key_${i % 200}`, iface: 'rest', operations: ['GetProduct'], units: 1, at: now - rows + i,
  }));
  const written = performance.now();
  for (let i = 0; i < usage.length; i += 1000) await record.recordUsage(usage.slice(i, i + 1000));
  const writeMs = performance.now() - written;
  console.log(`record: ${rows} usage rows written in batches of 1000 at ${Math.round(rows / (writeMs / 1000))} rows/s`);

  for (const [destination, batchSize] of [['bench-100', 100], ['bench-1000', 1000]] as const) {
    receiver.batches.length = 0;
    const usageExport = createUsageExport({
      db, destination, batchSize, attributes: { source: 'bench', type: 'io.retaildata.usage.v1' },
      send: async (batch) => {
        const outcome = await sender.deliverOnce({ url: receiver.url, secret, message: { id: batch.id, body: batch.body, contentType: batch.contentType } });
        return { delivered: outcome.result === 'delivered', ...(outcome.error && { error: outcome.error }) };
      },
    });
    const cpu = process.cpuUsage();
    const started = performance.now();
    while ((await usageExport.status()).pending > 0) await usageExport.runOnce();
    const ms = performance.now() - started;
    const used = process.cpuUsage(cpu);
    const bytes = receiver.batches.reduce((sum, batch) => sum + JSON.stringify(batch.events).length, 0);
    console.log(`export, batches of ${batchSize}: ${receiver.ids().size} events in ${Math.round(ms)} ms = ${Math.round(rows / (ms / 1000))} events/s, `
      + `${(bytes / rows).toFixed(0)} bytes/event, this process's CPU ${((used.user + used.system) / rows).toFixed(1)} µs/event (sender, receiver and its verification together)`);
  }
} finally {
  await sender.close();
  await receiver.stop();
  await db.close();
  await test.drop();
}
