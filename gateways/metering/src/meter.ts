/**
 * The gateways' per-request face of the ledger: credentials, admit (round trip 1), settle (round trip 2),
 * free authenticated calls, free reads that take a rate-limit token, and the account summary. Every refusal is a Denial value; a store failure
 * becomes 503 LEDGER_UNAVAILABLE with nothing charged (fail closed).
 */
import { ErrorReason } from '@retail/contract';
import type { AccountAdmitResult, AccountSummary, AdmitReadResult, AdmitResult, AuthenticateResult, Denial, Hold, Interface, Meter, RateLimitState } from './api.js';
import { denial, readCredentials } from './credentials.js';
import { newHoldId, parseKey, type ParsedKey } from './keys.js';
import { bump, bumpDenied, type MeteringCounters } from './metrics.js';
import { rateLimitHeaders, rateLimitState, retryAfterSeconds, type PlanTable } from './plans.js';
import type { LedgerStore, StoreAdmitOutcome } from './store.js';
import type { UsageHistoryQuery, UsageHistoryRow } from './usage-query.js';

export interface MeterOptions {
  readonly store: LedgerStore;
  readonly clock: () => number;
  readonly plans: PlanTable;
  readonly defaultPlan: string;
  readonly holdTtlMs: number;
  /** Cache for `authenticate` (free calls) in ms, capped at 1000 so a revocation is seen within a second. */
  readonly keyCacheMs: number;
  readonly counters: MeteringCounters;
  /** The record's usage history of an account (record/usage-history.ts); absent without a record. */
  readonly usageHistory?: (accountId: string, query: UsageHistoryQuery) => Promise<UsageHistoryRow[]>;
}

/** Days shown by the account summary (UTC dates, newest first). */
export const SUMMARY_DAYS = 30;

