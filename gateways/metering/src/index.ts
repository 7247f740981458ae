/**
 * The auth and metering library: `createMetering` builds one ledger (Redis single node or Cluster
 * when configured, memory otherwise) behind the gateways' Meter and the console's AccountAdmin.
 */
// Subpaths, not the index: the gateways never load PGlite (the one-process stack brings its own).
import type { Database } from '@retail/database/database';
import { createPostgresDatabase } from '@retail/database/pg-database';
import type { Metering } from './api.js';
import { createAccountAdmin } from './admin.js';
import { createMemoryStore } from './memory-store.js';
import { createMeter } from './meter.js';
import { bump, createCounters, type MeteringCounters } from './metrics.js';
import { DEFAULT_PLAN, DEFAULT_PLANS, DEVELOPMENT_PLAN, parsePlans, validatePlans, type PlanTable } from './plans.js';
import { SETTLE_CLOCK_SKEW_MS, createRedisStore } from './redis-store.js';
import { createLedgerRecord } from './record/ledger-record.js';
import { prepareRecord } from './record/prepare-record.js';
import { createRecordedStore, lateDebitsTo } from './record/recorded-store.js';
import { createUsageHandoff } from './record/usage-handoff.js';
import { startUsageStream } from './record/usage-stream.js';
import { recordedUsageDays } from './record/usage-days.js';
import { usageHistory } from './record/usage-history.js';
import type { UsageHistoryQuery, UsageHistoryRow } from './usage-query.js';
import { AUDIT_RETENTION, LAST_USED_INTERVAL_MS, USAGE_RETENTION, type LedgerStore, type StoreOptions } from './store.js';

export type * from './api.js';
export { readCredentials, KEY_HEADERS, INVALID_KEY_MESSAGE } from './credentials.js';
export { rateLimitHeaders, parsePlans, DEFAULT_PLANS, DEFAULT_PLAN, DEVELOPMENT_PLAN, WATCH_INTERVAL_BOUNDS, type Plan, type PlanTable } from './plans.js';
export { meteringCounters, type MeteringCounters } from './metrics.js';
export { MeteringAdminError, FREE_UNITS } from './admin.js';
export { parseKey } from './keys.js';
export { createUsageExport, DEFAULT_EXPORT_BATCH_SIZE, USAGE_EXPORT_STARTS, type UsageExportStart, type UsageBatch, type UsageBatchOutcome, type UsageExport, type UsageExportOptions, type UsageExportRun, type UsageExportStatus } from './export/usage-export.js';
export { CLOUDEVENTS_BATCH_CONTENT_TYPE, DEFAULT_USAGE_EVENT_SOURCE, DEFAULT_USAGE_EVENT_TYPE, usageEventId, type UsageCloudEvent, type UsageEventData } from './export/usage-events.js';
export { usageCsv, parseUsageQuery, USAGE_GROUPS, USAGE_GRANULARITIES, type UsageGroup, type UsageHistoryQuery, type UsageHistoryRow } from './usage-query.js';

export interface MeteringOptions {
  /** Single-node Redis URL (redis://host:port/db). */
  readonly redisUrl?: string;
  /** Redis Cluster startup nodes ("host:port"); takes precedence over redisUrl. */
  readonly cluster?: readonly string[];
  /** Epoch milliseconds; injectable so tests move time instead of sleeping. */
  readonly clock?: () => number;
  /** Plans by name; merged over DEFAULT_PLANS. */
  readonly plans?: PlanTable;
  /** Plan of new accounts and fallback for an account whose plan left the table (default `free`). */
  readonly defaultPlan?: string;
  /** Cache for free-call authentication, capped at 1000 ms (revocations must show within a second). Default 0. */
  readonly keyCacheMs?: number;
  /** How long a hold lives before any script may release it; must exceed the gateways' core deadline. */
  readonly holdTtlMs?: number;
  readonly maxActiveKeys?: number;
  /** Prefix of every Redis key (default `ledger:`). */
  readonly keyPrefix?: string;
  /**
   * How long a gateway keeps retrying a settle the ledger did not answer (a frozen or restarting
   * Redis) before it answers the served call with 0 units charged (default 15 s, at most 2 min).
   */
  readonly settleWindowMs?: number;
  /**
   * The system of record (PostgreSQL or PGlite; docs/metering.md, The record): accounts, keys, credits,
   * usage and audit are written there, and an account the ledger store does not know is restored from
   * it. Migrated here; its owner closes it after `close()`. Without it the store is the only copy.
   */
  readonly record?: Database;
  /** Where the record's restores and hand-off troubles are said (default: standard error). */
  readonly log?: (line: string) => void;
  /**
   * Whether this process consumes the hand-off stream (single-node Redis with a record; default true).
   * False: its settles only append, and other processes with the record write the rows.
   */
  readonly usageConsumer?: boolean;
}

