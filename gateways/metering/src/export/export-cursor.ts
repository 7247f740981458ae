/**
 * The export's state in the record (migration 0002, ledger_usage_exports): the cursor (the last row a
 * receiver acknowledged), the batch in flight, the back-off, and the lease that lets one exporter work at
 * a time. Every write after the lease is taken is fenced by the owner, so an exporter whose lease ran out
 * and was taken over cannot move the cursor any more.
 */
import type { Queryable } from '@retail/database/database';
import type { ExportedUsageRow } from './usage-events.js';

/** A row's place in export order: (transaction id, account, hold id). */
export interface ExportPosition {
  readonly xid: string;
  readonly accountId: string;
  readonly holdId: string;
}

export interface ExportState {
  readonly after?: ExportPosition;
  /** The batch fixed before its send and not acknowledged yet. */
  readonly batch?: ExportPosition & { readonly events: number };
  readonly exported: number;
  readonly failures: number;
  /** Epoch ms; the next send waits until then. */
  readonly retryAt?: number;
  /** Whether `retryAt` is still ahead, by the database's clock (one clock for every replica). */
  readonly waiting: boolean;
  readonly lastError?: string;
  readonly lastSuccessAt?: number;
}

interface StateRow {
  after_xid: string | null; after_account: string | null; after_hold: string | null;
  batch_xid: string | null; batch_account: string | null; batch_hold: string | null; batch_events: number | null;
  exported: string; failures: number; retry_at: Date | null; last_error: string | null; last_success_at: Date | null; waiting: boolean | null;
}

const STATE_COLUMNS = `after_xid::text, after_account, after_hold, batch_xid::text, batch_account, batch_hold, batch_events,
  exported::text, failures, retry_at, last_error, last_success_at, retry_at > now() AS waiting`;

function stateOf(row: StateRow): ExportState {
  return {
    ...(row.after_xid !== null && { after: { xid: row.after_xid, accountId: row.after_account!, holdId: row.after_hold! } }),
    ...(row.batch_xid !== null && { batch: { xid: row.batch_xid, accountId: row.batch_account!, holdId: row.batch_hold!, events: row.batch_events! } }),
    exported: Number(row.exported),
    failures: row.failures,
    waiting: row.waiting === true,
    ...(row.retry_at !== null && { retryAt: new Date(row.retry_at).getTime() }),
    ...(row.last_error !== null && { lastError: row.last_error }),
    ...(row.last_success_at !== null && { lastSuccessAt: new Date(row.last_success_at).getTime() }),
  };
}

/** Takes (or renews) the destination's lease; the state, or null while another exporter holds it. */
export async function takeLease(db: Queryable, destination: string, owner: string, leaseMs: number): Promise<ExportState | null> {
  await db.query('INSERT INTO ledger_usage_exports (destination) VALUES ($1) ON CONFLICT (destination) DO NOTHING', [destination]);
  const [row] = await db.query<StateRow>(
    `UPDATE ledger_usage_exports SET lease_owner = $2, lease_until = now() + $3 * interval '1 millisecond'
     WHERE destination = $1 AND (lease_owner IS NULL OR lease_owner = $2 OR lease_until < now())
     RETURNING ${STATE_COLUMNS}`,
    [destination, owner, leaseMs],
  );
  return row ? stateOf(row) : null;
}

export async function releaseLease(db: Queryable, destination: string, owner: string): Promise<void> {
  await db.query('UPDATE ledger_usage_exports SET lease_owner = NULL, lease_until = NULL WHERE destination = $1 AND lease_owner = $2', [destination, owner]);
}

/** The destination's state without the lease (metrics, the admin), or null before its first run. */
export async function readExportState(db: Queryable, destination: string): Promise<ExportState | null> {
  const [row] = await db.query<StateRow>(`SELECT ${STATE_COLUMNS} FROM ledger_usage_exports WHERE destination = $1`, [destination]);
  return row ? stateOf(row) : null;
}

/**
 * BILLING_EXPORT_START=now at the first run: the cursor is put at the log's current end, so every row
 * committed before is skipped. The end is the oldest transaction still running (readRows' bound), not
 * the last row: a row whose transaction is open now sorts at or after that transaction id, so it is
 * still exported when it commits, and no row can slip in behind the cursor. `(xmin, '', '')` sorts
 * before every row of transaction xmin (an account id is never empty). Only while the destination has
 * no cursor and no batch in flight; once one exists this changes nothing. The new state, or null when
 * the lease was lost.
 */
export async function startAtLogEnd(db: Queryable, destination: string, owner: string): Promise<ExportState | null> {
  const [row] = await db.query<StateRow>(
    `UPDATE ledger_usage_exports SET after_xid = pg_snapshot_xmin(pg_current_snapshot()), after_account = '', after_hold = ''
     WHERE destination = $1 AND lease_owner = $2 AND after_xid IS NULL AND batch_xid IS NULL
     RETURNING ${STATE_COLUMNS}`,
    [destination, owner],
  );
  return row ? stateOf(row) : null;
}