export function utcDay(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

export function recentDays(now: number, count = SUMMARY_DAYS): string[] {
  return Array.from({ length: count }, (_, i) => utcDay(now - i * 86_400_000));
}

const UNAVAILABLE = Symbol('ledger unavailable');

/** Caller-chosen hold ids: safe as a Redis hash field and a usage record field, bounded. */
const HOLD_ID = /^[A-Za-z0-9:_.-]{1,128}$/;

export function createMeter(options: MeterOptions): Meter {
  const { store, clock, plans, counters } = options;
  const cacheMs = Math.min(Math.max(0, options.keyCacheMs), 1000);
  const authCache = new Map<string, { at: number; result: AuthenticateResult }>();

  function refuse(reason: ErrorReason, extra: Partial<Denial> = {}): { ok: false; denial: Denial } {
    bumpDenied(counters, ErrorReason[reason] ?? String(reason));
    return { ok: false, denial: denial(reason, extra) };
  }

  function stateOf(outcome: StoreAdmitOutcome): RateLimitState {
    const name = outcome.plan && plans[outcome.plan] ? outcome.plan : options.defaultPlan;
    return rateLimitState(name, plans[name]!, outcome.tokens ?? -1);
  }

  // Parsing a key costs two SHA-256 (checksum and store hash); a client sends the same key on every
  // call, so well-formed keys are remembered (bounded: cleared when full).
  const parsedKeys = new Map<string, ParsedKey>();

  /** Parses the key locally; a malformed one never reaches the store. */
  function parse(key: string): ParsedKey | null {
    const known = parsedKeys.get(key);
    if (known) return known;
    const parsed = parseKey(key);
    if (!parsed) {
      bump(counters, 'malformedKeys');
      return null;
    }
    if (parsedKeys.size >= 10_000) parsedKeys.clear();
    parsedKeys.set(key, parsed);
    return parsed;
  }

  async function ask<T>(step: () => Promise<T>): Promise<T | typeof UNAVAILABLE> {
    bump(counters, 'storeCalls');
    try {
      return await step();
    } catch {
      // The cause (connection refused, timeout) is not the client's business; the counter records it.
      bump(counters, 'ledgerUnavailable');
      return UNAVAILABLE;
    }
  }

  /** Maps the refusals shared by admit, authenticate and summary; null when the outcome passed them. */
  function earlyRefusal(outcome: StoreAdmitOutcome): { ok: false; denial: Denial } | null {
    if (outcome.code === 'unknown') return refuse(ErrorReason.INVALID_API_KEY);
    if (outcome.code === 'disabled') return refuse(ErrorReason.ACCOUNT_DISABLED);
    if (outcome.code === 'scope') return refuse(ErrorReason.PERMISSION_DENIED);
    return null;
  }

  /** 429 for an outcome the bucket refused: the wait for `rateCost` tokens, and the state to render. */
  function rateRefusal(outcome: StoreAdmitOutcome, rateLimit: RateLimitState, rateCost: number): { ok: false; denial: Denial } {
    return refuse(ErrorReason.RATE_LIMITED, { rateLimit, retryAfterSeconds: retryAfterSeconds(plans[rateLimit.policyName]!, outcome.tokens ?? 0, rateCost) });
  }

  /** Key, disabled and scope checks that hold nothing: 'peek' takes no token, 'token' takes one (a free read). */
  const admitWithoutHold = (parsed: ParsedKey, iface: Interface | '', mode: 'peek' | 'token') =>
    ask(() =>
      store.admit({
        accountId: parsed.accountId, keyHash: parsed.hash, iface, operations: [], shapeValid: true,
        now: clock(), holdId: '', holdExpiresAt: 0, units: 0, rateCost: mode === 'token' ? 1 : 0, mode,
      }),
    );

  async function peek(key: string, iface: Interface | ''): Promise<AuthenticateResult> {
    const parsed = parse(key);
    if (!parsed) return refuse(ErrorReason.INVALID_API_KEY);
    const outcome = await admitWithoutHold(parsed, iface, 'peek');
    if (outcome === UNAVAILABLE) return refuse(ErrorReason.LEDGER_UNAVAILABLE);
    return earlyRefusal(outcome) ?? { ok: true, accountId: parsed.accountId, keyId: outcome.keyId ?? '', rateLimit: stateOf(outcome) };
  }

  return {
    readCredentials,
    rateLimitHeaders,

    async admit(request): Promise<AdmitResult> {
      const parsed = parse(request.key);
      if (!parsed) return refuse(ErrorReason.INVALID_API_KEY);
      const now = clock();
      const holdId = newHoldId();
      const units = request.operations.length;
      const rateCost = Math.max(1, Math.floor(request.rateCost ?? 1));
      const outcome = await ask(() =>
        store.admit({
          accountId: parsed.accountId, keyHash: parsed.hash, iface: request.interface, operations: request.operations,
          shapeValid: request.shapeValid, now, holdId, holdExpiresAt: now + options.holdTtlMs, units, rateCost, mode: 'admit',
        }),
      );
      if (outcome === UNAVAILABLE) return refuse(ErrorReason.LEDGER_UNAVAILABLE);
      const early = earlyRefusal(outcome);
      if (early) return early;
      const rateLimit = stateOf(outcome);
      switch (outcome.code) {
        case 'rate':
          return rateRefusal(outcome, rateLimit, rateCost);
        case 'shape':
          return { ok: false, shape: true, rateLimit };
        case 'units':
          return refuse(ErrorReason.INSUFFICIENT_UNITS, { rateLimit });
        default: {
          bump(counters, 'admitted');
          const hold: Hold = {
            holdId, accountId: parsed.accountId, keyId: outcome.keyId ?? '', units,
            interface: request.interface, operations: [...request.operations],
          };
          return { ok: true, hold, rateLimit, balance: outcome.balance ?? 0 };
        }
      }
    },

    async admitAccount(request): Promise<AccountAdmitResult> {
      if (!HOLD_ID.test(request.holdId)) throw new Error(`hold id must match ${HOLD_ID}: ${JSON.stringify(request.holdId)}`);
      const now = clock();
      const units = request.operations.length;
      const outcome = await ask(() =>
        store.admit({
          accountId: request.accountId, keyHash: '', iface: '', operations: request.operations, shapeValid: true, now,
          holdId: request.holdId, holdExpiresAt: now + options.holdTtlMs, units, rateCost: 0, mode: 'account',
        }),
      );
      if (outcome === UNAVAILABLE) return refuse(ErrorReason.LEDGER_UNAVAILABLE);
      if (outcome.code === 'unknown') return refuse(ErrorReason.INVALID_API_KEY);
      if (outcome.code === 'disabled') return refuse(ErrorReason.ACCOUNT_DISABLED);
      if (outcome.code === 'units') return refuse(ErrorReason.INSUFFICIENT_UNITS);
      bump(counters, 'admitted');
      const hold: Hold = {
        holdId: request.holdId, accountId: request.accountId, keyId: '', units, interface: request.work, operations: [...request.operations],
      };
      return { ok: true, hold, balance: outcome.balance ?? 0 };
    },

    async settle(hold, succeeded, succeededOperations?: readonly string[]) {
      const now = clock();
      const charged = (succeededOperations ?? hold.operations).slice(0, Math.max(0, Math.min(succeeded, hold.units)));
      const outcome = await ask(() =>
        store.settle({
          accountId: hold.accountId, holdId: hold.holdId, keyId: hold.keyId, iface: hold.interface,
          chargedOperations: charged, now, day: utcDay(now),
        }),
      );
      // The store gave up only when nothing was and nothing will be charged for this hold (see the
      // Redis store's settle window): the hold is released, at the latest when it expires.
      if (outcome === UNAVAILABLE) return { charged: 0 };
      bump(counters, 'settled');
      bump(counters, 'unitsCharged', outcome.charged);
      return { charged: outcome.charged, remaining: outcome.balance };
    },

    async authenticate(key, iface) {
      if (cacheMs === 0) return peek(key, iface);
      const cacheKey = `${iface}\u0000${key}`;
      const hit = authCache.get(cacheKey);
      if (hit && clock() - hit.at < cacheMs) return hit.result;
      const result = await peek(key, iface);
      if (result.ok || result.denial.reason !== ErrorReason.LEDGER_UNAVAILABLE) {
        if (authCache.size > 10_000) authCache.clear();
        authCache.set(cacheKey, { at: clock(), result });
      }
      return result;
    },

    async accountSummary(key): Promise<AccountSummary | Denial> {
      const auth = await peek(key, '');
      if (!auth.ok) return auth.denial;
      const now = clock();
      const summary = await ask(() => store.summary(auth.accountId, now, recentDays(now)));
      if (summary === UNAVAILABLE) return refuse(ErrorReason.LEDGER_UNAVAILABLE).denial;
      if (!summary) return refuse(ErrorReason.INVALID_API_KEY).denial; // deleted in between
      return { accountId: auth.accountId, plan: summary.plan, balance: summary.balance, usage: summary.usage };
    },

    async admitRead(key, iface): Promise<AdmitReadResult> {
      const parsed = parse(key);
      if (!parsed) return refuse(ErrorReason.INVALID_API_KEY);
      // One token, as a lookup takes: a read is a query of the record, and the rate limit is what
      // bounds how often a key may ask for one (docs/metering.md, Usage history).
      const outcome = await admitWithoutHold(parsed, iface, 'token');
      if (outcome === UNAVAILABLE) return refuse(ErrorReason.LEDGER_UNAVAILABLE);
      const early = earlyRefusal(outcome);
      if (early) return early;
      const rateLimit = stateOf(outcome);
      if (outcome.code === 'rate') return rateRefusal(outcome, rateLimit, 1);
      return { ok: true, accountId: parsed.accountId, keyId: outcome.keyId ?? '', rateLimit };
    },

    async accountUsage(read, query) {
      const history = options.usageHistory;
      if (!history) return denial(ErrorReason.UNIMPLEMENTED, { message: 'usage history is kept in the ledger\'s record, and this deployment has none (LEDGER_DATABASE_URL)' });
      try {
        return await history(read.accountId, query);
      } catch {
        // The record (PostgreSQL) is down or slow: as the ledger's other failures, a retryable 503.
        bump(counters, 'ledgerUnavailable');
        return denial(ErrorReason.LEDGER_UNAVAILABLE, { retryAfterSeconds: 1 });
      }
    },

    close: () => store.close(),
  };
}
