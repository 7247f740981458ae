/**
 * The ledger's system of record on PostgreSQL (or PGlite): accounts, plans, keys (hashes), the credit
 * log, the usage log and the audit trail. Every write is one transaction; the logs are append-only, so
 * an account's balance is always `credits − debits` and can be rebuilt from here when the ledger Redis
 * is lost (recorded-store.ts). Reads here are for the administration paths, never a metered call's.
 */
import type { Database, Queryable } from '@retail/database/database';
import type { AuditEntry, Interface } from '../api.js';
import type { PlanTable } from '../plans.js';
import type { AccountSnapshot, StoredKey } from '../store.js';
import { lateDebit, usageBarrier, writeUsage, type LateDebit, type LateRow, type UsageRow, type WrittenUsage } from './usage-writes.js';

export type { LateDebit, UsageRow, WrittenUsage } from './usage-writes.js';

export interface LedgerRecord {
  recordPlans(plans: PlanTable, now: number): Promise<void>;
  /** False when the id is taken. */
  createAccount(accountId: string, units: number, plan: string, audit: AuditEntry): Promise<boolean>;
  /** The credit's id, or null when there is no live account. */
  grantUnits(accountId: string, units: number, audit: AuditEntry): Promise<string | null>;
  /** Takes back a credit the ledger never applied (its Redis write failed). */
  withdrawCredit(creditId: string): Promise<void>;
  setAccountField(accountId: string, field: 'plan' | 'disabled', value: string, audit: AuditEntry): Promise<boolean>;
  deleteAccount(accountId: string, at: number): Promise<boolean>;
  createKey(accountId: string, key: StoredKey, audit: AuditEntry): Promise<boolean>;
  /** Removes a key the ledger refused (limit) and its audit entry: it was never handed out. */
  forgetKey(keyId: string): Promise<void>;
  revokeKey(accountId: string, keyId: string, at: number, audit: AuditEntry): Promise<boolean>;
  /** Appends charged calls; a hold id already recorded is skipped. The number of rows written. */
  recordUsage(rows: readonly UsageRow[]): Promise<number>;
  /**
   * Runs `read` (a hand-off taking its next batch) and writes what it read in one transaction holding
   * the usage gate, so a restore's `usageBarrier` waits for every batch taken before it (restore-epochs.ts).
   */
  writeUsage(read: () => Promise<readonly UsageRow[]>): Promise<WrittenUsage>;
  /** Waits until every batch being written now is in; false when that took longer than `timeoutMs`. */
  usageBarrier(timeoutMs: number): Promise<boolean>;
  /**
   * A live (not deleted) account's state for a restore, or null: it starts a new restore epoch (the
   * snapshot's `epoch`) and counts every debit recorded before it.
   */
  accountSnapshot(accountId: string): Promise<AccountSnapshot | null>;
  /** The account's late debits for a ledger restored at `epoch`: charged before it, recorded at or after it. */
  lateDebitsFor(accountId: string, epoch: number): Promise<LateDebit[]>;
  /** Newest first; none for a deleted account (its rows stay for the operator). */
  audit(accountId: string, limit: number): Promise<AuditEntry[]>;
}

const at = (ms: number) => new Date(ms);
const ms = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : new Date(value as string | Date).getTime());

async function appendAudit(tx: Queryable, accountId: string, entry: AuditEntry): Promise<void> {
  await tx.query('INSERT INTO ledger_audit (account_id, at, action, key_id, detail) VALUES ($1, $2, $3, $4, $5)', [
    accountId, new Date(entry.at), entry.action, entry.keyId ?? null, entry.detail ?? null,
  ]);
}

async function liveAccount(tx: Queryable, accountId: string): Promise<boolean> {
  const rows = await tx.query('SELECT 1 FROM ledger_accounts WHERE account_id = $1 AND deleted_at IS NULL FOR UPDATE', [accountId]);
  return rows.length > 0;
}

interface KeyRow {
  key_id: string; hash: string; prefix: string; label: string | null; operations: string[]; interfaces: string[];
  created_at: Date; expires_at: Date | null; revoked_at: Date | null;
}

function storedKey(row: KeyRow): StoredKey {
  return {
    keyId: row.key_id, hash: row.hash, prefix: row.prefix, label: row.label ?? undefined,
    operations: row.operations, interfaces: row.interfaces as Interface[], createdAt: ms(row.created_at)!,
    expiresAt: ms(row.expires_at), revokedAt: ms(row.revoked_at),
  };
}

