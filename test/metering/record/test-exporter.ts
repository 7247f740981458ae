/**
 * A billing exporter as the watcher runs one (BullMQ on a real redis-server, the webhook sender, the
 * record's cursor), with the short timings the export tests wait on: one way to start it for
 * billing-export.test.ts and billing-export-start.test.ts.
 */
import type { Database } from '@retail/database';
import { startBillingExport, type RunningBillingExport } from '../../../watcher/src/billing-export/start-billing-export.js';
import type { BillingExportSettings } from '../../../watcher/src/billing-export/billing-export-config.js';
import { createBullJobSystem } from '../../../watcher/src/queue/index.js';
import { createWebhookSender } from '../../../watcher/src/webhooks/index.js';

export interface TestExporter {
  readonly exporter: RunningBillingExport;
  /** What the exporter logged. */
  readonly lines: string[];
  close(): Promise<void>;
}

export interface TestExporterOptions {
  readonly redisUrl: string;
  readonly record: Database;
  /** The queues' prefix: each exporter of a test its own, or one shared to stand for replicas. */
  readonly prefix: string;
  readonly url: string;
  readonly secret: string;
  readonly batchSize?: number;
  readonly start?: BillingExportSettings['start'];
  readonly authorization?: string;
}

export async function startTestExporter(options: TestExporterOptions): Promise<TestExporter> {
  const jobs = await createBullJobSystem({ redisUrl: options.redisUrl, prefix: options.prefix, lockDurationMs: 2_000, stalledIntervalMs: 1_000, warn: () => undefined });
  const sendTimeoutMs = 2_000;
  const sender = createWebhookSender({ policy: { allowPrivateTargets: false, allowLoopback: true }, timeoutMs: sendTimeoutMs });
  const settings: BillingExportSettings = {
    url: options.url, secret: options.secret, batchSize: options.batchSize ?? 7, intervalMs: 150, retryMaxMs: 1_000,
    source: 'retail-data-test', eventType: 'io.retaildata.usage.v1', start: options.start ?? 'beginning',
    ...(options.authorization ? { authorization: options.authorization } : {}),
  };
  const lines: string[] = [];
  const exporter = await startBillingExport({ jobs, record: options.record, sender, settings, sendTimeoutMs, log: (line) => lines.push(line), retryFirstMs: 200 });
  return {
    exporter, lines,
    close: async () => {
      await exporter.worker.close();
      await jobs.close();
      await sender.close();
    },
  };
}
