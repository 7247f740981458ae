/**
 * The watcher's workers on one job system: product refreshes, webhook deliveries, and the
 * housekeeping schedules (daily store maintenance, the minutely resume check). Every replica may run
 * them; BullMQ hands each due run to exactly one worker. At start the product schedules are synced
 * from PostgreSQL (the in-memory twin forgot them; on BullMQ re-upserting keeps each slot) and open
 * deliveries get their jobs back.
 */
import type { CoreClient } from '@retail/gateway-shared';
import type { AccountAdmin } from '@retail/metering';
import type { JobWorker } from '../queue/index.js';
import {
  createDeliveryProcessor,
  createRefreshProcessor,
  DELIVERY_QUEUE,
  REFRESH_QUEUE,
  syncAllSchedules,
  type SnapshotReader,
} from '../refresh/index.js';
import { createWebhookSender, loadSecretKeyring, type SecretKeyring, type WebhookConfig, type WebhookSender } from '../webhooks/index.js';
import {
  createIncidentLogReader,
  createOperatorWebhookProcessor,
  INCIDENT_LOG_QUEUE,
  INCIDENT_LOG_SCHEDULE,
  OPERATOR_WEBHOOK_QUEUE,
  operatorWebhookJobId,
  type OperatorWebhook,
} from '../incidents/index.js';
import { BILLING_EXPORT_QUEUE, BILLING_EXPORT_SCHEDULE_ID, startBillingExport } from '../billing-export/start-billing-export.js';
import type { BillingExportSettings } from '../billing-export/billing-export-config.js';
import type { Queryable } from '@retail/database/database';
import { MAINTENANCE_QUEUE, MAINTENANCE_SCHEDULE, RESUME_CHECK_QUEUE, RESUME_CHECK_SCHEDULE } from './housekeeping-queues.js';
import { DEFAULT_JOB_WORKERS, startJobWorkers, type JobWorkerDependencies, type JobWorkerSettings } from './job-workers.js';
import { requeueOpenDeliveries } from './open-deliveries.js';
import { DEFAULT_REPARSE_CONCURRENCY, startReparseWorker } from '../reparse/index.js';
import { resumeFundedAccounts } from './resume-funded.js';

export interface WorkerConcurrency {
  /** Refresh runs at once. On PostgreSQL each holds a pool connection (its product lock) while it runs. */
  readonly refresh: number;
  /** Webhook attempts at once (each waits at most the webhook timeout). */
  readonly delivery: number;
}

export const DEFAULT_CONCURRENCY: WorkerConcurrency = { refresh: 4, delivery: 8 };

/** The store, job system, ledger and log, as the bulk-job workers take them, and what only the watches' workers need. */
export interface WatcherWorkerDependencies extends Pick<JobWorkerDependencies, 'store' | 'jobs' | 'meter' | 'log'> {
  /** Balances, for the resume check. */
  readonly accounts: Pick<AccountAdmin, 'summary'>;
  readonly reader: SnapshotReader;
  /** The core's client for bulk jobs' items and its incident log; without it neither runs here. */
  readonly core?: Pick<CoreClient, 'streamCall' | 'unaryCall'>;
  /** Where data incidents are announced (OPERATOR_WEBHOOK_URL); without it they are only kept and logged. */
  readonly operatorWebhook?: OperatorWebhook;
  /** The usage export to a billing system (BILLING_EXPORT_URL) and the ledger's record it reads. */
  readonly billingExport?: { readonly settings: BillingExportSettings; readonly record: Queryable; readonly retryFirstMs?: number };
  readonly jobWorkers?: Partial<JobWorkerSettings>;
  readonly webhookConfig: WebhookConfig;
  /** The key that opens webhook secrets; default: loadSecretKeyring() (WEBHOOK_SECRET_KEY). */
  readonly secretBox?: SecretKeyring;
  /** Tests only: a sender that trusts a self-signed receiver. Default: one built from webhookConfig. */
  readonly sender?: WebhookSender;
  readonly concurrency?: Partial<WorkerConcurrency>;
  /** Pages of one reparse job the core reads at once (REPARSE_CONCURRENCY); default: re-parsing's. */
  readonly reparseConcurrency?: number;
  readonly clock?: () => Date;
}

export interface WatcherWorkers {
  /** Takes no new job, waits for the running ones, closes the webhook connections. Not the job system or store. */
  stop(): Promise<void>;
}