export interface MeteringInstance extends Metering {
  readonly counters: MeteringCounters;
  /** 'memory' or 'redis' (single node or Cluster). */
  readonly storeKind: LedgerStore['kind'];
  /** The plan table in force (built-ins merged with the configured ones) and the fallback plan. */
  readonly plans: PlanTable;
  readonly defaultPlan: string;
  /** Whether accounts, keys and usage are kept in a database besides the store. */
  readonly recorded: boolean;
  /** Calls and units per period from the record's usage log; absent without a record. */
  readonly usageHistory?: (accountId: string, query: UsageHistoryQuery) => Promise<UsageHistoryRow[]>;
  /** True when the store answers (for /readyz). */
  ready(): Promise<boolean>;
}

export const DEFAULT_HOLD_TTL_MS = 60_000;
export const DEFAULT_SETTLE_WINDOW_MS = 15_000;
const MAX_SETTLE_WINDOW_MS = 120_000;
export const DEFAULT_MAX_ACTIVE_KEYS = 20;

export async function createMetering(options: MeteringOptions = {}): Promise<MeteringInstance> {
  const clock = options.clock ?? Date.now;
  const plans: PlanTable = { ...DEFAULT_PLANS, ...options.plans };
  validatePlans(plans);
  const defaultPlan = options.defaultPlan ?? DEFAULT_PLAN;
  if (!plans[defaultPlan]) throw new Error(`default plan ${defaultPlan} is not in the plan table`);
  // Sign-ups (the console) get the default plan: the development key's generous limits stay a laptop's.
  if (defaultPlan === DEVELOPMENT_PLAN) throw new Error(`the ${DEVELOPMENT_PLAN} plan is for the key npm start prints; it cannot be the plan of new accounts`);
  const settleWindowMs = options.settleWindowMs ?? DEFAULT_SETTLE_WINDOW_MS;
  if (!(settleWindowMs > 0 && settleWindowMs <= MAX_SETTLE_WINDOW_MS)) {
    throw new Error(`settle window must be between 1 ms and ${MAX_SETTLE_WINDOW_MS} ms, got ${settleWindowMs}`);
  }
  const storeOptions: StoreOptions = {
    plans, defaultPlan, lastUsedIntervalMs: LAST_USED_INTERVAL_MS, usageRetention: USAGE_RETENTION, auditRetention: AUDIT_RETENTION,
    // A repeat of a settle can arrive until the window (plus clock skew) has passed; keep answers longer.
    settleAnswerTtlMs: settleWindowMs + SETTLE_CLOCK_SKEW_MS + 30_000,
  };
  const counters = createCounters();
  const useRedis = Boolean(options.redisUrl) || Boolean(options.cluster?.length);
  const keyPrefix = options.keyPrefix ?? 'ledger:';
  // The durable hand-off to the record needs the stream beside the accounts: a single-node Redis.
  const usageStream = options.record && options.redisUrl && !options.cluster?.length ? `${keyPrefix}usage-handoff` : undefined;
  const hotStore = useRedis
    ? createRedisStore({
        ...storeOptions, redisUrl: options.redisUrl, cluster: options.cluster, keyPrefix,
        settleWindowMs, onSettleRetry: () => bump(counters, 'settleRetries'), ...(usageStream && { usageStream }),
      })
    : createMemoryStore(storeOptions);
  const log = options.log ?? ((line: string) => console.error(line));
  const store = options.record
    ? await withRecord(hotStore, options.record, {
        clock, log, plans, ...(usageStream && { stream: { redisUrl: options.redisUrl!, name: usageStream, consume: options.usageConsumer ?? true } }),
      })
    : hotStore;
  // A ledger that is down at start-up is not fatal: calls answer 503 until it is back.
  await store.ready();
  const meter = createMeter({
    store, clock, plans, defaultPlan, counters,
    holdTtlMs: options.holdTtlMs ?? DEFAULT_HOLD_TTL_MS,
    keyCacheMs: options.keyCacheMs ?? 0,
    ...(options.record && { usageHistory: (accountId: string, query: UsageHistoryQuery) => usageHistory(options.record!, accountId, query) }),
  });
  const admin = createAccountAdmin({ store, clock, plans, defaultPlan, maxActiveKeys: options.maxActiveKeys ?? DEFAULT_MAX_ACTIVE_KEYS });
  return {
    meter, admin, counters, plans, defaultPlan,
    storeKind: store.kind,
    recorded: options.record !== undefined,
    ...(options.record && { usageHistory: (accountId: string, query: UsageHistoryQuery) => usageHistory(options.record!, accountId, query) }),
    ready: () => store.ready(),
    close: () => store.close(),
  };
}