/** Before the first row in export order. */
const START: ExportPosition = { xid: '0', accountId: '', holdId: '' };

interface UsageRowRecord {
  account_id: string; hold_id: string; key_id: string; interface: string; operations: string[]; units: number; settled_at: Date; xid: string;
}

export type PositionedRow = ExportedUsageRow & { readonly position: ExportPosition };

/**
 * The rows after `after`: up to `limit` of them, and only rows of transactions below the oldest one
 * still running, so that no row can later appear before the end of what was read (migration 0002);
 * or, with `until` (a batch in flight), exactly the rows up to it, which no later write can join.
 */
export async function readRows(db: Queryable, after: ExportPosition | undefined, limit: number, until?: ExportPosition): Promise<PositionedRow[]> {
  const from = after ?? START;
  const params: unknown[] = [from.xid, from.accountId, from.holdId, limit];
  const bound = until
    ? (params.push(until.xid, until.accountId, until.holdId), '(recorded_xid, account_id, hold_id) <= ($5::xid8, $6, $7)')
    : 'recorded_xid < pg_snapshot_xmin(pg_current_snapshot())';
  const rows = await db.query<UsageRowRecord>(
    `SELECT account_id, hold_id, key_id, interface, operations, units, settled_at, recorded_xid::text AS xid
     FROM ledger_usage
     WHERE (recorded_xid, account_id, hold_id) > ($1::xid8, $2, $3) AND ${bound}
     ORDER BY recorded_xid, account_id, hold_id LIMIT $4`,
    params,
  );
  return rows.map((row) => ({
    accountId: row.account_id, holdId: row.hold_id, keyId: row.key_id, iface: row.interface, operations: row.operations,
    units: row.units, settledAt: new Date(row.settled_at), position: { xid: row.xid, accountId: row.account_id, holdId: row.hold_id },
  }));
}

/** Fixes the batch about to be sent (so a retry sends the same rows); false when the lease was lost. */
export async function fixBatch(db: Queryable, destination: string, owner: string, end: ExportPosition, events: number, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ledger_usage_exports SET batch_xid = $3::xid8, batch_account = $4, batch_hold = $5, batch_events = $6,
       lease_until = now() + $7 * interval '1 millisecond'
     WHERE destination = $1 AND lease_owner = $2 RETURNING 1`,
    [destination, owner, end.xid, end.accountId, end.holdId, events, leaseMs],
  );
  return rows.length > 0;
}

/** The receiver acknowledged the batch: the cursor moves to its end. False when the lease was lost. */
export async function advanceCursor(db: Queryable, destination: string, owner: string, leaseMs: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ledger_usage_exports SET after_xid = batch_xid, after_account = batch_account, after_hold = batch_hold,
       exported = exported + batch_events, batch_xid = NULL, batch_account = NULL, batch_hold = NULL, batch_events = NULL,
       failures = 0, retry_at = NULL, last_error = NULL, last_success_at = now(), lease_until = now() + $3 * interval '1 millisecond'
     WHERE destination = $1 AND lease_owner = $2 AND batch_xid IS NOT NULL RETURNING 1`,
    [destination, owner, leaseMs],
  );
  return rows.length > 0;
}

/** A send failed: counted, and the next one waits `retryInMs`. */
export async function recordFailure(db: Queryable, destination: string, owner: string, error: string, retryInMs: number): Promise<void> {
  await db.query(
    `UPDATE ledger_usage_exports SET failures = failures + 1, last_error = $3, retry_at = now() + $4 * interval '1 millisecond'
     WHERE destination = $1 AND lease_owner = $2`,
    [destination, owner, error.slice(0, 500), retryInMs],
  );
}

/** Rows not exported yet (counted up to `cap`) and the settle time of the first of them, for the lag. */
export async function pendingRows(db: Queryable, after: ExportPosition | undefined, cap: number): Promise<{ rows: number; oldest?: number }> {
  const from = after ?? START;
  const [row] = await db.query<{ rows: number; oldest: Date | null }>(
    `SELECT count(*)::integer AS rows, min(settled_at) AS oldest FROM (
       SELECT settled_at FROM ledger_usage WHERE (recorded_xid, account_id, hold_id) > ($1::xid8, $2, $3)
       ORDER BY recorded_xid, account_id, hold_id LIMIT $4) AS pending`,
    [from.xid, from.accountId, from.holdId, cap],
  );
  return { rows: row!.rows, ...(row!.oldest !== null && { oldest: new Date(row!.oldest).getTime() }) };
}
