/**
 * The watcher deployable's settings, read once from the environment with zod as every deployable
 * reads its own (@retail/contract/environment): a bad value stops the process with one line per bad
 * variable, naming it and never echoing it. The parts that already read their own variables (store,
 * job system, webhooks, metering) keep doing so; their problems join the same list.
 */
import { blankToUndefined, EnvironmentError, readEnvironment } from '@retail/contract/environment';
import { z } from 'zod';
import { wholeNumber } from '@retail/gateway-shared/gateway-settings';
import { storeSettingsFromEnv, type StoreSettings } from './store/index.js';
import { loadWebhookConfig, type TargetPolicy, type WebhookConfig } from './webhooks/index.js';
import { loadOperatorWebhook, type OperatorWebhook } from './incidents/index.js';
import { loadBillingExport, type BillingExportSettings } from './billing-export/billing-export-config.js';
import { DEFAULT_JOB_CHUNK_SIZE } from './jobs/index.js';
import { DEFAULT_REPARSE_CONCURRENCY } from './reparse/reparse-queue.js';
import { DEFAULT_JOB_WORKERS, type JobWorkerSettings } from './workers/job-workers.js';
import { DEFAULT_CONCURRENCY, type WorkerConcurrency } from './workers/start-workers.js';

/** all: the WatchService and the workers (default); api: only the service; worker: only the workers. */
export const WATCHER_ROLES = ['all', 'api', 'worker'] as const;
export type WatcherRole = (typeof WATCHER_ROLES)[number];

export const DEFAULT_WATCHER_GRPC_PORT = 50052;

export interface WatcherConfig {
  readonly role: WatcherRole;
  /** The WatchService's gRPC server (roles all and api). */
  readonly grpcHost: string;
  readonly grpcPort: number;
  /** Liveness /healthz and readiness /readyz over HTTP, on every role (a worker has no gRPC server). */
  readonly healthHost: string;
  readonly healthPort: number;
  /** Required from the watcher's callers, and presented to the core. */
  readonly serviceToken: string;
  readonly core: { readonly address: string; readonly deadlineMs: number };
  readonly concurrency: WorkerConcurrency;
  /** Bulk jobs: chunks at once per replica and items at once per chunk. */
  readonly jobWorkers: JobWorkerSettings;
  /** Bulk jobs: items per chunk (one queue job and one ledger hold). */
  readonly jobChunkSize: number;
  /** Re-parsing: pages of one job the core reads at once (docs/page-archive.md). */
  readonly reparseConcurrency: number;
  /**
   * BullMQ's job lock and stalled check: a replica that dies mid-job has its job run again elsewhere
   * within about their sum (defaults 30 s each, the queue layer's).
   */
  readonly jobLockMs?: number;
  readonly stalledCheckMs?: number;
  /** How long a stop waits for running jobs and calls before closing anyway. */
  readonly shutdownGraceMs: number;
  readonly store: StoreSettings;
  readonly webhooks: WebhookConfig;
  /** OPERATOR_WEBHOOK_URL and OPERATOR_WEBHOOK_SECRET: where data incidents are announced (docs/data-health.md). */
  readonly operatorWebhook?: OperatorWebhook;
  /** BILLING_EXPORT_*: where the ledger's usage is exported as CloudEvents (docs/metering.md); needs the ledger's record. */
  readonly billingExport?: BillingExportSettings;
}

const setting = <T extends z.ZodType>(schema: T) => z.preprocess(blankToUndefined, schema);

