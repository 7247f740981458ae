-- Up Migration
-- The export of the usage log to a billing system (issue 24, docs/metering.md, "Exporting usage to a
-- billing system"): an export order on ledger_usage and a cursor per destination.

-- The transaction that wrote each usage row. Rows are written by every metering process's hand-off at
-- once, so neither settled_at nor an identity column is in commit order (a row can become visible after
-- a later-numbered one). A full transaction id is: every row of a transaction below the oldest one still
-- running (pg_snapshot_xmin) is committed or gone for good, and any row written later carries a larger
-- id. The exporter reads only below that line, so a cursor on (xid, account, hold) never skips a row.
-- Existing rows take the migration's own transaction id.
ALTER TABLE ledger_usage ADD COLUMN recorded_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE INDEX ledger_usage_export_order ON ledger_usage (recorded_xid, account_id, hold_id);

-- One row per destination ('billing'). The cursor is the last row a receiver acknowledged (2xx); the
-- batch in flight is fixed before it is sent, so a retry sends the same events under the same id.
CREATE TABLE ledger_usage_exports (
  destination text PRIMARY KEY,
  -- Last exported row, in export order; null: nothing exported yet.
  after_xid xid8,
  after_account text,
  after_hold text,
  -- End of the batch being sent (null: none), and how many events it holds.
  batch_xid xid8,
  batch_account text,
  batch_hold text,
  batch_events integer,
  exported bigint NOT NULL DEFAULT 0,
  -- Consecutive failed sends, and when the next may be tried (the back-off).
  failures integer NOT NULL DEFAULT 0,
  retry_at timestamptz,
  last_error text,
  last_success_at timestamptz,
  -- The exporter at work: one at a time across replicas (a lease, not a session lock: see usage-export.ts).
  lease_owner text,
  lease_until timestamptz
);
