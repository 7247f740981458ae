/**
 * The ledger store with its system of record: a LedgerStore (Redis or memory, the hot path) wrapped so
 * that every account and key write goes to the record first, then to the store; settled usage goes to
 * the record through the hand-off; and an account the store does not know (an empty or replaced Redis,
 * a restarted one-process stack) is restored from the record on first use: balance = credits − debits.
 *
 * Metered calls never wait on PostgreSQL: admit and settle answer from the store; only an account the
 * store does not know costs one record read, once (then it is in the store again).
 */
import type { AuditEntry, UsageDay } from '../api.js';
import type { AccountSnapshot, LedgerStore } from '../store.js';
import type { LateDebit, LedgerRecord } from './ledger-record.js';
import type { UsageHandoff } from './usage-handoff.js';
import { mergeUsageDays } from './usage-days.js';

export interface RecordedStoreOptions {
  readonly store: LedgerStore;
  readonly record: LedgerRecord;
  readonly usage: UsageHandoff;
  readonly clock: () => number;
  readonly log: (line: string) => void;
  /** Audit entries the record answers per account (the store keeps the same number). */
  readonly auditRetention: number;
  /** How long an account the record could not restore is not asked about again (default 10 s). */
  readonly missRetryMs?: number;
  /**
   * How long a restore waits for the usage batches being written (usage-writes.ts, the gate) before it
   * restores without them (default 5 s); those then reach the ledger as late debits.
   */
  readonly barrierMs?: number;
  /** The record's per-day counts (usage-days.ts), which the summary's days take where the store's counters lost theirs. */
  readonly usageDays?: (accountId: string, days: readonly string[]) => Promise<UsageDay[]>;
}

/**
 * Hands late debits (a batch of the hand-off, usage-writes.ts) to the ledger, per account: the units a
 * restore could not count, taken once per hold id. Given to the hand-off, which runs before the
 * recorded store exists: so a function of the store, not of the recorded store.
 */
export function lateDebitsTo(store: LedgerStore, clock: () => number, log: (line: string) => void) {
  return async (late: readonly LateDebit[]): Promise<void> => {
    const byAccount = new Map<string, LateDebit[]>();
    for (const debit of late) byAccount.set(debit.accountId, [...(byAccount.get(debit.accountId) ?? []), debit]);
    for (const [accountId, debits] of byAccount) {
      const taken = await store.lateDebit(accountId, debits, clock());
      if (taken > 0) log(`ledger: account ${accountId}: ${taken} units charged before its restore and recorded after it taken now (late debits)`);
    }
  };
}

/**
 * An account or key change the record could not take (PostgreSQL down or not migrated yet): nothing
 * was changed. The console answers it 503; the name is what callers match, as for the ledger's errors.
 */
export class RecordUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the ledger record is unavailable: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'RecordUnavailableError';
  }
}

/** The record's answer, or RecordUnavailableError. */
async function fromRecord<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw new RecordUnavailableError(error);
  }
}

/** Accounts remembered as "nothing to restore" at most: a flood of invented account ids stays bounded. */
const MAX_REMEMBERED_MISSES = 10_000;