const WatcherEnvSchema = z.object({
  WATCHER_ROLE: setting(z.enum(WATCHER_ROLES, { error: `must be one of ${WATCHER_ROLES.join(', ')}` }).default('all')),
  GRPC_HOST: setting(z.string().default('0.0.0.0')),
  GRPC_PORT: setting(wholeNumber(0, 65535).default(DEFAULT_WATCHER_GRPC_PORT)),
  HOST: setting(z.string().default('0.0.0.0')),
  PORT: setting(wholeNumber(0, 65535).default(8080)),
  // The core's rule (it checks the token): at least 8 characters, no whitespace. Never echoed.
  SERVICE_TOKEN: setting(z.string({ error: 'is required' }).min(8, 'must be at least 8 characters').refine((v) => !/\s/.test(v), 'must not contain whitespace')),
  CORE_ADDRESS: setting(z.string().regex(/^\S+:\d{1,5}$/, 'must be host:port').default('127.0.0.1:50051')),
  CORE_DEADLINE_MS: setting(wholeNumber(1, 600_000).default(10_000)),
  WATCHER_REFRESH_CONCURRENCY: setting(wholeNumber(1, 256).default(DEFAULT_CONCURRENCY.refresh)),
  WATCHER_DELIVERY_CONCURRENCY: setting(wholeNumber(1, 1024).default(DEFAULT_CONCURRENCY.delivery)),
  JOB_CONCURRENCY: setting(wholeNumber(1, 64).default(DEFAULT_JOB_WORKERS.chunks)),
  JOB_ITEM_CONCURRENCY: setting(wholeNumber(1, 64).default(DEFAULT_JOB_WORKERS.items)),
  JOB_CHUNK_SIZE: setting(wholeNumber(1, 1000).default(DEFAULT_JOB_CHUNK_SIZE)),
  REPARSE_CONCURRENCY: setting(wholeNumber(1, 64).default(DEFAULT_REPARSE_CONCURRENCY)),
  WATCHER_SHUTDOWN_GRACE_MS: setting(wholeNumber(0, 600_000).default(10_000)),
  WATCHER_JOB_LOCK_MS: setting(wholeNumber(500, 600_000).optional()),
  WATCHER_STALLED_CHECK_MS: setting(wholeNumber(100, 600_000).optional()),
});

export class WatcherConfigError extends EnvironmentError {}

/**
 * REPARSE_CONCURRENCY alone, as the watcher reads it: for `npm run admin -- reparse`, which runs a
 * job itself when there is no queue Redis and needs none of the watcher's other settings.
 */
export function reparseConcurrencyFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const parsed = WatcherEnvSchema.pick({ REPARSE_CONCURRENCY: true }).safeParse(env);
  return readEnvironment(parsed, {}, (problems) => new WatcherConfigError('watcher', problems)).variables.REPARSE_CONCURRENCY;
}

function policyOr(read: () => TargetPolicy): TargetPolicy {
  try {
    return read();
  } catch {
    return { allowPrivateTargets: false };
  }
}

/** Reads the watcher's settings; throws WatcherConfigError listing every bad variable. */
export function loadWatcherConfig(env: Readonly<Record<string, string | undefined>> = process.env): WatcherConfig {
  const { variables: e, store, webhooks, operatorWebhook, billingExport } = readEnvironment(WatcherEnvSchema.safeParse(env), {
    store: () => storeSettingsFromEnv(env as NodeJS.ProcessEnv),
    webhooks: () => loadWebhookConfig(env as NodeJS.ProcessEnv),
    // A bad webhook setting is the webhooks reader's to report: here it only narrows the URL check.
    operatorWebhook: () => loadOperatorWebhook(env, policyOr(() => loadWebhookConfig(env).policy)),
    billingExport: () => loadBillingExport(env, policyOr(() => loadWebhookConfig(env).policy)),
  }, (problems) => new WatcherConfigError('watcher', problems));
  return Object.freeze({
    role: e.WATCHER_ROLE,
    grpcHost: e.GRPC_HOST,
    grpcPort: e.GRPC_PORT,
    healthHost: e.HOST,
    healthPort: e.PORT,
    serviceToken: e.SERVICE_TOKEN,
    core: { address: e.CORE_ADDRESS, deadlineMs: e.CORE_DEADLINE_MS },
    concurrency: { refresh: e.WATCHER_REFRESH_CONCURRENCY, delivery: e.WATCHER_DELIVERY_CONCURRENCY },
    jobWorkers: { chunks: e.JOB_CONCURRENCY, items: e.JOB_ITEM_CONCURRENCY },
    jobChunkSize: e.JOB_CHUNK_SIZE,
    reparseConcurrency: e.REPARSE_CONCURRENCY,
    shutdownGraceMs: e.WATCHER_SHUTDOWN_GRACE_MS,
    ...(e.WATCHER_JOB_LOCK_MS !== undefined && { jobLockMs: e.WATCHER_JOB_LOCK_MS }),
    ...(e.WATCHER_STALLED_CHECK_MS !== undefined && { stalledCheckMs: e.WATCHER_STALLED_CHECK_MS }),
    store,
    webhooks,
    ...(operatorWebhook && { operatorWebhook }),
    ...(billingExport && { billingExport }),
  });
}
