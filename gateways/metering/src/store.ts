/**
 * The ledger store: what the Redis store (Lua scripts) and the memory store both implement, with the
 * same semantics. Everything an account owns is addressed by its accountId (the Redis hash tag), and
 * every method is one atomic step (one script on Redis).
 */
import type { AuditEntry, Interface, UsageDay, UsageInterface } from './api.js';
import type { PlanTable } from './plans.js';

/** A key as stored: its SHA-256, never the key. Times are epoch milliseconds of the injected clock. */
export interface StoredKey {
  readonly keyId: string;
  readonly hash: string;
  readonly prefix: string;
  readonly label?: string;
  /** Empty means all operations / all interfaces. */
  readonly operations: readonly string[];
  readonly interfaces: readonly Interface[];
  readonly createdAt: number;
  readonly lastUsedAt?: number;
  readonly expiresAt?: number;
  readonly revokedAt?: number;
}

/** What the ledger needs to serve an account again (from the record): its settings, balance and keys. */
export interface AccountSnapshot {
  readonly accountId: string;
  readonly plan: string;
  readonly disabled: boolean;
  readonly createdAt: number;
  /** Credits − recorded debits. */
  readonly balance: number;
  readonly keys: readonly StoredKey[];
  /** The record's restore epoch this snapshot starts (usage-writes.ts); 0 when absent. */
  readonly epoch?: number;
}

/** A call charged in a lost ledger and recorded after the restore that made this one (record/usage-writes.ts). */
export interface StoreLateDebit {
  readonly holdId: string;
  readonly units: number;
  readonly chargedEpoch: number;
  readonly recordedEpoch: number;
}

export type AdmitCode = 'ok' | 'unknown' | 'disabled' | 'scope' | 'rate' | 'shape' | 'units';

export interface StoreAdmitInput {
  readonly accountId: string;
  readonly keyHash: string;
  /** '' skips the interface scope (GET /api/account is open to any valid key). */
  readonly iface: Interface | '';
  readonly operations: readonly string[];
  readonly shapeValid: boolean;
  readonly now: number;
  readonly holdId: string;
  readonly holdExpiresAt: number;
  readonly units: number;
  /** Tokens an 'admit' or a 'token' takes (≥ 1): it needs min(rateCost, burst) of them and may leave the bucket below zero. */
  readonly rateCost: number;
  /**
   * 'peek': key, disabled and scope checks and the rate state without taking a token or holding.
   * 'token': a free call that is work for the service (a usage history read): key, disabled, scope and
   * rate limit as an admit, `rateCost` tokens taken, then nothing held and no shape or balance check.
   * 'account': background work for the account: no key (keyHash ignored), scope or rate limit.
   */
  readonly mode: 'admit' | 'peek' | 'token' | 'account';
}

export interface StoreAdmitOutcome {
  readonly code: AdmitCode;
  readonly keyId?: string;
  readonly plan?: string;
  /** Tokens left in the bucket after the decision; -1 for an unlimited plan. */
  readonly tokens?: number;
  /** Balance after the hold (or the balance that was too low). */
  readonly balance?: number;
}

export interface StoreSettleInput {
  readonly accountId: string;
  readonly holdId: string;
  readonly keyId: string;
  readonly iface: UsageInterface;
  /** Operations to record as charged, in order; at most the hold's units are charged. */
  readonly chargedOperations: readonly string[];
  readonly now: number;
  /** UTC date (YYYY-MM-DD) of `now`, for the per-day counters. */
  readonly day: string;
}

/**
 * `settle` is exactly-once per hold id: a repeat answers what the first did. It charges the hold's
 * units for the operations that succeeded; a hold already released at its expiry is charged from the
 * balance as far as the balance covers it (the call was served), never below zero.
 */
export interface StoreSettleOutcome {
  readonly charged: number;
  readonly balance: number;
  /** The account's restore epoch at the charge (0: never restored), handed off with the call. */
  readonly epoch?: number;
}

