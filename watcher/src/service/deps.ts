/**
 * What the WatchService needs, kept small so that the watcher's main (and tests) compose it from
 * parts that already exist: the store, the job system (the refresh and delivery queues are derived
 * from it), the core client (only for url and gtin keys), the webhook target policy and the secret
 * keyring, and a clock.
 */
import type { CoreClient } from '@retail/gateway-shared';
import type { JobQueue, JobSystem } from '../queue/index.js';
import { DELIVERY_QUEUE, type DeliveryJob, REFRESH_QUEUE, type RefreshJob } from '../refresh/index.js';
import type { WatchStore } from '../store/index.js';
import type { SecretKeyring, TargetPolicy } from '../webhooks/index.js';
import { createLookupResolver, type LookupResolver } from './lookup.js';

/** A pino-style logger (the gateways' and the core's); only what the service writes. */
export interface ServiceLog {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface WatchServiceDeps {
  readonly store: WatchStore;
  /** Where refreshes (first snapshot now, product schedules) and redeliveries are queued. */
  readonly jobs: Pick<JobSystem, 'queue'>;
  /** The core's client: resolves url and gtin keys. Without it only asin keys are accepted. */
  readonly core?: CoreClient;
  /** Replaces the core-backed resolution of lookup keys (tests, or a deployment with its own). */
  readonly resolver?: LookupResolver;
  readonly webhooks: {
    /** WEBHOOK_ALLOW_PRIVATE_TARGETS (webhooks/config.ts `loadWebhookConfig().policy`). */
    readonly policy: TargetPolicy;
    /** WEBHOOK_SECRET_KEY (webhooks/secret-keys.ts `loadSecretKeyring`). */
    readonly keyring: SecretKeyring;
  };
  /** MAX_WATCHES_PER_ACCOUNT (limits.ts `watchLimitsFromEnv`); default 1000. A plan's maxWatches overrides it. */
  readonly maxWatchesPerAccount?: number;
  /**
   * The caller's plan and its watch limits (limits.ts `createPlanOf` over the metering library).
   * Without it every account has the proto's interval bounds and `maxWatchesPerAccount`.
   */
  readonly planOf?: PlanOf;
  readonly clock?: () => Date;
  /** How often an idle event stream looks for new events; default 500 ms. */
  readonly streamPollMs?: number;
  readonly log?: ServiceLog;
}

/** A plan's name and its watch limits; an absent limit is the deployment's (metering plans.ts `Plan`). */
export interface AccountWatchPlan {
  readonly name: string;
  readonly minWatchIntervalSeconds?: number;
  readonly maxWatches?: number;
}
export type PlanOf = (accountId: string) => Promise<AccountWatchPlan>;

export const DEFAULT_MAX_WATCHES_PER_ACCOUNT = 1000;
export const DEFAULT_STREAM_POLL_MS = 500;

/** The deps with their defaults applied and the queues derived: what the handlers read. */
export interface ServiceParts {
  readonly store: WatchStore;
  readonly refreshes: JobQueue<RefreshJob>;
  readonly deliveries: JobQueue<DeliveryJob>;
  readonly resolve: LookupResolver;
  readonly webhooks: WatchServiceDeps['webhooks'];
  readonly maxWatchesPerAccount: number;
  readonly planOf: PlanOf | undefined;
  readonly now: () => Date;
  readonly streamPollMs: number;
  readonly log: ServiceLog | undefined;
}

export function serviceParts(deps: WatchServiceDeps): ServiceParts {
  return {
    store: deps.store,
    refreshes: deps.jobs.queue(REFRESH_QUEUE),
    deliveries: deps.jobs.queue(DELIVERY_QUEUE),
    resolve: deps.resolver ?? createLookupResolver(deps.core),
    webhooks: deps.webhooks,
    maxWatchesPerAccount: deps.maxWatchesPerAccount ?? DEFAULT_MAX_WATCHES_PER_ACCOUNT,
    planOf: deps.planOf,
    now: deps.clock ?? (() => new Date()),
    streamPollMs: deps.streamPollMs ?? DEFAULT_STREAM_POLL_MS,
    log: deps.log,
  };
}

/** Who calls and for how long: the account from `x-retail-account`, the call's cancellation. */
export interface CallContext {
  readonly accountId: string;
  readonly requestId: string;
  readonly signal: AbortSignal;
}