export function createLedgerRecord(db: Database): LedgerRecord {
  return {
    async recordPlans(plans, now) {
      await db.transaction(async (tx) => {
        for (const [name, plan] of Object.entries(plans)) {
          await tx.query(
            `INSERT INTO ledger_plans (name, definition, recorded_at) VALUES ($1, $2, $3)
             ON CONFLICT (name) DO UPDATE SET definition = EXCLUDED.definition, recorded_at = EXCLUDED.recorded_at
             WHERE ledger_plans.definition IS DISTINCT FROM EXCLUDED.definition`,
            [name, JSON.stringify(plan), at(now)],
          );
        }
      });
    },
    createAccount: (accountId, units, plan, audit) => db.transaction(async (tx) => {
      const created = await tx.query(
        'INSERT INTO ledger_accounts (account_id, plan, created_at) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO NOTHING RETURNING 1',
        [accountId, plan, new Date(audit.at)],
      );
      if (created.length === 0) return false;
      await tx.query(`INSERT INTO ledger_credits (account_id, units, reason, at) VALUES ($1, $2, 'account.create', $3)`, [accountId, units, new Date(audit.at)]);
      await appendAudit(tx, accountId, audit);
      return true;
    }),
    grantUnits: (accountId, units, audit) => db.transaction(async (tx) => {
      if (!(await liveAccount(tx, accountId))) return null;
      const [row] = await tx.query<{ id: string }>(
        `INSERT INTO ledger_credits (account_id, units, reason, at) VALUES ($1, $2, 'account.grant', $3) RETURNING id`,
        [accountId, units, new Date(audit.at)],
      );
      await appendAudit(tx, accountId, audit);
      return String(row!.id);
    }),
    async withdrawCredit(creditId) {
      await db.query('DELETE FROM ledger_credits WHERE id = $1', [creditId]);
    },
    setAccountField: (accountId, field, value, audit) => db.transaction(async (tx) => {
      if (!(await liveAccount(tx, accountId))) return false;
      if (field === 'plan') await tx.query('UPDATE ledger_accounts SET plan = $2 WHERE account_id = $1', [accountId, value]);
      else await tx.query('UPDATE ledger_accounts SET disabled = $2 WHERE account_id = $1', [accountId, value === '1']);
      await appendAudit(tx, accountId, audit);
      return true;
    }),
    deleteAccount: (accountId, now) => db.transaction(async (tx) => {
      if (!(await liveAccount(tx, accountId))) return false;
      await tx.query('UPDATE ledger_accounts SET deleted_at = $2 WHERE account_id = $1', [accountId, at(now)]);
      await appendAudit(tx, accountId, { at: at(now).toISOString(), action: 'account.delete' });
      return true;
    }),
    createKey: (accountId, key, audit) => db.transaction(async (tx) => {
      if (!(await liveAccount(tx, accountId))) return false;
      await tx.query(
        `INSERT INTO ledger_keys (key_id, account_id, hash, prefix, label, operations, interfaces, created_at, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [key.keyId, accountId, key.hash, key.prefix, key.label ?? null, [...key.operations], [...key.interfaces], at(key.createdAt),
          key.expiresAt === undefined ? null : at(key.expiresAt)],
      );
      await appendAudit(tx, accountId, audit);
      return true;
    }),
    forgetKey: (keyId) => db.transaction(async (tx) => {
      await tx.query(`DELETE FROM ledger_audit WHERE key_id = $1 AND action = 'key.create'`, [keyId]);
      await tx.query('DELETE FROM ledger_keys WHERE key_id = $1', [keyId]);
    }),
    revokeKey: (accountId, keyId, now, audit) => db.transaction(async (tx) => {
      const rows = await tx.query<{ revoked: boolean }>(
        `UPDATE ledger_keys SET revoked_at = COALESCE(revoked_at, $3) WHERE key_id = $2 AND account_id = $1
         RETURNING (revoked_at = $3) AS revoked`,
        [accountId, keyId, at(now)],
      );
      if (rows.length === 0) return false;
      if (rows[0]!.revoked) await appendAudit(tx, accountId, audit);
      return true;
    }),
    async recordUsage(rows) {
      return (await writeUsage(db, async () => rows)).written;
    },
    writeUsage: (read) => writeUsage(db, read),
    usageBarrier: (timeoutMs) => usageBarrier(db, timeoutMs),
    accountSnapshot: (accountId) => db.transaction(async (tx) => {
      // The epoch first: this row lock waits for the usage writes of this account in progress and
      // makes later ones record the new epoch, so the sums below count exactly the rows before it.
      const [account] = await tx.query<{ plan: string; disabled: boolean; created_at: Date; restore_epoch: number }>(
        `UPDATE ledger_accounts SET restore_epoch = restore_epoch + 1 WHERE account_id = $1 AND deleted_at IS NULL
         RETURNING plan, disabled, created_at, restore_epoch`,
        [accountId],
      );
      if (!account) return null;
      const [sums] = await tx.query<{ credits: string; debits: string }>(
        `SELECT (SELECT COALESCE(sum(units), 0)::bigint::text FROM ledger_credits WHERE account_id = $1) AS credits,
                (SELECT COALESCE(sum(units), 0)::bigint::text FROM ledger_usage WHERE account_id = $1) AS debits`,
        [accountId],
      );
      await tx.query('INSERT INTO ledger_restores (account_id, epoch, at, credits, debits) VALUES ($1, $2, now(), $3, $4)', [
        accountId, account.restore_epoch, sums!.credits, sums!.debits,
      ]);
      const keys = await tx.query<KeyRow>('SELECT * FROM ledger_keys WHERE account_id = $1 ORDER BY created_at, key_id', [accountId]);
      return {
        accountId, plan: account.plan, disabled: account.disabled, createdAt: ms(account.created_at)!,
        balance: Number(sums!.credits) - Number(sums!.debits), keys: keys.map(storedKey), epoch: account.restore_epoch,
      };
    }),
    async lateDebitsFor(accountId, epoch) {
      const rows = await db.query<LateRow>(
        `SELECT account_id, hold_id, units, charged_epoch, recorded_epoch FROM ledger_usage
         WHERE account_id = $1 AND charged_epoch < recorded_epoch AND charged_epoch < $2 AND recorded_epoch >= $2`,
        [accountId, epoch],
      );
      return rows.map(lateDebit);
    },
    async audit(accountId, limit) {
      const rows = await db.query<{ at: Date; action: string; key_id: string | null; detail: string | null }>(
        `SELECT at, action, key_id, detail FROM ledger_audit
         WHERE account_id = $1 AND EXISTS (SELECT 1 FROM ledger_accounts WHERE account_id = $1 AND deleted_at IS NULL)
         ORDER BY id DESC LIMIT $2`,
        [accountId, limit],
      );
      return rows.map((row) => ({
        at: new Date(row.at).toISOString(), action: row.action as AuditEntry['action'],
        ...(row.key_id !== null && { keyId: row.key_id }), ...(row.detail !== null && { detail: row.detail }),
      }));
    },
  };
}