export async function startWatcherWorkers(deps: WatcherWorkerDependencies): Promise<WatcherWorkers> {
  const { store, jobs, log } = deps;
  const now = deps.clock ?? (() => new Date());
  const concurrency = { ...DEFAULT_CONCURRENCY, ...deps.concurrency };
  const refreshes = jobs.queue(REFRESH_QUEUE);
  const deliveries = jobs.queue(DELIVERY_QUEUE);
  const sender = deps.sender ?? createWebhookSender({ policy: deps.webhookConfig.policy, timeoutMs: deps.webhookConfig.timeoutMs, now });
  const keyring = deps.secretBox ?? loadSecretKeyring();
  const delivery = createDeliveryProcessor({ store, keyring, sender, now: () => now().getTime() });

  const refresh = createRefreshProcessor({ store, meter: deps.meter, reader: deps.reader, deliveries, refreshes, log });
  const workers: JobWorker[] = [
    jobs.work(REFRESH_QUEUE, async (run) => {
      try {
        await refresh(run);
      } catch (error) {
        // The queue retries or gives up; the log says why (a read that failed, a busy product).
        log(`refresh ${run.id} attempt ${run.attempt} of ${run.maxAttempts} failed: ${(error as Error).message}`);
        throw error;
      }
    }, { concurrency: concurrency.refresh }),
    jobs.work(DELIVERY_QUEUE, delivery.process, { concurrency: concurrency.delivery, onFinalFailure: delivery.onFinalFailure }),
    jobs.work(MAINTENANCE_QUEUE, async () => {
      const result = await store.maintenance.run();
      const expiredJobs = await store.jobs.deleteExpired();
      log(`store maintenance: ${JSON.stringify({ ...result, expiredJobs })}`);
    }, { concurrency: 1 }),
    jobs.work(RESUME_CHECK_QUEUE, async () => {
      await resumeFundedAccounts({ store, refreshes, deliveries, accounts: deps.accounts, now, log });
    }, { concurrency: 1 }),
  ];

  const jobSettings = { ...DEFAULT_JOB_WORKERS, ...deps.jobWorkers };
  const bulk = deps.core
    ? await startJobWorkers({
        store, jobs, meter: deps.meter, core: deps.core, keyring, sender,
        settings: jobSettings, webhookConcurrency: concurrency.delivery, log,
      })
    : { workers: [], requeued: 0 };
  workers.push(...bulk.workers);
  const incidents = deps.core ? await startIncidentWorkers(deps, deps.core, sender) : { workers: [], open: 0 };
  workers.push(...incidents.workers);
  // Re-parsing archived pages (docs/page-archive.md): jobs the admin CLI queues.
  if (deps.core) workers.push(startReparseWorker(jobs, { store, core: deps.core, log, ...(deps.reparseConcurrency ? { concurrency: deps.reparseConcurrency } : {}) }));

  if (deps.billingExport) {
    const billing = await startBillingExport({ jobs, sender, log, sendTimeoutMs: deps.webhookConfig.timeoutMs, ...deps.billingExport });
    workers.push(billing.worker);
  } else {
    // Turned off since the last start: its schedule must not keep a job waiting for no worker.
    await jobs.queue(BILLING_EXPORT_QUEUE).removeSchedule(BILLING_EXPORT_SCHEDULE_ID);
  }

  const products = await syncAllSchedules(store, refreshes);
  const open = await requeueOpenDeliveries(store, deliveries, now);
  await jobs.queue(MAINTENANCE_QUEUE).upsertSchedule(MAINTENANCE_SCHEDULE.id, { everyMs: MAINTENANCE_SCHEDULE.everyMs }, {});
  await jobs.queue(RESUME_CHECK_QUEUE).upsertSchedule(RESUME_CHECK_SCHEDULE.id, { everyMs: RESUME_CHECK_SCHEDULE.everyMs }, {});
  log(`watcher workers started on ${jobs.kind}: ${products} product schedule(s), ${open} open delivery(ies), ${bulk.requeued} open bulk-job chunk(s), ${incidents.open} open operator webhook(s), `
    + `concurrency refresh ${concurrency.refresh} delivery ${concurrency.delivery} job chunks ${deps.core ? jobSettings.chunks : 0} (one BatchLookup each)`
    + `${deps.core ? `, reparse pages ${deps.reparseConcurrency ?? DEFAULT_REPARSE_CONCURRENCY} at once` : ''}`);

  return {
    async stop() {
      await Promise.all(workers.map((worker) => worker.close()));
      await sender.close();
    },
  };
}

/**
 * Data incidents (docs/data-health.md): the core's incident log read every few seconds by one
 * replica (a repeating job), each new change kept and, with an operator webhook, announced.
 */
async function startIncidentWorkers(deps: WatcherWorkerDependencies, core: Pick<CoreClient, 'unaryCall'>, sender: WebhookSender): Promise<{ workers: JobWorker[]; open: number }> {
  const { jobs, store, log } = deps;
  const operatorWebhooks = deps.operatorWebhook ? jobs.queue(OPERATOR_WEBHOOK_QUEUE) : undefined;
  const readLog = createIncidentLogReader({ store, core, log, ...(operatorWebhooks ? { operatorWebhooks } : {}) });
  // A failing read is retried by the next run; its reason is logged once, not every 5 s.
  let lastFailure = '';
  const workers = [
    jobs.work(INCIDENT_LOG_QUEUE, async () => {
      await readLog().then(
        () => void (lastFailure = ''),
        (error: unknown) => {
          const message = (error as Error).message;
          if (message !== lastFailure) log(`data incident log not read: ${message}`);
          lastFailure = message;
        },
      );
    }, { concurrency: 1 }),
  ];
  const open = deps.operatorWebhook && operatorWebhooks ? await store.incidents.openWebhooks() : [];
  if (deps.operatorWebhook && operatorWebhooks) {
    const deliver = createOperatorWebhookProcessor({ store, sender, webhook: deps.operatorWebhook });
    workers.push(jobs.work(OPERATOR_WEBHOOK_QUEUE, deliver.process, { concurrency: 1, onFinalFailure: deliver.onFinalFailure }));
    for (const changeId of open) await operatorWebhooks.add({ changeId }, { id: operatorWebhookJobId(changeId) });
  }
  await jobs.queue(INCIDENT_LOG_QUEUE).upsertSchedule(INCIDENT_LOG_SCHEDULE.id, { everyMs: INCIDENT_LOG_SCHEDULE.everyMs }, {});
  return { workers, open: open.length };
}
