/**
 * The in-memory ledger: the embedded default (`npm start` without Redis). Same semantics as the Lua
 * scripts in lua.ts, step for step; each method runs synchronously so it is atomic like a script.
 */
import type { AuditEntry } from './api.js';
import { isUnlimited, refill, tokensNeeded, type Bucket } from './plans.js';
import {
  dayField,
  isKeyActive,
  usageDay,
  type LedgerStore,
  type StoreAdmitInput,
  type StoreAdmitOutcome,
  type StoreOptions,
  type StoreSettleInput,
  type StoreSettleOutcome,
  type StoreSummary,
  type StoredKey,
} from './store.js';

interface HeldUnits {
  units: number;
  expiresAt: number;
}

interface UsageRecord {
  operation: string;
  iface: string;
  at: number;
  keyId: string;
}

interface AccountState {
  balance: number;
  plan: string;
  disabled: boolean;
  holds: Map<string, HeldUnits>;
  /** Answers of settles by hold id, kept until `forgetAt` so a repeated settle gets the same one. */
  settled: Map<string, { charged: number; forgetAt: number }>;
  bucket?: Bucket;
  keys: Map<string, StoredKey>; // by keyId
  keyByHash: Map<string, string>;
  usage: UsageRecord[];
  days: Map<string, Map<string, number>>;
  audit: AuditEntry[];
  /** The record's restore epoch this account was restored at (0: made here). */
  epoch: number;
}