export function createRecordedStore(options: RecordedStoreOptions): LedgerStore {
  const { store, record, usage, clock, log } = options;
  const missRetryMs = options.missRetryMs ?? 10_000;
  const misses = new Map<string, number>();
  const restoring = new Map<string, Promise<AccountSnapshot | null>>();

  const takeLate = lateDebitsTo(store, clock, log);

  async function restoreOnce(accountId: string): Promise<AccountSnapshot | null> {
    // Rows this process still holds belong in the balance the record computes.
    await usage.flush().catch(() => undefined);
    // And the batches every process is writing now (read before a flush of the ledger Redis, say).
    if (!(await record.usageBarrier(options.barrierMs ?? 5_000))) {
      log(`ledger: restoring account ${accountId} without waiting longer for usage being written; what it holds comes as late debits`);
    }
    const snapshot = await record.accountSnapshot(accountId);
    if (!snapshot) return null;
    const restored = await store.restoreAccount(snapshot, {
      at: new Date(clock()).toISOString(), action: 'account.restore', detail: `balance=${snapshot.balance} keys=${snapshot.keys.length} epoch=${snapshot.epoch ?? 0}`,
    });
    if (!restored) return null;
    log(`ledger: restored account ${accountId} from the record: balance ${snapshot.balance}, plan ${snapshot.plan}, ${snapshot.keys.length} keys, epoch ${snapshot.epoch ?? 0}`);
    // Rows recorded between the snapshot and the restore in the ledger, whose writers found no account
    // to debit: taken now (once per hold id, so a writer that also takes them changes nothing).
    await takeLate(await record.lateDebitsFor(accountId, snapshot.epoch ?? 0)).catch((error: unknown) => {
      log(`ledger: late debits of account ${accountId} after its restore failed: ${(error as Error).message}`);
    });
    return snapshot;
  }

  /**
   * Restores `accountId` when the record has it and the store does not; the snapshot restored, or null
   * (no such account, the store had it already, or the record did not answer). One restore per account
   * at a time; a miss is not asked again for a while.
   */
  async function restore(accountId: string): Promise<AccountSnapshot | null> {
    if ((misses.get(accountId) ?? 0) > clock()) return null;
    let pending = restoring.get(accountId);
    if (!pending) {
      pending = restoreOnce(accountId).finally(() => restoring.delete(accountId));
      restoring.set(accountId, pending);
    }
    try {
      const snapshot = await pending;
      if (!snapshot) {
        if (misses.size >= MAX_REMEMBERED_MISSES) misses.delete(misses.keys().next().value!);
        misses.set(accountId, clock() + missRetryMs);
      }
      return snapshot;
    } catch (error) {
      log(`ledger: could not restore account ${accountId} from the record: ${(error as Error).message}`);
      return null;
    }
  }

  /** A store answer for an account the store did not know, asked again once the record restored it. */
  async function orRestored<T>(accountId: string, answer: T | null, again: () => Promise<T | null>): Promise<T | null> {
    if (answer !== null) return answer;
    return (await restore(accountId)) ? again() : null;
  }

  const forget = (accountId: string) => misses.delete(accountId);

  return {
    kind: store.kind,
    async admit(input) {
      const outcome = await store.admit(input);
      if (outcome.code !== 'unknown' || !(await restore(input.accountId))) return outcome;
      return store.admit(input);
    },
    async settle(input) {
      const outcome = await store.settle(input);
      if (outcome.charged > 0 && usage.push) {
        usage.push({
          accountId: input.accountId, holdId: input.holdId, keyId: input.keyId, iface: input.iface,
          operations: input.chargedOperations.slice(0, outcome.charged), units: outcome.charged, at: input.now, epoch: outcome.epoch ?? 0,
        });
      }
      return outcome;
    },
    async createAccount(accountId, units, plan, audit) {
      if (!(await fromRecord(record.createAccount(accountId, units, plan, audit)))) return false;
      forget(accountId);
      // Should this write fail, the record has the account and the first use restores it.
      return store.createAccount(accountId, units, plan, audit);
    },
    async restoreAccount(snapshot, audit) {
      return store.restoreAccount(snapshot, audit);
    },
    lateDebit: (accountId, debits, now) => store.lateDebit(accountId, debits, now),
    async grantUnits(accountId, units, now, audit) {
      const creditId = await fromRecord(record.grantUnits(accountId, units, audit));
      let balance: number | null;
      try {
        balance = await store.grantUnits(accountId, units, now, audit);
      } catch (error) {
        // The units never reached the ledger: take the credit back so a retried grant counts once.
        if (creditId !== null) await record.withdrawCredit(creditId);
        throw error;
      }
      if (creditId === null) {
        if (balance !== null) log(`ledger: account ${accountId} is not in the record (made before it); the grant is in Redis only`);
        return balance;
      }
      if (balance !== null) return balance;
      return (await restore(accountId))?.balance ?? null;
    },
    async setAccountField(accountId, field, value, audit) {
      const recorded = await fromRecord(record.setAccountField(accountId, field, value, audit));
      const stored = await store.setAccountField(accountId, field, value, audit);
      return stored || (recorded && (await restore(accountId)) !== null);
    },
    async deleteAccount(accountId) {
      const recorded = await fromRecord(record.deleteAccount(accountId, clock()));
      const stored = await store.deleteAccount(accountId);
      return recorded || stored;
    },
    async createKey(accountId, key, maxActiveKeys, now, audit) {
      if (!(await fromRecord(record.createKey(accountId, key, audit)))) {
        const outcome = await store.createKey(accountId, key, maxActiveKeys, now, audit);
        if (outcome === 'ok') log(`ledger: account ${accountId} is not in the record (made before it); key ${key.keyId} is in Redis only`);
        return outcome;
      }
      let outcome: Awaited<ReturnType<LedgerStore['createKey']>>;
      try {
        outcome = await store.createKey(accountId, key, maxActiveKeys, now, audit);
      } catch (error) {
        await record.forgetKey(key.keyId);
        throw error;
      }
      if (outcome === 'missing' && (await restore(accountId))) return 'ok';
      // A refused key was never handed out: it leaves the record too.
      if (outcome !== 'ok') await record.forgetKey(key.keyId);
      return outcome;
    },
    async listKeys(accountId) {
      return orRestored(accountId, await store.listKeys(accountId), () => store.listKeys(accountId));
    },
    async revokeKey(accountId, keyId, now, audit) {
      const recorded = await fromRecord(record.revokeKey(accountId, keyId, now, audit));
      const stored = await store.revokeKey(accountId, keyId, now, audit);
      return stored || (recorded && (await restore(accountId)) !== null);
    },
    async summary(accountId, now, days) {
      const summary = await orRestored(accountId, await store.summary(accountId, now, days), () => store.summary(accountId, now, days));
      if (!summary || !options.usageDays) return summary;
      // A record that does not answer leaves the counters' view: the summary never waits on an outage to fail.
      const recorded = await options.usageDays(accountId, days).catch(() => undefined);
      return recorded ? { ...summary, usage: mergeUsageDays(summary.usage, recorded) } : summary;
    },
    async accountPlan(accountId) {
      return orRestored(accountId, await store.accountPlan(accountId), () => store.accountPlan(accountId));
    },
    async audit(accountId): Promise<AuditEntry[]> {
      const recorded = await record.audit(accountId, options.auditRetention);
      // An account made before the record (or deleted) has its trail in the store only, if at all.
      return recorded.length > 0 ? recorded : store.audit(accountId);
    },
    recentUsage: (accountId, limit) => store.recentUsage(accountId, limit),
    ready: () => store.ready(),
    async close() {
      await usage.close();
      await store.close();
    },
  };
}