interface RecordSetup {
  readonly clock: () => number;
  readonly log: (line: string) => void;
  readonly plans: PlanTable;
  /** The settle script's hand-off stream (single-node Redis); otherwise the in-process hand-off. */
  readonly stream?: { readonly redisUrl: string; readonly name: string; readonly consume: boolean };
}

/** The store behind the record: migrated (or trying to be), the plan table in force recorded, usage handed off. */
async function withRecord(store: LedgerStore, database: Database, setup: RecordSetup): Promise<LedgerStore> {
  const { clock, log } = setup;
  const record = createLedgerRecord(database);
  const preparation = await prepareRecord({ database, record, plans: setup.plans, clock, log });
  const lateDebits = lateDebitsTo(store, clock, log);
  const usage = setup.stream
    ? startUsageStream({ redisUrl: setup.stream.redisUrl, stream: setup.stream.name, record, log, consume: setup.stream.consume, lateDebits })
    : createUsageHandoff({ record, log, lateDebits });
  const recorded = createRecordedStore({
    store, record, usage, clock, log, auditRetention: AUDIT_RETENTION,
    usageDays: (accountId, days) => recordedUsageDays(database, accountId, days),
  });
  return {
    ...recorded,
    async close() {
      preparation.stop();
      await recorded.close();
    },
  };
}

/** A positive whole number of milliseconds from the environment, or undefined when unset. */
function millisecondsFromEnv(env: Record<string, string | undefined>, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  if (!/^\d+$/.test(raw.trim()) || Number(raw) <= 0) throw new Error(`${name} must be a positive number of milliseconds, got "${raw}"`);
  return Number(raw);
}

/**
 * From the environment: LEDGER_REDIS_URL, else REDIS_URL (memory store when neither is set);
 * LEDGER_REDIS_CLUSTER (comma list of host:port startup nodes) for a Cluster; METERING_PLANS (JSON,
 * merged over the built-in plans, see parsePlans); LEDGER_HOLD_TTL_MS and LEDGER_SETTLE_WINDOW_MS;
 * LEDGER_DATABASE_URL, the PostgreSQL of the ledger's record (docs/metering.md, The record).
 */
export async function createMeteringFromEnv(
  env: Record<string, string | undefined> = process.env,
  overrides: MeteringOptions = {},
): Promise<MeteringInstance> {
  const cluster = env.LEDGER_REDIS_CLUSTER?.split(',').map((n) => n.trim()).filter(Boolean);
  const redisUrl = env.LEDGER_REDIS_URL || env.REDIS_URL || undefined;
  const plans = env.METERING_PLANS ? parsePlans(env.METERING_PLANS) : undefined;
  const holdTtlMs = millisecondsFromEnv(env, 'LEDGER_HOLD_TTL_MS');
  const settleWindowMs = millisecondsFromEnv(env, 'LEDGER_SETTLE_WINDOW_MS');
  // The record this metering opens itself (LEDGER_DATABASE_URL) is closed with it; one it is given is its owner's.
  const ownRecord = overrides.record === undefined && env.LEDGER_DATABASE_URL
    ? createPostgresDatabase({ connectionString: env.LEDGER_DATABASE_URL })
    : undefined;
  try {
    const metering = await createMetering({
      redisUrl, cluster, plans,
      ...(holdTtlMs !== undefined ? { holdTtlMs } : {}),
      ...(settleWindowMs !== undefined ? { settleWindowMs } : {}),
      ...(ownRecord && { record: ownRecord }),
      ...overrides,
    });
    if (!ownRecord) return metering;
    return { ...metering, close: () => metering.close().finally(() => ownRecord.close()) };
  } catch (error) {
    await ownRecord?.close();
    throw error;
  }
}
