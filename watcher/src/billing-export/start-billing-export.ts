/**
 * The billing export in the watcher (docs/metering.md, "Exporting usage to a billing system"): a BullMQ
 * schedule ticks every BILLING_EXPORT_INTERVAL_MS on every replica's worker; each tick runs the ledger
 * record's export once (@retail/metering, createUsageExport), which takes the destination's lease (one
 * exporter at a time), sends what waits as signed CloudEvents batches and moves the cursor on each 2xx.
 * The watcher runs it because it already holds the three things it needs: the job system, a connection
 * to the ledger's record, and the signed, address-checked webhook sender.
 */
import { registerBillingExportMetrics } from '@retail/gateway-shared';
import { createUsageExport, type UsageExport, type UsageExportRun } from '@retail/metering';
import type { Queryable } from '@retail/database/database';
import { defineQueue, type JobSystem, type JobWorker } from '../queue/index.js';
import type { WebhookSender } from '../webhooks/index.js';
import type { BillingExportSettings } from './billing-export-config.js';

export const BILLING_EXPORT_QUEUE = defineQueue<Record<string, never>>('billing-export');
export const BILLING_EXPORT_SCHEDULE_ID = 'billing-export';

export interface BillingExportDependencies {
  readonly jobs: JobSystem;
  /** The ledger's record (LEDGER_DATABASE_URL, or the one-process stack's shared database). */
  readonly record: Queryable;
  readonly sender: Pick<WebhookSender, 'deliverOnce'>;
  readonly settings: BillingExportSettings;
  readonly log: (line: string) => void;
  /** The webhook sender's timeout: one send never takes longer, so a lease of a few of them outlives any batch. */
  readonly sendTimeoutMs: number;
  /** Tests: the first back-off wait (default 5 s, at most the longest). */
  readonly retryFirstMs?: number;
}

export interface RunningBillingExport {
  readonly worker: JobWorker;
  readonly export: UsageExport;
}

/** Where the export goes on from, for the start log: BILLING_EXPORT_START matters only before the cursor exists. */
async function startingPoint(usageExport: UsageExport, settings: BillingExportSettings): Promise<string> {
  const status = await usageExport.status().catch(() => undefined);
  if (!status) return `BILLING_EXPORT_START=${settings.start} (the record did not answer yet; it applies only while the export has no cursor)`;
  if (status.positioned) return `it goes on from its cursor (${status.exported} events exported); BILLING_EXPORT_START=${settings.start} changes nothing any more`;
  return settings.start === 'now'
    ? 'no cursor yet: BILLING_EXPORT_START=now, the first run begins at the usage log\'s end then and skips every row committed before'
    : `no cursor yet: BILLING_EXPORT_START=beginning, the first run begins at the usage log's first row (${status.pending} rows waiting, counted up to 100000)`;
}

export async function startBillingExport(deps: BillingExportDependencies): Promise<RunningBillingExport> {
  const { settings, sender, log } = deps;
  const usageExport = createUsageExport({
    db: deps.record,
    attributes: { source: settings.source, type: settings.eventType },
    batchSize: settings.batchSize,
    retryMaxMs: settings.retryMaxMs,
    retryFirstMs: Math.min(deps.retryFirstMs ?? 5_000, settings.retryMaxMs),
    start: settings.start,
    // Renewed at every batch; an exporter that died with it is replaced once it runs out.
    leaseMs: 3 * deps.sendTimeoutMs,
    log,
    async send(batch) {
      const outcome = await sender.deliverOnce({
        url: settings.url, secret: settings.secret,
        message: { id: batch.id, body: batch.body, contentType: batch.contentType, ...(settings.authorization && { headers: { authorization: settings.authorization } }) },
      });
      // Every failure is retried, a 4xx too: skipping a batch would lose charged calls. The log and the
      // export's last error tell the operator what the receiver refused.
      return outcome.result === 'delivered' ? { delivered: true } : { delivered: false, error: outcome.error ?? outcome.result };
    },
  });
  // A failing run is not retried by the queue: the next tick is the retry, after the back-off the record keeps.
  let lastProblem = '';
  const worker = deps.jobs.work(BILLING_EXPORT_QUEUE, async () => {
    const run: UsageExportRun = await usageExport.runOnce().catch((error: unknown) => {
      const message = `usage export: the record did not answer (${(error as Error).message})`;
      if (message !== lastProblem) log(message);
      lastProblem = message;
      return { result: 'busy' } as const;
    });
    if (run.result === 'exported' || run.result === 'waiting') lastProblem = '';
  }, { concurrency: 1 });
  // Read before the schedule exists, so the line says where the first run will begin.
  const startsFrom = await startingPoint(usageExport, settings);
  registerBillingExportMetrics(() => usageExport.status());
  await deps.jobs.queue(BILLING_EXPORT_QUEUE).upsertSchedule(BILLING_EXPORT_SCHEDULE_ID, { everyMs: settings.intervalMs }, {});
  log(`billing export: usage goes to ${new URL(settings.url).origin} as CloudEvents batches of up to ${settings.batchSize}, every ${settings.intervalMs} ms; ${startsFrom}`);
  return { worker, export: usageExport };
}
