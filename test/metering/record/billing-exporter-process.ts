/**
 * One billing exporter in a process of its own, so a test can kill it mid-way (SIGKILL: no clean stop,
 * its lease and its BullMQ job left behind). Settings from the environment:
 * REDIS_URL, LEDGER_DATABASE_URL, QUEUE_PREFIX and the BILLING_EXPORT_* variables. Prints `started`.
 */
import { createPostgresDatabase } from '@retail/database/pg-database';
import { loadBillingExport } from '../../../watcher/src/billing-export/billing-export-config.js';
import { startBillingExport } from '../../../watcher/src/billing-export/start-billing-export.js';
import { createBullJobSystem } from '../../../watcher/src/queue/index.js';
import { createWebhookSender } from '../../../watcher/src/webhooks/index.js';

const policy = { allowPrivateTargets: false, allowLoopback: true };
const settings = loadBillingExport(process.env, policy)!;
const jobs = await createBullJobSystem({
  redisUrl: process.env.REDIS_URL!, prefix: process.env.QUEUE_PREFIX!, lockDurationMs: 2_000, stalledIntervalMs: 1_000, warn: () => undefined,
});
const record = createPostgresDatabase({ connectionString: process.env.LEDGER_DATABASE_URL!, maxConnections: 2 });
const sendTimeoutMs = 2_000;
await startBillingExport({ jobs, record, sender: createWebhookSender({ policy, timeoutMs: sendTimeoutMs }), settings, sendTimeoutMs, log: () => undefined, retryFirstMs: 200 });
process.stdout.write('started\n');
