/**
 * Writing settled usage to the record, and the two things that keep a restore from handing units out
 * twice (docs/metering.md, "Restore"):
 *
 * - **The usage gate.** A hand-off takes its batch (reads the stream) and writes it inside one
 *   transaction that holds a shared advisory lock; a restore first takes the same lock exclusively for
 *   an instant (`usageBarrier`), so it waits until every batch taken before it (before a flush of the
 *   ledger Redis, say, by another process) is in the record, and the balance it restores counts it.
 * - **Restore epochs**, for what the gate cannot hold (a batch whose transaction broke and is written
 *   again after the restore, a barrier that timed out): each row records the epoch its account was
 *   charged in (the ledger account's, handed off with the call) and the record's epoch when it was
 *   written, read under a share lock of the account's row that the restore's epoch bump waits for. A
 *   row charged before the epoch it was recorded in was not counted by that restore: a late debit.
 *
 * An advisory lock rather than a table of consumers: PostgreSQL releases it when the holder's
 * connection dies, so a consumer that crashes mid-batch never blocks a restore.
 */
import type { Database, Queryable } from '@retail/database/database';
import type { UsageInterface } from '../api.js';

/** One charged call, as the settle answered it. */
export interface UsageRow {
  readonly accountId: string;
  readonly holdId: string;
  /** '' for background work. */
  readonly keyId: string;
  readonly iface: UsageInterface;
  readonly operations: readonly string[];
  readonly units: number;
  /** Epoch ms. */
  readonly at: number;
  /** The restore epoch of the ledger account that charged it (0: never restored; restore-epochs.ts). */
  readonly epoch?: number;
}

/**
 * A charged call the record got after a restore of its account that could not count it (charged in
 * epoch `chargedEpoch`, recorded in `recordedEpoch`): the ledger restored at an epoch in
 * (chargedEpoch, recordedEpoch] must still take its units (store.lateDebit).
 */
export interface LateDebit {
  readonly accountId: string;
  readonly holdId: string;
  readonly units: number;
  readonly chargedEpoch: number;
  readonly recordedEpoch: number;
}

/** A batch of usage written: how many rows were new, and which of the batch are late debits. */
export interface WrittenUsage {
  readonly rows: readonly UsageRow[];
  readonly written: number;
  readonly late: readonly LateDebit[];
}

/** The usage gate's advisory lock ("lusg"), apart from the record's migration lock. */
const USAGE_GATE_LOCK_ID = 0x6c757367;

export interface LateRow {
  account_id: string; hold_id: string; units: number; charged_epoch: number; recorded_epoch: number;
}

export const lateDebit = (row: LateRow): LateDebit => ({
  accountId: row.account_id, holdId: row.hold_id, units: Number(row.units),
  chargedEpoch: Number(row.charged_epoch), recordedEpoch: Number(row.recorded_epoch),
});

/** Inserts `rows` (a repeated hold id is skipped); the number written and the batch's late debits. */
async function insertUsage(tx: Queryable, rows: readonly UsageRow[]): Promise<{ written: number; late: LateDebit[] }> {
  const accounts = [...new Set(rows.map((r) => r.accountId))].sort();
  // The accounts' rows, shared: a restore bumping an epoch waits for this write, and this write reads
  // the epoch a restore committed before it. Sorted, so two writers never wait on each other in a cycle.
  const epochs = await tx.query<{ account_id: string; restore_epoch: number }>(
    'SELECT account_id, restore_epoch FROM ledger_accounts WHERE account_id = ANY($1) ORDER BY account_id FOR SHARE',
    [accounts],
  );
  const epochOf = new Map(epochs.map((row) => [row.account_id, Number(row.restore_epoch)]));
  // One statement for the batch, its rows as one JSON parameter: JSON.stringify is native, where
  // node-postgres escapes array parameters element by element, and only the count and the late rows
  // come back (measured: bench/metering.ts, docs/metering.md).
  const batch = JSON.stringify(rows.map((r) => ({
    a: r.accountId, h: r.holdId, k: r.keyId, i: r.iface, o: r.operations.join(','), u: r.units, t: r.at,
    c: r.epoch ?? 0, s: epochOf.get(r.accountId) ?? 0,
  })));
  const [result] = await tx.query<{ n: number; late: LateRow[] | null }>(
    `WITH written AS (
       INSERT INTO ledger_usage (account_id, hold_id, key_id, interface, operations, units, settled_at, charged_epoch, recorded_epoch)
       SELECT a, h, k, i, string_to_array(o, ','), u, to_timestamp(t / 1000.0), c, s
       FROM json_to_recordset($1::json) AS r (a text, h text, k text, i text, o text, u integer, t bigint, c integer, s integer)
       ON CONFLICT (account_id, hold_id) DO NOTHING
       RETURNING account_id, hold_id, units, charged_epoch, recorded_epoch)
     SELECT count(*)::integer AS n,
       json_agg(json_build_object('account_id', account_id, 'hold_id', hold_id, 'units', units, 'charged_epoch', charged_epoch,
         'recorded_epoch', recorded_epoch)) FILTER (WHERE charged_epoch < recorded_epoch) AS late
     FROM written`,
    [batch],
  );
  const written = result!.n;
  let late = (result!.late ?? []).map(lateDebit);
  if (written < rows.length) {
    // Rows delivered again (a consumer that died after writing): their late debits may not have been
    // applied yet. The ledger applies each hold id once, so handing them over again is harmless.
    const again = await tx.query<LateRow>(
      `SELECT u.account_id, u.hold_id, u.units, u.charged_epoch, u.recorded_epoch
       FROM ledger_usage u JOIN json_to_recordset($1::json) AS r (a text, h text) ON u.account_id = r.a AND u.hold_id = r.h
       WHERE u.charged_epoch < u.recorded_epoch`,
      [batch],
    );
    late = again.map(lateDebit);
  }
  return { written, late };
}

export function writeUsage(db: Database, read: () => Promise<readonly UsageRow[]>): Promise<WrittenUsage> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock_shared($1)', [USAGE_GATE_LOCK_ID]);
    const rows = await read();
    if (rows.length === 0) return { rows, written: 0, late: [] };
    return { rows, ...(await insertUsage(tx, rows)) };
  });
}

/** PostgreSQL's "lock not available" (lock_timeout passed). */
const LOCK_NOT_AVAILABLE = '55P03';

export async function usageBarrier(db: Database, timeoutMs: number): Promise<boolean> {
  try {
    await db.transaction(async (tx) => {
      await tx.query(`SET LOCAL lock_timeout = '${Math.max(1, Math.round(timeoutMs))}ms'`);
      await tx.query('SELECT pg_advisory_xact_lock($1)', [USAGE_GATE_LOCK_ID]);
    });
    return true;
  } catch (error) {
    if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return false;
    throw error;
  }
}