export interface StoreSummary {
  readonly plan: string;
  readonly balance: number;
  readonly usage: readonly UsageDay[];
}

/*
 * A day's counter is per operation and interface: the field `GetProduct@rest` of the day's hash, so
 * the console can name a call as its caller made it (REST path, GraphQL field, MCP tool). Counters
 * written before 0.2 are bare `GetProduct` and read without an interface (they expire with the day).
 */
export const dayField = (operation: string, iface: UsageInterface): string => `${operation}@${iface}`;

export function usageDay(date: string, field: string, calls: number): UsageDay {
  const at = field.lastIndexOf('@');
  if (at < 0) return { date, operation: field, calls };
  return { date, operation: field.slice(0, at), interface: field.slice(at + 1) as UsageInterface, calls };
}

export interface LedgerStore {
  readonly kind: 'memory' | 'redis';
  admit(input: StoreAdmitInput): Promise<StoreAdmitOutcome>;
  settle(input: StoreSettleInput): Promise<StoreSettleOutcome>;
  createAccount(accountId: string, units: number, plan: string, audit: AuditEntry): Promise<boolean>;
  grantUnits(accountId: string, units: number, now: number, audit: AuditEntry): Promise<number | null>;
  setAccountField(accountId: string, field: 'plan' | 'disabled', value: string, audit: AuditEntry): Promise<boolean>;
  deleteAccount(accountId: string): Promise<boolean>;
  createKey(accountId: string, key: StoredKey, maxActiveKeys: number, now: number, audit: AuditEntry): Promise<'ok' | 'missing' | 'limit'>;
  listKeys(accountId: string): Promise<StoredKey[] | null>;
  revokeKey(accountId: string, keyId: string, now: number, audit: AuditEntry): Promise<boolean>;
  summary(accountId: string, now: number, days: readonly string[]): Promise<StoreSummary | null>;
  /**
   * Puts an account the ledger does not know back as the record has it (balance, plan, disabled, keys
   * with their revocations), in one step; false, changing nothing, when the ledger knows the account.
   */
  restoreAccount(snapshot: AccountSnapshot, audit: AuditEntry): Promise<boolean>;
  /**
   * Takes the units of `debits` the account's restore could not count (charged before its epoch,
   * recorded at or after it), once per hold id; the units taken (0 for a missing account).
   */
  lateDebit(accountId: string, debits: readonly StoreLateDebit[], now: number): Promise<number>;
  /** The account's plan name; null when there is no such account. */
  accountPlan(accountId: string): Promise<string | null>;
  audit(accountId: string): Promise<AuditEntry[]>;
  /** Newest first; times in epoch ms. */
  recentUsage(accountId: string, limit: number): Promise<Array<{ at: number; operation: string; iface: string; keyId: string }>>;
  /** Resolves when the store can answer (Redis connected); never rejects. */
  ready(): Promise<boolean>;
  close(): Promise<void>;
}

export interface StoreOptions {
  readonly plans: PlanTable;
  readonly defaultPlan: string;
  /** Settle writes lastUsedAt at most this often per key. */
  readonly lastUsedIntervalMs: number;
  /** Usage stream length kept per account (approximate on Redis). */
  readonly usageRetention: number;
  readonly auditRetention: number;
  /**
   * How long a settle's answer is kept for a repeat of the same settle (idempotency by hold id). Must
   * outlast the time a gateway keeps retrying a settle (its settle window plus clock skew).
   */
  readonly settleAnswerTtlMs: number;
}

export const LAST_USED_INTERVAL_MS = 60_000;
export const USAGE_RETENTION = 10_000;
export const AUDIT_RETENTION = 1_000;
/** Per-day counters live this long (Redis PEXPIRE; the memory store prunes by date). */
export const DAY_COUNTER_TTL_MS = 90 * 86_400_000;

export function isKeyActive(key: StoredKey, now: number): boolean {
  return key.revokedAt === undefined && (key.expiresAt === undefined || key.expiresAt > now);
}