export function createMemoryStore(options: StoreOptions): LedgerStore {
  const accounts = new Map<string, AccountState>();

  function releaseExpired(account: AccountState, now: number): void {
    for (const [id, hold] of account.holds) {
      if (hold.expiresAt <= now) {
        account.balance += hold.units;
        account.holds.delete(id);
      }
    }
  }

  function forgetSettled(account: AccountState, now: number): void {
    // Insertion order is (nearly) forgetAt order: stop at the first answer still kept, so this costs
    // what it forgets, not the size of the map.
    for (const [id, answer] of account.settled) {
      if (answer.forgetAt > now) break;
      account.settled.delete(id);
    }
  }

  function pushAudit(account: AccountState, entry: AuditEntry): void {
    account.audit.unshift(entry);
    account.audit.length = Math.min(account.audit.length, options.auditRetention);
  }

  function admitNow(input: StoreAdmitInput): StoreAdmitOutcome {
    const account = accounts.get(input.accountId);
    // 'account' mode: work the service does for an account; no key, scope or rate limit.
    const internal = input.mode === 'account';
    const keyId = internal ? undefined : account?.keyByHash.get(input.keyHash);
    const key = keyId === undefined ? undefined : account?.keys.get(keyId);
    if (!account || (!internal && (!key || !isKeyActive(key, input.now)))) return { code: 'unknown' };
    releaseExpired(account, input.now);
    const shownKeyId = key?.keyId ?? '';
    if (account.disabled) return { code: 'disabled', keyId: shownKeyId };
    if (key && input.iface !== '' && key.interfaces.length > 0 && !key.interfaces.includes(input.iface)) {
      return { code: 'scope', keyId: shownKeyId };
    }
    if (key && key.operations.length > 0 && input.operations.some((op) => !key.operations.includes(op))) {
      return { code: 'scope', keyId: shownKeyId };
    }
    const planName = options.plans[account.plan] ? account.plan : options.defaultPlan;
    const plan = options.plans[planName]!;
    // Only the modes that hold have a hold id an admit sent again repeats.
    const repeated = (input.mode === 'admit' || internal) && (account.holds.has(input.holdId) || account.settled.has(input.holdId));
    let tokens = -1;
    if (!isUnlimited(plan) && !internal) {
      tokens = refill(account.bucket, plan, input.now);
      if ((input.mode === 'admit' || input.mode === 'token') && !repeated) {
        if (tokens < tokensNeeded(plan, input.rateCost)) return { code: 'rate', keyId: shownKeyId, plan: planName, tokens };
        tokens -= input.rateCost;
        account.bucket = { tokens, updatedAt: input.now };
      }
    }
    const base = { keyId: shownKeyId, plan: planName, tokens };
    // 'token' (a free read): the token is taken; nothing is held and the balance is not asked.
    if (input.mode === 'peek' || input.mode === 'token' || repeated) return { code: 'ok', ...base, balance: account.balance };
    if (!input.shapeValid) return { code: 'shape', ...base };
    // A free call (0 units) is admitted below zero too (a late debit's debt): it overdraws nothing.
    if (input.units > 0 && account.balance < input.units) return { code: 'units', ...base, balance: account.balance };
    account.balance -= input.units;
    account.holds.set(input.holdId, { units: input.units, expiresAt: input.holdExpiresAt });
    return { code: 'ok', ...base, balance: account.balance };
  }

  function settleNow(input: StoreSettleInput): StoreSettleOutcome {
    const account = accounts.get(input.accountId);
    if (!account) return { charged: 0, balance: 0 };
    const known = account.settled.get(input.holdId);
    if (known) return { charged: known.charged, balance: account.balance };
    const hold = account.holds.get(input.holdId);
    account.holds.delete(input.holdId);
    // A hold released at its expiry before the settle came is charged from the balance, as far as it covers.
    const charged = Math.max(0, Math.min(input.chargedOperations.length, hold ? hold.units : account.balance));
    account.balance += (hold?.units ?? 0) - charged;
    for (const operation of input.chargedOperations.slice(0, charged)) {
      account.usage.push({ operation, iface: input.iface, at: input.now, keyId: input.keyId });
      const day = account.days.get(input.day) ?? new Map<string, number>();
      const field = dayField(operation, input.iface);
      day.set(field, (day.get(field) ?? 0) + 1);
      account.days.set(input.day, day);
    }
    // The newest `usageRetention` records are kept. Dropping the oldest one per call would move the
    // whole array on every settle once it is full (measured: 12 % of a gateway's CPU with the memory
    // ledger); the surplus is cut once it reaches the retention again, and readers look at the newest only.
    if (account.usage.length >= 2 * options.usageRetention) account.usage.splice(0, account.usage.length - options.usageRetention);
    const key = account.keys.get(input.keyId);
    if ((hold || charged > 0) && key && (key.lastUsedAt === undefined || input.now - key.lastUsedAt >= options.lastUsedIntervalMs)) {
      account.keys.set(key.keyId, { ...key, lastUsedAt: input.now });
    }
    account.settled.set(input.holdId, { charged, forgetAt: input.now + options.settleAnswerTtlMs });
    releaseExpired(account, input.now);
    forgetSettled(account, input.now);
    return { charged, balance: account.balance, ...(account.epoch > 0 && { epoch: account.epoch }) };
  }

  return {
    kind: 'memory',
    admit: async (input) => admitNow(input),
    settle: async (input) => settleNow(input),
    async createAccount(accountId, units, plan, audit) {
      if (accounts.has(accountId)) return false;
      accounts.set(accountId, {
        balance: units, plan, disabled: false, holds: new Map(), settled: new Map(), keys: new Map(), keyByHash: new Map(),
        usage: [], days: new Map(), audit: [], epoch: 0,
      });
      pushAudit(accounts.get(accountId)!, audit);
      return true;
    },
    async restoreAccount(snapshot, audit) {
      if (accounts.has(snapshot.accountId)) return false;
      const account: AccountState = {
        balance: snapshot.balance, plan: snapshot.plan, disabled: snapshot.disabled, holds: new Map(), settled: new Map(),
        keys: new Map(snapshot.keys.map((key) => [key.keyId, key])), keyByHash: new Map(snapshot.keys.map((key) => [key.hash, key.keyId])),
        usage: [], days: new Map(), audit: [], epoch: snapshot.epoch ?? 0,
      };
      accounts.set(snapshot.accountId, account);
      pushAudit(account, audit);
      return true;
    },
    async lateDebit(accountId, debits, now) {
      const account = accounts.get(accountId);
      if (!account) return 0;
      let taken = 0;
      for (const debit of debits) {
        const late = debit.chargedEpoch < account.epoch && account.epoch <= debit.recordedEpoch;
        if (!late || account.holds.has(debit.holdId) || account.settled.has(debit.holdId)) continue;
        account.balance -= debit.units;
        account.settled.set(debit.holdId, { charged: debit.units, forgetAt: now + options.settleAnswerTtlMs });
        taken += debit.units;
      }
      return taken;
    },
    async grantUnits(accountId, units, now, audit) {
      const account = accounts.get(accountId);
      if (!account) return null;
      releaseExpired(account, now);
      account.balance += units;
      pushAudit(account, audit);
      return account.balance;
    },
    async setAccountField(accountId, field, value, audit) {
      const account = accounts.get(accountId);
      if (!account) return false;
      if (field === 'plan') account.plan = value;
      else account.disabled = value === '1';
      pushAudit(account, audit);
      return true;
    },
    async deleteAccount(accountId) {
      return accounts.delete(accountId);
    },
    async createKey(accountId, key, maxActiveKeys, now, audit) {
      const account = accounts.get(accountId);
      if (!account) return 'missing';
      const active = [...account.keys.values()].filter((k) => isKeyActive(k, now)).length;
      if (active >= maxActiveKeys) return 'limit';
      account.keys.set(key.keyId, key);
      account.keyByHash.set(key.hash, key.keyId);
      pushAudit(account, audit);
      return 'ok';
    },
    async listKeys(accountId) {
      const account = accounts.get(accountId);
      return account ? [...account.keys.values()] : null;
    },
    async revokeKey(accountId, keyId, now, audit) {
      const key = accounts.get(accountId)?.keys.get(keyId);
      if (!key) return false;
      if (key.revokedAt === undefined) {
        accounts.get(accountId)!.keys.set(keyId, { ...key, revokedAt: now });
        pushAudit(accounts.get(accountId)!, audit);
      }
      return true;
    },
    async summary(accountId, now, days): Promise<StoreSummary | null> {
      const account = accounts.get(accountId);
      if (!account) return null;
      releaseExpired(account, now);
      const keep = new Set(days);
      for (const day of account.days.keys()) if (day < days[days.length - 1]! && !keep.has(day)) account.days.delete(day);
      const usage = days.flatMap((date) =>
        [...(account.days.get(date) ?? new Map<string, number>())].map(([field, calls]) => usageDay(date, field, calls)),
      );
      return { plan: account.plan, balance: account.balance, usage };
    },
    async accountPlan(accountId) {
      return accounts.get(accountId)?.plan ?? null;
    },
    async recentUsage(accountId, limit) {
      const usage = accounts.get(accountId)?.usage ?? [];
      return usage.slice(-Math.min(limit, options.usageRetention)).reverse().map(({ at, operation, iface, keyId }) => ({ at, operation, iface, keyId }));
    },
    async audit(accountId) {
      return [...(accounts.get(accountId)?.audit ?? [])];
    },
    ready: async () => true,
    close: async () => {},
  };
}
